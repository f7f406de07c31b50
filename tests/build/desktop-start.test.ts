// `npm start` on a fresh checkout (issue 27): Electron 45's `npm install` leaves its binary
// undownloaded, and electron-vite stopped with "Electron uninstall". scripts/desktop.mjs fetches
// it with Electron's own installer first. The binary cannot be downloaded here, so the download
// is faked where it happens: a local HTTP server plays Electron's mirror (ELECTRON_MIRROR) and
// serves a zip holding a stand-in "electron" (a shell script that records how it was started)
// with its SHASUMS256.txt. Everything else is real: npm start, the script, Electron's
// install.js with @electron/get and its zip extractor, electron-vite preview spawning the binary.
// It runs in a copy of the package (its own node_modules/electron; the rest linked), so the
// checkout's Electron stays as it is. Nothing here imports electron.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ELECTRON_VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version;
const ZIP_NAME = `electron-v${ELECTRON_VERSION}-${process.platform}-${process.arch}.zip`;
const run = promisify(execFile);

/** A zip (stored entries, Unix modes) as Electron's release zips are laid out: the binary and a `version` file. */
function zip(entries: { name: string; data: Buffer; mode: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const crc = zlib.crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix: the external attributes hold the mode
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((0o100000 | e.mode) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += local.length + name.length + e.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The stand-in binary: records its arguments, working folder and ELECTRON_EXEC_PATH, then exits 0. */
const FAKE_ELECTRON = `#!/bin/sh
printf '%s\\n' "$PWD" "$@" > "$FAKE_ELECTRON_RECORD"
exit 0
`;

let work: string;
let server: http.Server;
let mirror: string;
const requests: string[] = [];
let serveZip = true;

/** A copy of the package to start: package.json, scripts/, a stand-in out/main/index.js, node_modules with its own electron. */
function packageCopy(name: string): string {
  const root = path.join(work, name);
  fs.mkdirSync(path.join(root, 'node_modules'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(root, 'package.json'));
  fs.symlinkSync(path.join(ROOT, 'scripts'), path.join(root, 'scripts'));
  fs.mkdirSync(path.join(root, 'out', 'main'), { recursive: true });
  fs.writeFileSync(path.join(root, 'out', 'main', 'index.js'), '// the desktop entry electron-vite checks for\n');
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === 'electron') continue;
    fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(root, 'node_modules', entry));
  }
  // Electron's package as npm ci leaves it: no dist/, no path.txt.
  fs.cpSync(path.join(ROOT, 'node_modules', 'electron'), path.join(root, 'node_modules', 'electron'), { recursive: true, filter: (src) => !/[\\/]electron[\\/](dist|path\.txt)$/.test(src) });
  return root;
}

function env(root: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: work,
    ELECTRON_MIRROR: mirror,
    electron_use_remote_checksums: '1',
    electron_config_cache: path.join(work, 'cache'),
    FAKE_ELECTRON_RECORD: path.join(root, 'started.txt'),
    npm_config_update_notifier: 'false',
  };
}

async function npmStart(root: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run('npm', ['start', '--', '--skipBuild'], { cwd: root, env: env(root), timeout: 300_000 });
    return { code: 0, ...r };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: typeof err.code === 'number' ? err.code : 1, stdout: err.stdout, stderr: err.stderr };
  }
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-desktop-start-'));
  const body = zip([
    { name: 'electron', data: Buffer.from(FAKE_ELECTRON), mode: 0o755 },
    { name: 'version', data: Buffer.from(`v${ELECTRON_VERSION}`), mode: 0o644 },
  ]);
  const sums = `${createHash('sha256').update(body).digest('hex')} *${ZIP_NAME}\n`;
  server = http.createServer((req, res) => {
    requests.push(req.url!);
    if (req.url === `/v${ELECTRON_VERSION}/${ZIP_NAME}` && serveZip) res.end(body);
    else if (req.url === `/v${ELECTRON_VERSION}/SHASUMS256.txt` && serveZip) res.end(sums);
    else res.writeHead(404).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('npm start on a fresh checkout (the download faked by a local mirror)', () => {
  it('electron-vite alone stops with "Electron uninstall": the binary is not there after npm ci', async () => {
    const root = packageCopy('plain');
    const cli = path.join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
    const r = await run(process.execPath, [cli, 'preview', '--skipBuild'], { cwd: root, env: env(root) }).then(
      (x) => ({ code: 0, ...x }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr + r.stdout).toContain('Electron uninstall');
  }, 120_000);

  it("fetches the binary with Electron's installer, then starts it through electron-vite; the second start fetches nothing", async () => {
    const root = packageCopy('fresh');
    requests.length = 0;
    const first = await npmStart(root);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain("saikoro: Electron's binary is not installed (npm install no longer downloads it since Electron 45); fetching it with node_modules/electron/install.js...");
    expect(requests).toEqual(expect.arrayContaining([`/v${ELECTRON_VERSION}/SHASUMS256.txt`, `/v${ELECTRON_VERSION}/${ZIP_NAME}`]));
    const electron = path.join(root, 'node_modules', 'electron');
    expect(fs.readFileSync(path.join(electron, 'path.txt'), 'utf8')).toBe('electron');
    expect(fs.readFileSync(path.join(electron, 'dist', 'electron'), 'utf8')).toBe(FAKE_ELECTRON);
    // The stand-in was started by electron-vite, in the package's folder.
    const started = fs.readFileSync(path.join(root, 'started.txt'), 'utf8').split('\n');
    expect(fs.realpathSync(started[0])).toBe(fs.realpathSync(root));
    fs.rmSync(path.join(root, 'started.txt'));

    requests.length = 0;
    const second = await npmStart(root);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain('fetching it');
    expect(requests).toEqual([]);
    expect(fs.existsSync(path.join(root, 'started.txt'))).toBe(true);
    // The checkout's own Electron was not touched.
    expect(fs.existsSync(path.join(ROOT, 'node_modules', 'electron', 'path.txt'))).toBe(fs.existsSync(path.join(ROOT, 'node_modules', 'electron', 'dist')));
  }, 300_000);

  it('a download that fails says what to do, and starts nothing', async () => {
    const root = packageCopy('offline');
    serveZip = false;
    try {
      const r = await npmStart(root);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/saikoro: could not install Electron's binary \(the installer exited with status 1\)\..* Run `node node_modules\/electron\/install\.js` to see why; behind a proxy or without access to GitHub, set ELECTRON_MIRROR/);
      expect(fs.existsSync(path.join(root, 'started.txt'))).toBe(false);
      expect(fs.existsSync(path.join(root, 'node_modules', 'electron', 'path.txt'))).toBe(false);
    } finally {
      serveZip = true;
    }
  }, 300_000);
});
