/**
 * Re-runs stored runs and checks that they reproduce: everything in the result except wall
 * times (result.seconds and each trace point's seconds) must be identical. A result stored
 * before exact traces (no traceExact: one trace point per improving step, no front log;
 * docs/solvers.md, "Traces") is compared without its trace, which this version records
 * differently, and the outcome says so.
 */
import { canonicalJson } from '../../src-shared/experiments/canonical-json.ts';
import { describeValue } from '../../src-shared/json.ts';
import { runId, type RunSpec } from '../../src-shared/experiments/grid.ts';
import type { SolverResult } from '../../src-shared/solvers/types.ts';
import { runKeyOf, type RunRecord } from '../project/project-records.ts';
import { Random } from '../../src-shared/random.ts';
import { runInline, type Admission } from './experiment-executor.ts';

export interface VerifyOutcome {
  id: string;
  instance: string;
  label: string;
  seed: number;
  ok: boolean;
  /** What differs, when not ok. */
  difference: string | null;
  /** What was not compared, if anything (the trace of a result stored before exact traces). */
  note: string | null;
}

/** The fields of a result that record its course (docs/solvers.md, "Traces"). */
const RECORD_FIELDS = ['trace', 'traceExact', 'frontLog'] as const;

/**
 * The deterministic part of a result: all but wall times, and for a solver program, its log
 * and how its process ended (what it wrote to stderr and how fast it exited are its own).
 */
export function reproducible(result: SolverResult, options: { withoutTrace?: boolean } = {}): unknown {
  const { seconds, trace, log, program, ...rest } = result;
  void seconds;
  void log;
  const kept = { ...rest, ...(program ? { program: { ...program, exit: null } } : {}), trace: trace.map(({ seconds: s, ...point }) => (void s, point)) };
  if (options.withoutTrace) for (const k of RECORD_FIELDS) delete (kept as Partial<SolverResult>)[k];
  return kept;
}

function firstDifference(a: unknown, b: unknown, path = 'result'): string | null {
  // A key only one side has (a stored result from another version, or a damaged one).
  if (a === undefined || b === undefined)
    return a === b
      ? null
      : `${path}: stored ${a === undefined ? 'nothing' : describeValue(a, 80)}, re-run ${b === undefined ? 'nothing' : describeValue(b, 80)}`;
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
  return Random.fromSeed(seed)
    .shuffle([...done])
    .slice(0, count);
}

/**
 * Re-runs one stored run and compares. A solver program's run is re-run too (as make would):
 * it passes the program gate as every run does (its files checked against the hashes stored
 * with it: a changed script is a mismatch naming the file, and `admission.context.who` names
 * the experiment and solver), then the program runs again from the same seed; a program that
 * does not reproduce from its seed shows as a mismatch. `admission`: how a program passes the
 * program gate (its project's folder is where the program's relative paths start).
 */
export async function verifyRun(record: RunRecord, admission: Admission | null = null): Promise<VerifyOutcome> {
  const base = { id: record.id, instance: record.instance, label: record.label, seed: record.seed, note: null };
  const key = runKeyOf(record);
  if (runId(key) !== record.id) return { ...base, ok: false, difference: `stored inputs hash to ${runId(key)}, not to the run id` };
  const spec: RunSpec = {
    ...key,
    id: record.id,
    index: 0,
    instance: record.instance,
    label: record.label,
    ...(record.program ? { launch: record.program } : {}),
  };
  const outcome = await runInline(spec, admission);
  if (outcome.status === 'refused') return { ...base, ok: false, difference: `not re-run: ${outcome.error}` };
  // A failed re-run may carry what it evaluated before it failed: still a failure, not a result to compare.
  if (outcome.status !== 'done' || !outcome.result) return { ...base, ok: false, difference: `re-run failed: ${outcome.error}` };
  if (!record.result) return { ...base, ok: false, difference: 'no stored result' };
  const withoutTrace = record.result.traceExact !== true;
  const difference = firstDifference(reproducible(record.result, { withoutTrace }), reproducible(outcome.result, { withoutTrace }));
  return { ...base, ok: difference === null, difference, note: withoutTrace ? 'stored before exact traces: its trace was not compared' : null };
}
