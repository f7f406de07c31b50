/**
 * Checks of what a project file holds, row by row: a file damaged by a byte flip, a hand edit
 * or another program can hold valid SQLite with JSON that is not JSON, a spec that is no longer
 * a spec, or a result whose fronts do not have the instance's objective count. The store reads
 * every row through these checks, so the rest of the program never sees such data: the file is
 * refused with the row and the field named (store.ts), or the run is skipped with a report
 * (merge.ts).
 */
import { ConfigError, validateConfig, type DiceConfig } from '../../src-shared/problems/dice/config.ts';
import { SpecError, validateSpec, type BudgetSpec, type ExperimentSpec } from '../../src-shared/experiments/spec.ts';
import { describeValue, JsonInputError, parseJsonSafe } from '../../src-shared/json.ts';
import type { SolutionRecord, SolverResult } from '../../src-shared/solvers/types.ts';
import type { ParamValue } from '../../src-shared/core/params.ts';
import { FieldError } from '../../src-shared/base/field-error.ts';
import { objectiveCeiling } from '../../src-shared/problems/dice/objective-range.ts';
import { runProgramOf, type RunProgram } from '../../src-shared/experiments/grid.ts';
import { checkProgramSpec, ProgramSpecError } from '../../src-shared/solvers/program/protocol.ts';
import { FRONT_LOG_LADDERS } from '../../src-shared/solvers/front-log.ts';

/** A stored value that breaks a rule; `field` is the column or the path inside it. */
export class RecordError extends FieldError {
  override readonly name = 'RecordError';
}

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A JSON column: parsed with the nesting limit; RecordError naming the column otherwise. */
export function jsonColumn(column: string, text: unknown): unknown {
  if (typeof text !== 'string') throw new RecordError(column, `must be JSON text, got ${text === null ? 'NULL' : typeof text}`);
  try {
    return parseJsonSafe(text);
  } catch (e) {
    if (e instanceof JsonInputError) throw new RecordError(column, e.message);
    throw e;
  }
}

export function text(field: string, v: unknown): string {
  if (typeof v !== 'string') throw new RecordError(field, `must be text, got ${describeValue(v)}`);
  return v;
}

export function textOrNull(field: string, v: unknown): string | null {
  return v === null ? null : text(field, v);
}

export function finite(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new RecordError(field, `must be a finite number, got ${describeValue(v)}`);
  return v;
}

export function safeInteger(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new RecordError(field, `must be an integer, got ${describeValue(v)}`);
  return v;
}

/** A run's seed: what specs and start requests take, 0 to 2^53 - 1. */
export function seed(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw new RecordError(field, `must be an integer from 0 to 2^53 - 1, got ${describeValue(v)}`);
  return v;
}

/** A duration (ms or s): finite, at least 0. */
export function duration(field: string, v: unknown): number {
  finite(field, v);
  atLeastZero(field, v as number);
  return v as number;
}

/** A 0/1 column (SQLite's booleans) as true or false. */
export function flag(field: string, v: unknown): boolean {
  if (v === 0 || v === 1 || v === 0n || v === 1n) return Number(v) === 1;
  throw new RecordError(field, `must be 0 or 1, got ${describeValue(v)}`);
}

export function status(field: string, v: unknown): 'done' | 'failed' {
  if (v !== 'done' && v !== 'failed') throw new RecordError(field, `must be "done" or "failed", got ${describeValue(v)}`);
  return v;
}

export function config(field: string, v: unknown): DiceConfig {
  try {
    return validateConfig(v);
  } catch (e) {
    if (e instanceof ConfigError) throw new RecordError(e.field === 'config' ? field : `${field}.${e.field}`, e.rule);
    throw e;
  }
}

export function params(field: string, v: unknown): Record<string, ParamValue> {
  if (!isRecord(v)) throw new RecordError(field, 'must be an object of parameter values');
  for (const [k, p] of Object.entries(v))
    if (!(typeof p === 'boolean' || typeof p === 'string' || (typeof p === 'number' && Number.isFinite(p))))
      throw new RecordError(`${field}.${k}`, `must be a number, boolean or string, got ${describeValue(p)}`);
  return v as Record<string, ParamValue>;
}

