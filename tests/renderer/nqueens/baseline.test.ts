// @vitest-environment happy-dom
// The N-Queens lab's baseline line (min-conflicts on the board's N and seed) against the real
// main side: the page asks the app for the run (startRun, planned and launched by the app layer,
// run in a worker process) and shows what that run reports, which is what the problem module
// computes for the seed. The lab's own code does not run min-conflicts.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import NqueensView from '../../../src-renderer/views/nqueens/NqueensView.vue';
import type { NqueensRunReport, NqueensRunStarted } from '../../../src-shared/api.ts';
import { defaultMinConflictsParams, MinConflicts } from '../../../src-shared/problems/nqueens/minconflicts.ts';
import { waitFor } from '../../main/processes.ts';
import { byTestId, realAppForViews, settle, textOf, type } from '../project/mount.ts';

const env = realAppForViews({ parallelism: 1 });

const baselineRuns = () => env.runs.list().filter((r) => r.kind === 'nqueens' && (r.started as NqueensRunStarted).purpose === 'baseline');

describe("the lab's min-conflicts baseline", () => {
  it("is a run of the app, and shows the steps and the greedy start's conflicts the problem module computes", async () => {
    env.mount(NqueensView, '#/nqueens');
    await settle();
    const shown = await waitFor('the baseline to finish', () => (/solved in/.test(textOf('nq-baseline') ?? '') ? textOf('nq-baseline') : null), {
      withinMs: 30_000,
    });
    // One run on the app's host, with the board's N and seed (N = 8, seed 1 on a fresh lab).
    const [run] = baselineRuns();
    expect(baselineRuns()).toHaveLength(1);
    expect(run.status).toBe('done');
    expect(run.started).toMatchObject({ kind: 'nqueens', method: 'minconflicts', n: 8, seed: 1, purpose: 'baseline', maxQueens: 0 });
    const report = run.result as NqueensRunReport;
    // The reference: the problem module's own min-conflicts with its defaults for N = 8, seed 1.
    const reference = new MinConflicts(defaultMinConflictsParams(8), 1);
    const ref = reference.run();
    expect(report.initialConflicts).toBe(reference.initialConflicts);
    expect([report.solved, report.steps]).toEqual([ref.solved, ref.steps]);
    const k = reference.initialConflicts;
    expect(shown).toBe(
      `Min-conflicts on the same N and seed: solved in ${ref.steps} repair steps (${k} attacking ${k === 1 ? 'pair' : 'pairs'} after its greedy start), ${(report.seconds * 1000).toFixed(1)} ms in a worker.`,
    );
  });

  it("follows the board's N and seed with a new run of the app, one per board", async () => {
    env.mount(NqueensView, '#/nqueens');
    await waitFor('the N = 8 baseline', () => /solved in/.test(textOf('nq-baseline') ?? ''), { withinMs: 30_000 });
    const before = baselineRuns().length;
    type(byTestId<HTMLInputElement>('nq-n'), '30');
    type(byTestId<HTMLInputElement>('nq-seed'), '4');
    // The board restarts 250 ms after the last edit; the baseline follows it.
    await waitFor(
      'the N = 30 baseline',
      () => baselineRuns().find((r) => r.started.kind === 'nqueens' && r.started.n === 30 && r.started.seed === 4 && r.status === 'done'),
      { withinMs: 30_000 },
    );
    const run = baselineRuns().find((r) => r.started.kind === 'nqueens' && r.started.n === 30 && r.started.seed === 4)!;
    const reference = new MinConflicts(defaultMinConflictsParams(30), 4);
    expect((run.result as NqueensRunReport).initialConflicts).toBe(reference.initialConflicts);
    await waitFor('the line for N = 30', () => textOf('nq-baseline')?.includes(`solved in ${reference.run().steps} repair steps`));
    // The debounced restart is one board change: one new run, not one per keystroke.
    expect(baselineRuns().length - before).toBe(1);
  });

  it("the lab's code does not run min-conflicts itself", () => {
    const folder = path.resolve(import.meta.dirname, '../../../src-renderer/views/nqueens');
    for (const file of fs.readdirSync(folder)) {
      const source = fs.readFileSync(path.join(folder, file), 'utf8');
      expect(source, file).not.toMatch(/nqueens\/minconflicts(\.ts)?['"]/);
      expect(source, file).not.toMatch(/\b(runMinConflicts|MinConflicts)\b/);
    }
  });
});
