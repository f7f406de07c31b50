// Project files in hostile places: a read-only file system, a lock another process keeps
// taking, a full disk, a dangling link, a name too long, a FIFO, /proc/self/mem. Each gives a
// clear message naming the file (exit 1) or just works; none crashes, hangs or deletes anything.
//
// Where the test runs as root and may mount a tmpfs, the read-only and disk-full cases run on
// real mounts (root ignores permission bits, so chmod proves nothing for root). The same cases
// also run simulated at the fs layer (EROFS / ENOSPC from Node's fs, which the SQLite binding
// uses too), which proves that no write is attempted beside a read-only file, but not that the
// kernel agrees: that is what the mounts are for.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_FILE_NAME_BYTES } from '../../../src-main/project/file-checks.ts';
import { runCli, type CliRun } from './io.ts';
import { fill, scratchPlaces } from '../../helpers/scratch-places.ts';

let root: string;
let original: string;

const spec = {
  name: 'small',
  instances: [{ name: 'mo2-n12', track: 'mo2', n: 12 }],
  solvers: [{ name: 'random' }],
  seeds: { count: 2 },
  budget: { evaluations: 40 },
};

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-places-'));
  fs.writeFileSync(path.join(root, 'spec.json'), JSON.stringify(spec));
  original = path.join(root, 'original.saikoro');
  await runCli(['project', 'new', 'original.saikoro'], { cwd: root });
  await runCli(['experiment', 'add', 'original.saikoro', '--spec', 'spec.json'], { cwd: root });
  expect((await runCli(['experiment', 'run', 'original.saikoro', '--inline'], { cwd: root })).code).toBe(0);
}, 60_000);
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

afterEach(() => vi.restoreAllMocks());
const { folder, tmpfs } = scratchPlaces(() => root);

function digest(file: string): { sha: string; mtimeMs: number } {
  return { sha: createHash('sha256').update(fs.readFileSync(file)).digest('hex'), mtimeMs: fs.statSync(file).mtimeMs };
}

function noStack(r: CliRun): void {
  expect(r.stderr).not.toMatch(/\n\s+at |SQLite3Error|Error: E[A-Z]+/);
}

/** Reading works; writing is refused as read-only; nothing appears beside the file. */
async function readOnlyPlaceWorks(cwd: string): Promise<void> {
  const before = fs.readdirSync(cwd).sort();
  const info = await runCli(['project', 'info', 'p.saikoro'], { cwd });
  expect(info.stderr).toBe('');
  expect(info.code).toBe(0);
  expect(info.stdout).toContain('small: 2/2 done, 0 failed, 0 missing');
  expect(await runCli(['experiment', 'status', 'p.saikoro'], { cwd })).toMatchObject({ code: 0, stdout: expect.stringContaining('small: 2/2 done') });
  expect((await runCli(['compare', 'p.saikoro', 'small', '--metric', 'hv'], { cwd })).code).toBe(0);
  expect((await runCli(['experiment', 'verify', 'p.saikoro', '--all'], { cwd })).code).toBe(0);
  const note = await runCli(['project', 'note', 'p.saikoro', 'hello'], { cwd });
  expect(note).toMatchObject({ code: 1, stderr: 'saikoro project: p.saikoro: opened read-only (its folder cannot be written)\n' });
  expect(fs.readdirSync(cwd).sort()).toEqual(before);
}