export function budget(field: string, v: unknown): BudgetSpec {
  if (!isRecord(v)) throw new RecordError(field, 'must be an object like {"evaluations": 1000}');
  for (const k of Object.keys(v))
    if (!['evaluations', 'target', 'stallEvaluations'].includes(k)) throw new RecordError(`${field}.${k}`, 'is not a budget field');
  if (safeInteger(`${field}.evaluations`, v.evaluations) < 1) throw new RecordError(`${field}.evaluations`, `must be at least 1, got ${v.evaluations}`);
  if (v.target !== undefined) finite(`${field}.target`, v.target);
  if (v.stallEvaluations !== undefined) safeInteger(`${field}.stallEvaluations`, v.stallEvaluations);
  return v as unknown as BudgetSpec;
}

export function spec(field: string, v: unknown): ExperimentSpec {
  try {
    validateSpec(v);
  } catch (e) {
    if (e instanceof SpecError) throw new RecordError(`${field}.${e.field}`, e.rule);
    throw e;
  }
  // validateSpec's copy drops nothing a valid spec has; keep the stored object as it is.
  return v as ExperimentSpec;
}

function numberList(field: string, v: unknown, length: number, what: string): number[] {
  if (!Array.isArray(v)) throw new RecordError(field, `must be a list of ${length} numbers`);
  if (v.length !== length) throw new RecordError(field, `has ${v.length} ${what}, expected ${length} (the run's config)`);
  v.forEach((x, i) => finite(`${field}[${i}]`, x));
  return v as number[];
}

function atLeastZero(field: string, v: number): void {
  if (v < 0) throw new RecordError(field, `must be at least 0, got ${v}`);
}

/** A sequence of N die faces, written as the digits 1-6. */
function sequence(field: string, v: unknown, n: number): void {
  if (typeof v !== 'string' || v.length !== n)
    throw new RecordError(field, `must be a sequence of N = ${n} faces, got ${typeof v === 'string' ? `${v.length} characters` : describeValue(v)}`);
  const bad = /[^1-6]/.exec(v);
  if (bad) throw new RecordError(field, `character ${JSON.stringify(bad[0])} at position ${bad.index + 1} is not a die face 1-6`);
}

/**
 * A stored solution: its sequence, and objectives, constraint values and violation in the
 * ranges the evaluator gives (all at least 0; objectives at most objectiveCeiling), with
 * `feasible` saying what the violation says. Whether the numbers are the sequence's own is
 * merge's check (result-audit.ts): it costs an evaluation.
 */
function solution(field: string, v: unknown, cfg: DiceConfig): SolutionRecord {
  if (!isRecord(v)) throw new RecordError(field, 'must be a solution {x, objectives, constraints, feasible, violation}');
  sequence(`${field}.x`, v.x, cfg.n);
  numberList(`${field}.objectives`, v.objectives, cfg.objectives.length, 'objectives').forEach((f, m) => {
    atLeastZero(`${field}.objectives[${m}]`, f);
    const ceiling = objectiveCeiling(cfg, m);
    if (f > ceiling)
      throw new RecordError(`${field}.objectives[${m}]`, `is ${f}, above the largest value objective ${m + 1} can take at N = ${cfg.n} (${ceiling})`);
  });
  numberList(`${field}.constraints`, v.constraints, cfg.constraints.length, 'constraint values').forEach((g, l) =>
    atLeastZero(`${field}.constraints[${l}]`, g),
  );
  if (typeof v.feasible !== 'boolean') throw new RecordError(`${field}.feasible`, `must be true or false, got ${describeValue(v.feasible)}`);
  atLeastZero(`${field}.violation`, finite(`${field}.violation`, v.violation));
  if (v.feasible !== (v.violation === 0)) throw new RecordError(`${field}.feasible`, `is ${v.feasible}, but the violation is ${v.violation}`);
  return v as unknown as SolutionRecord;
}

/** An evaluation count: a whole number, at least 0. */
export function count(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw new RecordError(field, `must be a count (an integer of at least 0), got ${describeValue(v)}`);
  return v;
}

