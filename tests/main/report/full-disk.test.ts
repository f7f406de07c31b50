// `saikoro report --out` on a disk that fills up (issue 21): the report is written under a
// temporary name and renamed into place, so a failed write leaves no 0-byte or cut-short file,
// and a report already at the target is kept as it was. On a real full tmpfs where the test may
// mount one (root; CI runs as root), and simulated (every write fails with ENOSPC) everywhere.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli/io.ts';
import { makeFixture, MO, type Fixture } from './fixture.ts';
import { fill, scratchPlaces } from '../../helpers/scratch-places.ts';

let fx: Fixture;
beforeAll(async () => {
  fx = await makeFixture('full-disk');
}, 120_000);
afterAll(() => fx?.cleanup());

afterEach(() => vi.restoreAllMocks());
const { folder, tmpfs } = scratchPlaces(() => fx.cwd);

/** An earlier report at one of the targets (its first field marks it as Saikoro's: output-target.ts). */
const EARLIER = '{\n  "format": "saikoro-report",\n  "an": "earlier report"\n}\n';
function earlierReport(dir: string): void {
  fs.writeFileSync(path.join(dir, 'old.json'), EARLIER);
}

async function reportsRefused(dir: string): Promise<void> {
  const project = path.join(fx.cwd, 'p.saikoro');
  const before = fs.readdirSync(dir).sort();
  for (const [argv, shown] of [
    [['report', project, MO, '--format', 'json', '--out', 'r.json'], 'r.json'],
    [['report', project, MO, '--format', 'html', '--out', 'r.html'], 'r.html'],
    [['report', project, MO, '--format', 'csv', '--out', 'r'], 'r-runs.csv'],
    [['report', project, MO, '--format', 'json', '--out', 'old.json'], 'old.json'],
  ] as const) {
    const r = await runCli([...argv], { cwd: dir });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^saikoro report: --out ${shown.replace('.', '\\.')}: cannot write: the disk is full; nothing was written\\n$`));
    // Nothing left behind: no empty or cut-short report, no temporary file.
    expect(fs.readdirSync(dir).sort()).toEqual(before);
  }
  expect(fs.readFileSync(path.join(dir, 'old.json'), 'utf8')).toBe(EARLIER);
}

describe('report on a full disk', () => {
  it('leaves nothing behind and keeps an earlier report (real full tmpfs)', async (ctx) => {
    const dir = tmpfs('256k');
    if (!dir) return ctx.skip('not root or may not mount a tmpfs here; the simulated test below still runs');
    earlierReport(dir);
    fill(dir, { toTheByte: true });
    await reportsRefused(dir);
    // With room again, the report is written whole.
    fs.rmSync(path.join(dir, 'filler'));
    const r = await runCli(['report', path.join(fx.cwd, 'p.saikoro'), MO, '--format', 'json', '--out', 'r.json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'r.json'), 'utf8')).experiment.name).toBe(MO);
  });

  it('leaves nothing behind and keeps an earlier report (simulated: every write fails with ENOSPC)', async () => {
    const dir = folder();
    earlierReport(dir);
    const writeSync = fs.writeSync;
    const writeFileSync = fs.writeFileSync;
    const full = () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, ...rest: unknown[]) =>
      fd > 2 ? full() : Reflect.apply(writeSync, fs, [fd, ...rest])) as never);
    vi.spyOn(fs, 'writeFileSync').mockImplementation(((file: unknown, ...rest: unknown[]) => {
      // What writeFileSync does on a full disk: the file is created, then the write fails.
      if (typeof file === 'string' && file.startsWith(dir)) {
        fs.closeSync(fs.openSync(file, 'w'));
        full();
      }
      return Reflect.apply(writeFileSync, fs, [file, ...rest]);
    }) as never);
    await reportsRefused(dir);
  });
});
