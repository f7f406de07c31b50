/**
 * Re-runs stored runs and checks that they reproduce: everything in the result except wall
 * times (result.seconds and each trace point's seconds) must be identical.
 */
import { canonicalJson } from '../../src-shared/experiments/canonical-json.ts';
import { describeValue } from '../../src-shared/json.ts';
import { runId, type RunSpec } from '../../src-shared/experiments/grid.ts';
import type { SolverResult } from '../../src-shared/solvers/types.ts';
import type { RunRecord } from '../project/store.ts';
import { Random } from '../../src-shared/random.ts';
import { runInline } from './executor.ts';

export interface VerifyOutcome {
  id: string;
  instance: string;
  label: string;
  seed: number;
  ok: boolean;
  /** What differs, when not ok. */
  difference: string | null;
}

/** The deterministic part of a result. */
export function reproducible(result: SolverResult): unknown {
  const { seconds, trace, ...rest } = result;
  void seconds;
  return { ...rest, trace: trace.map(({ seconds: s, ...point }) => (void s, point)) };
}

function firstDifference(a: unknown, b: unknown, path = 'result'): string | null {
  // A key only one side has (a stored result from another version, or a damaged one).
  if (a === undefined || b === undefined) return a === b ? null : `${path}: stored ${a === undefined ? 'nothing' : describeValue(a, 80)}, re-run ${b === undefined ? 'nothing' : describeValue(b, 80)}`;
  if (canonicalJson(a) === canonicalJson(b)) return null;
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`);
      if (d) return d;
    }
  }
  return `${path}: stored ${JSON.stringify(a)?.slice(0, 80)}, re-run ${JSON.stringify(b)?.slice(0, 80)}`;
}

/** A sample of `count` done runs, chosen by a seeded shuffle so the choice is repeatable. */
export function sampleRuns(runs: RunRecord[], count: number, seed = 1): RunRecord[] {
  const done = runs.filter((r) => r.status === 'done');
  return Random.fromSeed(seed).shuffle([...done]).slice(0, count);
}

export function verifyRun(record: RunRecord): VerifyOutcome {
  const base = { id: record.id, instance: record.instance, label: record.label, seed: record.seed };
  const key = { problem: 'dice' as const, config: record.config, solver: record.solver, params: record.params, seed: record.seed, budget: record.budget };
  if (runId(key) !== record.id) return { ...base, ok: false, difference: `stored inputs hash to ${runId(key)}, not to the run id` };
  const spec: RunSpec = { ...key, id: record.id, index: 0, instance: record.instance, label: record.label };
  const outcome = runInline(spec);
  if (!outcome.result) return { ...base, ok: false, difference: `re-run failed: ${outcome.error}` };
  if (!record.result) return { ...base, ok: false, difference: 'no stored result' };
  const difference = firstDifference(reproducible(record.result), reproducible(outcome.result));
  return { ...base, ok: difference === null, difference };
}