/** An evaluation index of the run (1 to its evaluation count), or null; the key must be there. */
function indexOrNull(field: string, v: unknown, evaluations: number): void {
  if (v === undefined) throw new RecordError(field, 'is missing');
  if (v === null) return;
  if (count(field, v) > evaluations) throw new RecordError(field, `is ${v}, after the run's last evaluation (${evaluations})`);
}

/**
 * A multi-objective run's front log (src-shared/solvers/front-log.ts): insertions
 * [evaluation, f_1, ..., f_M] in the order of their evaluations, each within the run's count, with
 * objectives in their range; and how it was compacted, if it was.
 */
function frontLog(field: string, v: unknown, cfg: DiceConfig, evaluations: number): void {
  const m = cfg.objectives.length;
  if (m < 2) throw new RecordError(field, `is only kept for several objectives, and the run's config has ${m}`);
  if (!isRecord(v)) throw new RecordError(field, `must be an object {insertions, compacted}, got ${describeValue(v)}`);
  if (!Array.isArray(v.insertions))
    throw new RecordError(`${field}.insertions`, `must be a list of [evaluation, f_1, ..., f_${m}], got ${describeValue(v.insertions)}`);
  let previous = 0;
  v.insertions.forEach((row, i) => {
    const at = `${field}.insertions[${i}]`;
    if (!Array.isArray(row) || row.length !== m + 1)
      throw new RecordError(at, `must be [evaluation, f_1, ..., f_${m}], got ${Array.isArray(row) ? `${row.length} values` : describeValue(row)}`);
    const evaluation = count(`${at}[0]`, row[0]);
    if (evaluation < 1 || evaluation > evaluations) throw new RecordError(`${at}[0]`, `is ${evaluation}, not an evaluation of the run (1 to ${evaluations})`);
    if (evaluation < previous) throw new RecordError(`${at}[0]`, `is ${evaluation}, before the insertion above it (${previous})`);
    previous = evaluation;
    for (let k = 1; k <= m; k++) {
      const f = finite(`${at}[${k}]`, row[k]);
      atLeastZero(`${at}[${k}]`, f);
      const ceiling = objectiveCeiling(cfg, k - 1);
      if (f > ceiling) throw new RecordError(`${at}[${k}]`, `is ${f}, above the largest value objective ${k} can take at N = ${cfg.n} (${ceiling})`);
    }
  });
  if (v.compacted === undefined) throw new RecordError(`${field}.compacted`, 'is missing');
  if (v.compacted === null) return;
  if (!isRecord(v.compacted)) throw new RecordError(`${field}.compacted`, `must be null or {exactUntil, perDecade}, got ${describeValue(v.compacted)}`);
  count(`${field}.compacted.exactUntil`, v.compacted.exactUntil);
  if (!(FRONT_LOG_LADDERS as readonly unknown[]).includes(v.compacted.perDecade))
    throw new RecordError(`${field}.compacted.perDecade`, `must be one of ${FRONT_LOG_LADDERS.join(', ')}, got ${describeValue(v.compacted.perDecade)}`);
}

/**
 * A stored solver result for a run of `cfg`: the fields that comparisons, verification and the
 * app read, with every solution's objective and constraint counts equal to the config's, every
 * value in its range and every evaluation count within the run's.
 */