describe('a project on a read-only file system', () => {
  it('can be read (real read-only tmpfs mount)', async (ctx) => {
    const dir = tmpfs('4m');
    if (!dir) return ctx.skip('not root or may not mount a tmpfs here; the simulated test below still runs');
    fs.copyFileSync(original, path.join(dir, 'p.saikoro'));
    execFileSync('mount', ['-o', 'remount,ro', dir]);
    expect(() => fs.writeFileSync(path.join(dir, 'probe'), '')).toThrow(/EROFS/);
    await readOnlyPlaceWorks(dir);
  });

  it('can be read (simulated: every write in the folder fails with EROFS)', async () => {
    const dir = folder();
    fs.copyFileSync(original, path.join(dir, 'p.saikoro'));
    const inside = (p: unknown) => typeof p === 'string' && (path.resolve(p) === dir || path.resolve(p).startsWith(dir + path.sep));
    const erofs = (p: unknown) => Object.assign(new Error(`EROFS: read-only file system, '${String(p)}'`), { code: 'EROFS' });
    const real = { accessSync: fs.accessSync, openSync: fs.openSync };
    vi.spyOn(fs, 'accessSync').mockImplementation((p, mode) => {
      if (inside(p) && mode !== undefined && mode & fs.constants.W_OK) throw erofs(p);
      return real.accessSync(p, mode);
    });
    for (const name of ['mkdirSync', 'rmdirSync', 'writeFileSync', 'rmSync', 'unlinkSync', 'mkdtempSync', 'symlinkSync', 'truncateSync'] as const) {
      const realFn = fs[name] as (...args: unknown[]) => unknown;
      vi.spyOn(fs, name).mockImplementation(((p: unknown, ...rest: unknown[]) => {
        // symlinkSync(target, path) writes at path; the others at their first argument.
        const written = name === 'symlinkSync' ? rest[0] : p;
        if (inside(written)) throw erofs(written);
        return realFn.call(fs, p, ...rest);
      }) as never);
    }
    vi.spyOn(fs, 'openSync').mockImplementation(((p: fs.PathLike, flags?: fs.OpenMode, mode?: fs.Mode) => {
      const writing =
        typeof flags === 'number'
          ? (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR | fs.constants.O_CREAT)) !== 0
          : typeof flags === 'string' && /[wa+]/.test(flags);
      if (inside(p) && writing) throw erofs(p);
      return real.openSync(p, flags ?? 'r', mode);
    }) as never);
    await readOnlyPlaceWorks(dir);
  });
});

describe('a project another process keeps locking', () => {
  it('opens for every command while the lock is taken at every other attempt', async () => {
    const dir = folder();
    fs.copyFileSync(original, path.join(dir, 'p.saikoro'));
    const lock = path.join(dir, 'p.saikoro.lock');
    // The binding locks by mkdir(FILE.lock); "another process" holds it at every second try.
    // Every open step must wait and retry (the PRAGMA set-up did not: "database is locked").
    let attempts = 0;
    const mkdirSync = fs.mkdirSync;
    vi.spyOn(fs, 'mkdirSync').mockImplementation(((p: fs.PathLike, options?: fs.MakeDirectoryOptions) => {
      if (String(p) === lock && ++attempts % 2 === 1) throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${lock}'`), { code: 'EEXIST' });
      return mkdirSync(p, options);
    }) as never);
    for (const argv of [
      ['project', 'info', 'p.saikoro'],
      ['experiment', 'status', 'p.saikoro'],
      ['project', 'note', 'p.saikoro', 'written while contended'],
      ['compare', 'p.saikoro', 'small', '--metric', 'hv'],
    ]) {
      const r = await runCli(argv, { cwd: dir });
      expect(r.stderr, argv.join(' ')).toBe('');
      expect(r.code).toBe(0);
    }
    expect(attempts).toBeGreaterThan(8);
    vi.restoreAllMocks();
    expect((await runCli(['project', 'info', 'p.saikoro'], { cwd: dir })).stdout).toContain('written while contended');
  });
});

describe('a full disk', () => {
  async function fullDiskRefusesWrites(dir: string, message: RegExp): Promise<void> {
    const file = path.join(dir, 'p.saikoro');
    const before = digest(file);
    for (const argv of [
      ['project', 'note', 'p.saikoro', 'x'.repeat(20_000)],
      ['experiment', 'add', 'p.saikoro', '--spec', path.join(root, 'spec2.json')],
    ]) {
      const r = await runCli(argv, { cwd: dir });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(message);
      noStack(r);
    }
    // What was stored is kept, unchanged.
    expect(digest(file)).toEqual(before);
  }

  beforeAll(() => {
    fs.writeFileSync(path.join(root, 'spec2.json'), JSON.stringify({ ...spec, name: 'second', seeds: [9], instances: [{ name: 'so-n12', n: 12 }] }));
  });

  it('is reported as "disk full" and keeps what is stored (real full tmpfs)', async (ctx) => {
    const dir = tmpfs('1m');
    if (!dir) return ctx.skip('not root or may not mount a tmpfs here; the simulated test below still runs');
    fs.copyFileSync(original, path.join(dir, 'p.saikoro'));
    // Fill the rest of the file system.
    fill(dir);
    await fullDiskRefusesWrites(
      dir,
      /^saikoro (project|experiment): p\.saikoro: could not write: the disk is full \(\d+ bytes free\); nothing already stored was lost\n$/,
    );
    // With room again, the same write works and nothing was lost.
    fs.rmSync(path.join(dir, 'filler'));
    expect((await runCli(['project', 'note', 'p.saikoro', 'room again'], { cwd: dir })).code).toBe(0);
    const info = await runCli(['project', 'info', 'p.saikoro'], { cwd: dir });
    expect(info.stdout).toContain('small: 2/2 done');
    expect(info.stdout).toContain('room again');
  });

  it('is reported as "disk full" and keeps what is stored (simulated: every write fails with ENOSPC)', async () => {
    const dir = folder();
    fs.copyFileSync(original, path.join(dir, 'p.saikoro'));
    const writeSync = fs.writeSync;
    const full = () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    // Writes through file descriptors (the SQLite binding's) fail; the file system reports no room.
    vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, ...rest: unknown[]) =>
      fd > 2 ? full() : Reflect.apply(writeSync, fs, [fd, ...rest])) as never);
    vi.spyOn(fs, 'statfsSync').mockImplementation((() => ({ type: 0, bsize: 4096, blocks: 256, bfree: 0, bavail: 0, files: 0, ffree: 0 })) as never);
    await fullDiskRefusesWrites(
      dir,
      /^saikoro (project|experiment): p\.saikoro: could not write: the disk is full \(0 bytes free\); nothing already stored was lost\n$/,
    );
    vi.restoreAllMocks();
    expect((await runCli(['project', 'note', 'p.saikoro', 'room again'], { cwd: dir })).code).toBe(0);
  });
});

