// The desktop's project paths: a message from the page may open or create only a file the
// user chose in a native dialog or dropped onto the window (or opened before: the recent list);
// any other absolute path is refused, however it is spelt.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { desktopPaths, PathError } from '../../../src-main/app/project-paths.ts';
import { approvingPicker } from '../../../src-main/desktop-shell.ts';
import { dispatchCall } from '../../../src-main/api/dispatch.ts';
import { createAppCore } from '../../../src-main/api/core.ts';
import { nodeSpawner } from '../../../src-main/host/spawner.ts';

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-desktop-paths-')));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('not refused');
};

describe('desktop project paths', () => {
  it('refuses a path nobody picked or dropped; accepts it once picked or dropped', () => {
    const paths = desktopPaths(path.join(dir, 'recent-1.json'), dir);
    const file = path.join(dir, 'study.saikoro');
    const refused = refusal(() => paths.resolve(file, 'open'));
    expect(refused).toBeInstanceOf(PathError);
    expect(refused).toMatchObject({
      field: 'path',
      message: `path: ${JSON.stringify(file)} was not chosen in a file dialog or dropped onto the window (use File > Open Project…)`,
    });
    expect(() => paths.resolve(file, 'create')).toThrow(PathError);
    // Another spelling of it is the same file, and is refused as well.
    expect(() => paths.resolve(path.join(dir, 'sub', '..', 'study.saikoro'), 'open')).toThrow(PathError);
    // A relative path (resolved against the working folder) is not a chosen one either.
    expect(() => paths.resolve('study.saikoro', 'open')).toThrow(PathError);
    paths.approve(file);
    expect(paths.resolve(file, 'open')).toBe(file);
    expect(paths.resolve(path.join(dir, 'sub', '..', 'study.saikoro'), 'create')).toBe(file);
    expect(() => paths.resolve(path.join(dir, 'other.saikoro'), 'open')).toThrow(PathError);
    // The text is checked first, as before.
    expect(refusal(() => paths.resolve(42, 'open'))).toMatchObject({ message: 'path: must be a file name ending in .saikoro, got 42' });
    expect(() => paths.approve('relative.saikoro')).toThrow(/absolute/);
  });

  it('files opened before (the recent list, which only the main process writes) may be opened again', () => {
    const recentFile = path.join(dir, 'recent-2.json');
    const first = desktopPaths(recentFile, dir);
    const file = path.join(dir, 'again.saikoro');
    first.approve(file);
    first.remember(file);
    // A new app session: nothing picked yet, but the file is on the recent list.
    const next = desktopPaths(recentFile, dir);
    expect(next.resolve(file, 'open')).toBe(file);
    // Open only: a recent file is never created over.
    expect(() => next.resolve(file, 'create')).toThrow(PathError);
  });

  it('through the API: the page opens only what the dialog answered', async () => {
    const recentFile = path.join(dir, 'recent-3.json');
    const paths = desktopPaths(recentFile, dir);
    const chosen = path.join(dir, 'picked.saikoro');
    const dialogs: string[] = [];
    // Wired as the desktop wires it (src-main/electron/main.ts).
    const core = createAppCore({
      appInfo: { name: 'saikoro', version: '0', platform: 'test', runtime: 'electron' },
      spawn: nodeSpawner(),
      parallelism: 1,
      paths,
      pickProjectFile: approvingPicker(paths, async (purpose) => {
        dialogs.push(purpose);
        return chosen;
      }),
    });
    const { api } = core;
    try {
      const before = await dispatchCall(api, 'createProject', [chosen]);
      expect(before).toMatchObject({ ok: false, error: { name: 'PathError', field: 'path' } });
      expect(fs.existsSync(chosen)).toBe(false);
      expect(await dispatchCall(api, 'pickProjectFile', ['create'])).toEqual({ ok: true, value: chosen });
      expect(await dispatchCall(api, 'createProject', [chosen])).toMatchObject({ ok: true, value: { path: chosen, name: 'picked' } });
      expect(await dispatchCall(api, 'openProject', ['/etc/passwd.saikoro'])).toMatchObject({ ok: false, error: { name: 'PathError' } });
      expect(dialogs).toEqual(['create']);
    } finally {
      core.dispose();
    }
  });

  it('a cancelled dialog approves nothing', async () => {
    const paths = desktopPaths(null, dir);
    const pick = approvingPicker(paths, async () => null);
    expect(await pick('open')).toBeNull();
    expect(() => paths.resolve(path.join(dir, 'x.saikoro'), 'open')).toThrow(PathError);
  });
});