export function solverResult(field: string, v: unknown, cfg: DiceConfig): SolverResult {
  if (!isRecord(v)) throw new RecordError(field, `must be a solver result object, got ${describeValue(v)}`);
  text(`${field}.solver`, v.solver);
  seed(`${field}.seed`, v.seed);
  const evaluations = count(`${field}.evaluations`, v.evaluations);
  if (v.seconds !== undefined) duration(`${field}.seconds`, v.seconds);
  if (v.best === undefined) throw new RecordError(`${field}.best`, 'is missing');
  if (v.best !== null) solution(`${field}.best`, v.best, cfg);
  if (!Array.isArray(v.front)) throw new RecordError(`${field}.front`, `must be a list of solutions, got ${describeValue(v.front)}`);
  v.front.forEach((s, i) => solution(`${field}.front[${i}]`, s, cfg));
  if (!Array.isArray(v.trace)) throw new RecordError(`${field}.trace`, `must be a list of trace points, got ${describeValue(v.trace)}`);
  v.trace.forEach((t, i) => {
    if (!isRecord(t)) throw new RecordError(`${field}.trace[${i}]`, 'must be a trace point object');
    if (count(`${field}.trace[${i}].evaluations`, t.evaluations) > evaluations)
      throw new RecordError(`${field}.trace[${i}].evaluations`, `is ${t.evaluations}, after the run's last evaluation (${evaluations})`);
  });
  if (v.traceExact !== undefined && typeof v.traceExact !== 'boolean')
    throw new RecordError(`${field}.traceExact`, `must be true or false, got ${describeValue(v.traceExact)}`);
  if (v.frontLog !== undefined) frontLog(`${field}.frontLog`, v.frontLog, cfg, evaluations);
  indexOrNull(`${field}.firstFeasibleAt`, v.firstFeasibleAt, evaluations);
  indexOrNull(`${field}.bestFoundAt`, v.bestFoundAt, evaluations);
  return v as unknown as SolverResult;
}

/** The checks of a run about to be stored: its config, and its result against that config. */
export function solverResultOf(run: { status: string; config: unknown; result: unknown; seed?: unknown; evaluations?: unknown }): void {
  const cfg = config('config', run.config);
  if (run.seed !== undefined) seed('seed', run.seed);
  if (run.result !== null) {
    const result = solverResult('result', run.result, cfg);
    if (run.evaluations !== undefined && run.evaluations !== result.evaluations)
      throw new RecordError('evaluations', `the row says ${describeValue(run.evaluations)}, its result ${result.evaluations}`);
  } else if (run.status === 'done') throw new RecordError('result', 'is missing for a done run');
}

/** The stored request of a lab run: the fields the app reads (method, n, seed, params). */
export function labRequest(field: string, v: unknown): { kind: string; method: string; n: number; seed: number } {
  if (!isRecord(v)) throw new RecordError(field, 'must be a request object');
  text(`${field}.kind`, v.kind);
  text(`${field}.method`, v.method);
  if (safeInteger(`${field}.n`, v.n) < 1) throw new RecordError(`${field}.n`, `must be at least 1, got ${v.n}`);
  safeInteger(`${field}.seed`, v.seed);
  if (!isRecord(v.params)) throw new RecordError(`${field}.params`, 'must be an object of parameter values');
  return v as { kind: string; method: string; n: number; seed: number };
}

/** The stored result of a lab run for a request of size n: counts, flags and the queens on the board. */
export function labResult(field: string, v: unknown, n: number): void {
  if (!isRecord(v)) throw new RecordError(field, `must be a result object, got ${describeValue(v)}`);
  if (v.n !== undefined && v.n !== n) throw new RecordError(`${field}.n`, `is ${describeValue(v.n)}, not the request's n = ${n}`);
  if (typeof v.solved !== 'boolean') throw new RecordError(`${field}.solved`, `must be true or false, got ${describeValue(v.solved)}`);
  count(`${field}.steps`, v.steps);
  atLeastZero(`${field}.seconds`, finite(`${field}.seconds`, v.seconds));
  if (v.queens !== null) {
    if (!Array.isArray(v.queens) || v.queens.length !== n)
      throw new RecordError(
        `${field}.queens`,
        `must be null or a list of ${n} rows, got ${Array.isArray(v.queens) ? `${v.queens.length} values` : describeValue(v.queens)}`,
      );
    v.queens.forEach((c, r) => {
      if (c !== null && !(Number.isSafeInteger(c) && c >= 0 && c < n))
        throw new RecordError(`${field}.queens[${r}]`, `must be a column from 0 to ${n - 1}, got ${describeValue(c)}`);
    });
  }
  if (v.message !== undefined) text(`${field}.message`, v.message);
}

/** A run's program (schema 5): a program entry's fields as checkProgramSpec takes them. */
export function program(field: string, v: unknown): RunProgram {
  if (!isRecord(v)) throw new RecordError(field, "must be an object with the program's command");
  try {
    return runProgramOf(checkProgramSpec(v, ''));
  } catch (e) {
    if (e instanceof ProgramSpecError) throw new RecordError(field, e.message);
    throw e;
  }
}