describe('odd names and odd files', () => {
  it('project new on a dangling symbolic link refuses and keeps the link', async () => {
    const dir = folder();
    fs.symlinkSync(path.join(dir, 'nowhere.saikoro'), path.join(dir, 'link.saikoro'));
    const r = await runCli(['project', 'new', 'link.saikoro'], { cwd: dir });
    expect(r).toMatchObject({ code: 1, stderr: 'saikoro project: link.saikoro: already exists (a symbolic link); not overwriting it\n' });
    expect(fs.lstatSync(path.join(dir, 'link.saikoro')).isSymbolicLink()).toBe(true);
    expect(fs.readlinkSync(path.join(dir, 'link.saikoro'))).toBe(path.join(dir, 'nowhere.saikoro'));
    expect(fs.existsSync(path.join(dir, 'nowhere.saikoro'))).toBe(false);
  });

  it('a 300-character name: a clear error from new and info', async () => {
    const dir = folder();
    const name = `${'n'.repeat(292)}.saikoro`;
    const created = await runCli(['project', 'new', name], { cwd: dir });
    expect(created.code).toBe(1);
    expect(created.stderr).toMatch(
      /^saikoro project: n{40}\.\.\.n{12}\.saikoro: file name too long \(300 bytes; at most \d+, so that the files SQLite keeps beside it fit\)\n$/,
    );
    const info = await runCli(['project', 'info', name], { cwd: dir });
    expect(info).toMatchObject({ code: 1, stderr: `saikoro project: ${name}: file name too long\n` });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('the longest name that fits works, one byte more is refused', async () => {
    const dir = folder();
    const longest = `${'l'.repeat(MAX_FILE_NAME_BYTES - '.saikoro'.length)}.saikoro`;
    expect((await runCli(['project', 'new', longest], { cwd: dir })).code).toBe(0);
    expect((await runCli(['project', 'note', longest, 'fits'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['project', 'info', longest], { cwd: dir })).stdout).toContain('fits');
    const tooLong = `m${longest}`;
    expect((await runCli(['project', 'new', tooLong], { cwd: dir })).stderr).toContain('file name too long');
    expect(fs.readdirSync(dir)).toEqual([longest]);
  });

  it('project info on a FIFO ends at once with a clear error (it waited for a writer forever)', () => {
    const dir = folder();
    execFileSync('mkfifo', [path.join(dir, 'pipe.saikoro')]);
    // In a child process: if the open blocked, it would block this test's event loop too.
    const r = spawnSync(process.execPath, [path.resolve('bin/saikoro.mjs'), 'project', 'info', 'pipe.saikoro'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('saikoro project: pipe.saikoro: a FIFO, not a project file\n');
  });

  it('project info on /proc/self/mem and /dev/zero: a clear error, no EIO stack trace', async () => {
    for (const [file, message] of [
      ['/proc/self/mem', /^saikoro project: \/proc\/self\/mem: (empty file, not a Saikoro project|cannot be read \(EIO\))\n$/],
      ['/dev/zero', /^saikoro project: \/dev\/zero: a device, not a project file\n$/],
    ] as const) {
      if (!fs.existsSync(file)) continue;
      const r = await runCli(['project', 'info', file], { cwd: root });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
    }
  });
});
