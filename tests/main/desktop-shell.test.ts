// The desktop window's project handling, as plain functions (Electron itself cannot run here).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Project } from '../../src-main/project/store.ts';
import { downloadRefusal, droppedProjectFile, fileMenu, windowTitle, type FileMenuActions, type MenuSpec } from '../../src-main/desktop-shell.ts';

function actions() {
  const calls: string[] = [];
  const a: FileMenuActions = {
    newProject: () => calls.push('new'),
    openProject: () => calls.push('open'),
    openRecent: (p) => calls.push(`recent ${p}`),
    closeProject: () => calls.push('close'),
    exportReport: () => calls.push('export'),
    quit: () => calls.push('quit'),
  };
  return { a, calls };
}
const labels = (m: MenuSpec) => (m.submenu ?? []).map((i) => i.label ?? i.type ?? i.role);

describe('the File menu', () => {
  it('has New, Open, Open Recent, Close, Export and Quit, wired to the actions', () => {
    const { a, calls } = actions();
    const menu = fileMenu(a, [{ path: '/home/u/study.saikoro', name: 'study', sizeBytes: 1, modifiedAt: null }], true, false);
    expect(labels(menu)).toEqual(['New Project…', 'Open Project…', 'Open Recent', 'Close Project', 'separator', 'Export Report…', 'separator', 'Quit']);
    for (const item of menu.submenu!) item.click?.();
    menu.submenu![2].submenu![0].click!();
    expect(calls).toEqual(['new', 'open', 'close', 'export', 'quit', 'recent /home/u/study.saikoro']);
    expect(menu.submenu![0].accelerator).toBe('CmdOrCtrl+N');
    expect(menu.submenu![1].accelerator).toBe('CmdOrCtrl+O');
  });

  it('without a project Close and Export are disabled; no recent files says so; macOS closes the window', () => {
    const menu = fileMenu(actions().a, [], false, true);
    expect(menu.submenu![3]).toMatchObject({ label: 'Close Project', enabled: false });
    expect(menu.submenu![5]).toMatchObject({ label: 'Export Report…', enabled: false });
    expect(menu.submenu![2].submenu).toEqual([{ label: 'No recent projects', enabled: false }]);
    expect(menu.submenu!.at(-1)).toEqual({ role: 'close' });
  });
});

describe('the window', () => {
  it('the title names the project', () => {
    expect(windowTitle(null)).toBe('Saikoro');
    expect(windowTitle({ name: 'study', path: '/x/study.saikoro', readOnly: false })).toBe('study — Saikoro');
    expect(windowTitle({ name: 'study', path: '/x/study.saikoro', readOnly: true })).toBe('study (read-only) — Saikoro');
  });

  it('a dropped *.saikoro file is opened; anything else is not', () => {
    expect(droppedProjectFile('file:///home/u/My%20study.saikoro')).toBe('/home/u/My study.saikoro');
    expect(droppedProjectFile('file:///home/u/notes.txt')).toBeNull();
    expect(droppedProjectFile('https://example.com/x.saikoro')).toBeNull();
    expect(droppedProjectFile('not a url')).toBeNull();
  });
});

describe('a download saved from the page (an export)', () => {
  it('never goes over a project, a FIFO, a device or a folder; any other file the save dialog confirmed may be replaced', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-download-'));
    try {
      Project.create(path.join(dir, 'study.saikoro')).close();
      fs.copyFileSync(path.join(dir, 'study.saikoro'), path.join(dir, 'renamed.html'));
      execFileSync('mkfifo', [path.join(dir, 'pipe.csv')]);
      fs.writeFileSync(path.join(dir, 'notes.csv'), 'mine\n');
      expect(downloadRefusal(path.join(dir, 'study.saikoro'))).toBe('is a Saikoro project: a project is never replaced by an output (choose another name)');
      expect(downloadRefusal(path.join(dir, 'renamed.html'))).toBe('is a Saikoro project: a project is never replaced by an output (choose another name)');
      expect(downloadRefusal(path.join(dir, 'pipe.csv'))).toBe('is a FIFO, not a regular file: not replaced');
      expect(downloadRefusal('/dev/null')).toBe('is a device, not a regular file: not replaced');
      expect(downloadRefusal(dir)).toBe('is a directory');
      expect(downloadRefusal(path.join(dir, 'notes.csv'))).toBeNull();
      expect(downloadRefusal(path.join(dir, 'new.json'))).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
