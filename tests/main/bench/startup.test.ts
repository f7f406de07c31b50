// `saikoro bench startup --quick`: a smoke test of the shape and of the checks each call's
// output gets (no wall-clock assertion: the figures are for docs/benchmarks.md). The reference
// evaluator is not in this repository (--reference names it), so here it is a missing file.
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/io.ts';
import type { StartupReport } from '../../../src-main/bench/startup.ts';

describe('saikoro bench startup', () => {
  it('times every call in fresh processes, checks their output, and reports the targets (--quick)', async () => {
    const run = await runCli(['bench', 'startup', '--quick', '--json'], { env: process.env });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as StartupReport;
    expect(report.rounds).toBe(2);
    expect(report.cases.map((c) => c.name)).toEqual([
      'node -e 0',
      'saikoro --help',
      'saikoro rngbias',
      'saikoro eval (1 line)',
      'saikoro project info (empty project)',
      'saikoro solve (1,000 evals, N = 50)',
      'Slurm array task, nothing to do',
    ]);
    for (const c of report.cases) {
      expect(c.wallMs.min).toBeGreaterThan(0);
      expect(c.wallMs.min).toBeLessThanOrEqual(c.wallMs.median);
      expect(c.wallMs.median).toBeLessThanOrEqual(c.wallMs.max);
    }
    expect(report.cases[0].overNode).toBe(1);
    // Without --reference the comparison with it is not measured, and says so.
    const reference = report.targets.find((t) => t.name.startsWith('reference'))!;
    expect([reference.value, reference.met]).toEqual([null, null]);
    expect(report.targets.find((t) => t.name.startsWith('Slurm'))!.value).toBeCloseTo(report.cases[6].wallMs.median / 1000, 9);
    // Issue 27: a command that opens a project, against a rngbias call.
    const info = report.targets.find((t) => t.name === 'project info wall time over rngbias')!;
    expect(info.value).toBeCloseTo(report.cases[4].wallMs.median / report.cases[2].wallMs.median, 9);
    expect(info.met).toBe(info.value! <= 2);
  }, 300_000);

  it('--reference that does not exist is named in the error', async () => {
    const run = await runCli(['bench', 'startup', '--quick', '--reference', 'no/such/rngbias.py'], { env: process.env, cwd: '/tmp' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--reference \/tmp\/no\/such\/rngbias\.py: no such file/);
  });
});
