// The Python client as a package (issue 27): clients/python has a pyproject.toml whose build
// backend (build_backend.py, standard library only) writes the wheel, so pip installs it from the
// folder with nothing from an index (--no-index, offline), into a venv, and writes nothing into
// the folder (an installed npm package's, which may be read-only). `saikoro client --path` names
// the folder. From the installed package: tests/e2e/package.test.ts.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { requireTool } from '../../e2e/tools.ts';
import { runCli } from '../cli/io.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const FOLDER = path.join(ROOT, 'clients', 'python');
const PYTHON = '/usr/bin/python3';
const python = requireTool('python3', PYTHON, 'apt-get install python3 python3-venv');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-pip-'));
afterAll(() => {
  execFileSync('chmod', ['-R', 'u+w', work]);
  fs.rmSync(work, { recursive: true, force: true });
});

/** Every file under a folder with its sha256. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const full = path.join(entry.parentPath, entry.name);
      out[path.relative(dir, full)] = createHash('sha256').update(fs.readFileSync(full)).digest('hex');
    }
  }
  return out;
}

it('saikoro client --path names the folder; its pyproject has the package version', async () => {
  const r = await runCli(['client', '--path']);
  expect(r).toEqual({ code: 0, stdout: FOLDER + '\n', stderr: '' });
  const about = await runCli(['client']);
  expect(about.stdout).toContain(`The Python client: ${path.join(FOLDER, 'saikoro_client.py')}`);
  expect(about.stdout).toContain('pip install "$(saikoro client --path)"');
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  expect(fs.readFileSync(path.join(FOLDER, 'pyproject.toml'), 'utf8')).toMatch(new RegExp(`^version = "${version.replaceAll('.', '\\.')}"$`, 'm'));
});

python.describe('pip install of the client folder', () => {
  it('installs offline into a venv from a read-only copy, importable, writing nothing into the folder', () => {
    const copy = path.join(work, 'client');
    fs.cpSync(FOLDER, copy, { recursive: true, filter: (src) => !src.includes('__pycache__') });
    const before = snapshot(copy);
    execFileSync('chmod', ['-R', 'a-w', copy]);
    const venv = path.join(work, 'venv');
    execFileSync(PYTHON, ['-m', 'venv', venv]);
    const pip = execFileSync(path.join(venv, 'bin', 'pip'), ['install', '--no-index', '--disable-pip-version-check', copy], { encoding: 'utf8', env: { ...process.env, PIP_CONFIG_FILE: '/dev/null' } });
    expect(pip).toContain('Successfully installed saikoro-client-0.1.0');
    const imported = execFileSync(path.join(venv, 'bin', 'python'), ['-c', 'import saikoro_client as c; print(c.__file__); print(callable(c.connect), issubclass(c.Stopped, Exception))'], { cwd: work, encoding: 'utf8' });
    expect(imported).toBe(`${path.join(venv, 'lib', fs.readdirSync(path.join(venv, 'lib'))[0], 'site-packages', 'saikoro_client.py')}\nTrue True\n`);
    // The installed module is the folder's, byte for byte.
    const installed = imported.split('\n')[0];
    expect(fs.readFileSync(installed)).toEqual(fs.readFileSync(path.join(FOLDER, 'saikoro_client.py')));
    expect(snapshot(copy)).toEqual(before);
    // pip's own record of what it installed, checked against the files (RECORD's hashes are right).
    expect(execFileSync(path.join(venv, 'bin', 'pip'), ['show', '--files', 'saikoro-client'], { encoding: 'utf8', env: { ...process.env, PIP_CONFIG_FILE: '/dev/null' } })).toMatch(/Version: 0\.1\.0[\s\S]*saikoro_client\.py/);
    execFileSync(path.join(venv, 'bin', 'python'), ['-c', [
      'import base64, hashlib, importlib.metadata as m',
      'd = m.distribution("saikoro-client")',
      'for f in d.files:',
      '    if f.hash:',
      '        got = base64.urlsafe_b64encode(hashlib.sha256(f.locate().read_bytes()).digest()).rstrip(b"=").decode()',
      '        assert got == f.hash.value, (f, got)',
    ].join('\n')], { cwd: work });
  }, 120_000);
});
