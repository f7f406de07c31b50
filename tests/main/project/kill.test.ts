// A process writing runs is killed with SIGKILL; the file must reopen, pass an integrity check
// and hold every run the child reported as committed.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { Database } from '../../../src-main/project/sqlite.ts';
import { setStuckLockMs } from '../../../src-main/project/lock.ts';
import { tempDir } from './fixtures.ts';

const child = path.resolve('tests/main/project/writer-child.ts');

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Starts the child and resolves with it once `until(line)` is true for a stdout line. */
function startChild(mode: string, file: string, until: (line: string, lines: string[]) => boolean): Promise<{ proc: ChildProcess; lines: string[] }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, mode, file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  // One process (node --import tsx, not the tsx wrapper), so SIGKILL hits the writer itself.
  return new Promise((resolve, reject) => {
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      lines.push(line);
      if (until(line, lines)) resolve({ proc, lines });
    });
    proc.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child exited early (${code ?? signal}): ${stderr}`));
    });
  });
}

function kill9(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    proc.on('exit', () => resolve());
    proc.kill('SIGKILL');
  });
}

/** The child's 300 committed notes, exactly as committed, and nothing of its open transaction. */
function expectCommittedNotesOnly(project: Project): void {
  const notes = project.notes();
  expect(notes).toHaveLength(300);
  notes.forEach((n, i) => {
    expect(n.createdAt).toBe('committed');
    expect(n.text).toBe(`note ${i} `.repeat(40));
  });
}

describe('kill -9 while writing', () => {
  it('loses nothing that was committed, in several rounds at different moments', async () => {
    const file = path.join(dir, 'p.saikoro');
    Project.create(file).close();
    const committed = new Set<string>();
    for (const target of [4, 15]) {
      // Kill as soon as the child reports `target` commits: it is then inside its next write.
      const { proc, lines } = await startChild('runs', file, (_line, all) => all.length >= target);
      await kill9(proc);
      for (const line of lines) committed.add(`run-${line.split(' ')[1].padStart(6, '0')}`);
      const project = Project.open(file);
      const stored = new Set(project.runs().map((r) => r.id));
      for (const id of committed) expect(stored.has(id)).toBe(true);
      for (const r of project.runs()) expect(r.result?.evaluations).toBe(1000);
      project.close();
    }
    const check = new Database(file, { readOnly: true });
    expect(check.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    check.close();
  });

  it('rolls back a transaction killed after it spilled into the file, clearing the dead lock', async () => {
    const file = path.join(dir, 'p.saikoro');
    Project.create(file).close();
    const { proc } = await startChild('stuck', file, (line) => line === 'in-transaction');
    await kill9(proc);
    // The dead writer left its lock directory and a hot journal behind.
    expect(fs.statSync(`${file}.lock`).isDirectory()).toBe(true);
    expect(fs.statSync(`${file}-journal`).size).toBeGreaterThan(0);
    // The journal has several segments (the child re-synced it on every spill).
    const journal = fs.readFileSync(`${file}-journal`);
    const magic = journal.subarray(0, 8);
    const sector = journal.readUInt32BE(20);
    let segments = 0;
    for (let offset = 0; offset < journal.length; offset += sector) if (journal.subarray(offset, offset + 8).equals(magic)) segments++;
    expect(segments).toBeGreaterThan(1);
    const originalPages = journal.readUInt32BE(16);
    const pageSize = journal.readUInt32BE(24);
    const project = Project.open(file);
    expectCommittedNotesOnly(project);
    project.close();
    expect(fs.statSync(file).size).toBe(originalPages * pageSize);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
    expect(fs.existsSync(`${file}-journal`)).toBe(false);
    const check = new Database(file, { readOnly: true });
    expect(check.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    check.close();
  });
});

describe('a writer that dies while another process has the file open', () => {
  it('has its lock broken after it has been held unchanged for the stuck-lock time, and its transaction rolled back', async () => {
    const file = path.join(dir, 'p.saikoro');
    Project.create(file).close();
    const { proc } = await startChild('stuck', file, (line) => line === 'in-transaction');
    await kill9(proc);
    // Another live Saikoro process (our parent, standing in) has the file open, so opening
    // must not assume the lock is stale.
    const marker = `${file}.open.${os.hostname()}.${process.ppid}`;
    fs.writeFileSync(marker, '');
    const previous = setStuckLockMs(300);
    try {
      const project = Project.open(file);
      expectCommittedNotesOnly(project);
      project.addNote('after recovery');
      project.close();
    } finally {
      setStuckLockMs(previous);
      fs.rmSync(marker);
    }
    expect(fs.existsSync(`${file}-journal`)).toBe(false);
    const check = new Database(file, { readOnly: true });
    expect(check.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    expect(check.all("SELECT text FROM notes WHERE created_at != 'committed'")).toEqual([{ text: 'after recovery' }]);
    check.close();
  });
});
