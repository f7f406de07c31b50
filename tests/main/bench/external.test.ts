// `saikoro bench external --quick`: both runs use their exact budget (the suite throws
// otherwise), and the report carries every documented figure, positive. No time is asserted.
import { describe, expect, it } from 'vitest';
import { externalBench } from '../../../src-main/bench/external.ts';

describe('saikoro bench external --quick', () => {
  it('reports the rates of the in-process and the piped random search at N = 840, batches of 100', async () => {
    const progress: string[] = [];
    const report = await externalBench.run({ quick: true, progress: (m) => progress.push(m) });
    const figures = report.json as Record<string, number>;
    expect(Object.keys(figures)).toEqual([
      'n',
      'batch',
      'evaluations',
      'inProcessPerSecond',
      'externalPerSecond',
      'inProcessWithoutEvaluationPerSecond',
      'pipeWithoutEvaluationPerSecond',
      'overheadMicroseconds',
      'sandbox',
      'startSandboxedMs',
      'startPlainMs',
      'starts',
    ]);
    expect(figures).toMatchObject({ n: 840, batch: 100, evaluations: 5000 });
    for (const key of ['inProcessPerSecond', 'externalPerSecond', 'inProcessWithoutEvaluationPerSecond', 'pipeWithoutEvaluationPerSecond'])
      expect(figures[key]).toBeGreaterThan(0);
    expect(Number.isFinite(figures.overheadMicroseconds)).toBe(true);
    expect(report.tables[0].rows).toHaveLength(3);
    // The start: in the sandbox where this machine has one (bubblewrap), and without.
    expect(figures.starts).toBe(3);
    expect(figures.startPlainMs).toBeGreaterThan(0);
    const sandboxed = (report.json as { sandbox: string }).sandbox.startsWith('bubblewrap');
    expect(sandboxed ? figures.startSandboxedMs > 0 : figures.startSandboxedMs === null).toBe(true);
    expect(report.tables[1].rows).toHaveLength(2);
    expect(progress.length).toBe(3);
  });
});
