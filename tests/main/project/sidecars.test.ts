// What recovery at open does with the files beside a project that are not what they should be
// (issue 21): a journal that is not a journal, a journal whose records do not match their
// checksums, a stale lock directory with something in it, are kept aside under a new name and
// reported, never deleted; a FILE.lock that is not a directory is named as such at once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { runCli } from '../cli/io.ts';
import { fileDigest, tempDir } from './fixtures.ts';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = tempDir();
  file = path.join(dir, 'p.saikoro');
  expect((await runCli(['project', 'new', 'p.saikoro'], { cwd: dir })).code).toBe(0);
  expect((await runCli(['project', 'note', 'p.saikoro', 'kept'], { cwd: dir })).code).toBe(0);
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Files beside the project whose names start with its name. */
function beside(): string[] {
  return fs
    .readdirSync(dir)
    .filter((n) => n !== 'p.saikoro' && n.startsWith('p.saikoro'))
    .sort();
}

const JOURNAL_MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);

describe('recovery keeps aside what it cannot use', () => {
  it('a journal that is not a journal (no header) is renamed, reported, and the file opens', async () => {
    const garbage = Buffer.from("these bytes are somebody else's, not a rollback journal ".repeat(20));
    fs.writeFileSync(`${file}-journal`, garbage);
    const before = fileDigest(file);
    const r = await runCli(['project', 'info', 'p.saikoro'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 note(s)');
    const [aside] = beside();
    expect(beside()).toEqual([aside]);
    expect(aside).toMatch(/^p\.saikoro-journal\.kept-\d{8}T\d{6}Z$/);
    expect(fs.readFileSync(path.join(dir, aside))).toEqual(garbage);
    expect(r.stderr).toBe(`saikoro: p.saikoro-journal: not a rollback journal (no journal header); kept aside as ${aside}\n`);
    expect(fileDigest(file)).toBe(before);
  });

  it('a journal whose records do not match their checksums is renamed and reported after what could be played back', async () => {
    const pageSize = fs.readFileSync(file).readUInt16BE(16);
    const pages = fs.statSync(file).size / pageSize;
    const header = Buffer.alloc(512);
    JOURNAL_MAGIC.copy(header, 0);
    header.writeUInt32BE(1, 8); // one record
    header.writeUInt32BE(12345, 12); // checksum seed
    header.writeUInt32BE(pages, 16);
    header.writeUInt32BE(512, 20);
    header.writeUInt32BE(pageSize, 24);
    const record = Buffer.alloc(4 + pageSize + 4, 0x5a);
    record.writeUInt32BE(1, 0);
    record.writeUInt32BE(0xdeadbeef, 4 + pageSize); // not the checksum of the page
    const journal = Buffer.concat([header, record]);
    fs.writeFileSync(`${file}-journal`, journal);
    const before = fileDigest(file);
    const r = await runCli(['project', 'info', 'p.saikoro'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const [aside] = beside();
    expect(beside()).toEqual([aside]);
    expect(aside).toMatch(/^p\.saikoro-journal\.kept-/);
    expect(fs.readFileSync(path.join(dir, aside))).toEqual(journal);
    expect(r.stderr).toBe(`saikoro: p.saikoro-journal: record 1 of 1 does not match its checksum (0 page(s) played back); kept aside as ${aside}\n`);
    expect(fileDigest(file)).toBe(before);
  });

  it('a stale lock directory with something in it is renamed with its content and reported', async () => {
    fs.mkdirSync(`${file}.lock`);
    fs.writeFileSync(path.join(`${file}.lock`, 'notes.txt'), 'mine');
    const r = await runCli(['project', 'note', 'p.saikoro', 'after'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const [aside] = beside();
    expect(beside()).toEqual([aside]);
    expect(aside).toMatch(/^p\.saikoro\.lock\.kept-/);
    expect(fs.readFileSync(path.join(dir, aside, 'notes.txt'), 'utf8')).toBe('mine');
    expect(r.stderr).toBe(`saikoro: p.saikoro.lock: a lock directory left by a process that has ended, with 1 file(s) in it; kept aside as ${aside}\n`);
    const project = Project.open(file, { readOnly: true });
    expect(project.notes().map((n) => n.text)).toEqual(['kept', 'after']);
    project.close();
  });

  it('an empty stale lock directory (what a killed writer leaves) is just cleared, silently', async () => {
    fs.mkdirSync(`${file}.lock`);
    const r = await runCli(['project', 'info', 'p.saikoro'], { cwd: dir });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(beside()).toEqual([]);
  });

  it('a file named like an open marker that is not one (it has content) is left alone', async () => {
    // The name of a marker of a dead process (no pid is that large) on this host.
    fs.writeFileSync(`${file}.open.${os.hostname()}.${2 ** 22 + 1}`, 'not a marker');
    const r = await runCli(['project', 'info', 'p.saikoro'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(beside()).toHaveLength(1);
  });
});

describe('a lock that is not a lock', () => {
  it.each([
    ['a plain file', (p: string) => fs.writeFileSync(p, 'x'), 'a file'],
    ['a symbolic link', (p: string) => fs.symlinkSync('/tmp', p), 'a symbolic link'],
  ])('FILE.lock as %s is named at once, for every command', async (_, make, what) => {
    make(`${file}.lock`);
    const before = fileDigest(file);
    for (const argv of [
      ['project', 'info', 'p.saikoro'],
      ['project', 'note', 'p.saikoro', 'x'],
      ['experiment', 'status', 'p.saikoro'],
    ]) {
      const r = await runCli(argv, { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `saikoro ${argv[0]}: p.saikoro: p.saikoro.lock is ${what}, not a lock (SQLite locks the project by creating a directory of that name); move it away, then try again\n`,
      );
    }
    expect(fileDigest(file)).toBe(before);
  });

  it('a FILE.lock made a file while the project is open is named at the first write, not after 15 s', () => {
    const project = Project.open(file);
    try {
      fs.writeFileSync(`${file}.lock`, 'x');
      expect(() => project.addNote('blocked')).toThrow(
        /p\.saikoro: p\.saikoro\.lock is a file, not a lock \(SQLite locks the project by creating a directory of that name\); move it away, then try again$/,
      );
      fs.rmSync(`${file}.lock`);
      expect(project.addNote('after')).toBeGreaterThan(0);
    } finally {
      project.close();
    }
  });
});
