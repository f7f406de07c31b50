// `saikoro bench pareto --quick --json`, as a user runs it (the real command in a child process,
// on a private renderer build): it prints exactly {points, renderMs, hoverMs, brushMs,
// axisChangeMs}, every time a positive number. Wall-clock values are never asserted.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../../src-main/server/renderer-dir.ts';
import { requireChromium } from '../../e2e/chromium.ts';
import { runCli } from '../cli/io.ts';

const run = promisify(execFile);
const browserTool = requireChromium();

let outDir = '';
beforeAll(async () => {
  if (!browserTool.present) return;
  outDir = mkdtempSync(join(tmpdir(), 'saikoro-bench-pareto-test-'));
  const { buildRenderer } = await import('../../../src-main/server/renderer-build.ts');
  await buildRenderer(outDir);
}, 180_000);
afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

browserTool.describe('saikoro bench pareto', () => {
  it('--quick --json prints the four timings and the number of points, all positive', async () => {
    const { stdout } = await run(process.execPath, [join(PROJECT_ROOT, 'bin', 'saikoro.mjs'), 'bench', 'pareto', '--quick', '--json', '--points', '3000'], {
      env: { ...process.env, SAIKORO_BENCH_RENDERER_DIR: outDir },
      timeout: 240_000,
    });
    const figures = JSON.parse(stdout);
    expect(Object.keys(figures)).toEqual(['points', 'renderMs', 'hoverMs', 'brushMs', 'axisChangeMs']);
    expect(figures.points).toBe(3000);
    for (const key of ['renderMs', 'hoverMs', 'brushMs', 'axisChangeMs']) {
      expect(typeof figures[key]).toBe('number');
      expect(figures[key]).toBeGreaterThan(0);
      expect(Number.isFinite(figures[key])).toBe(true);
    }
  }, 300_000);
});

it('--points takes a whole number of points from 1 to 1,000,000 (usage error otherwise)', async () => {
  for (const bad of ['abc', '0', '2.5', '2000000']) {
    const r = await runCli(['bench', 'pareto', '--points', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--points/);
  }
});
