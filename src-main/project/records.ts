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
import type { ParamValue, SolutionRecord, SolverResult } from '../../src-shared/solvers/types.ts';
import { FieldError } from '../../src-shared/base/field-error.ts';

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

function safeInteger(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new RecordError(field, `must be an integer, got ${describeValue(v)}`);
  return v;
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
    if (!(typeof p === 'boolean' || typeof p === 'string' || (typeof p === 'number' && Number.isFinite(p)))) throw new RecordError(`${field}.${k}`, `must be a number, boolean or string, got ${describeValue(p)}`);
  return v as Record<string, ParamValue>;
}

export function budget(field: string, v: unknown): BudgetSpec {
  if (!isRecord(v)) throw new RecordError(field, 'must be an object like {"evaluations": 1000}');
  for (const k of Object.keys(v)) if (!['evaluations', 'target', 'stallEvaluations'].includes(k)) throw new RecordError(`${field}.${k}`, 'is not a budget field');
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

function numberList(field: string, v: unknown, length: number, what: string): void {
  if (!Array.isArray(v)) throw new RecordError(field, `must be a list of ${length} numbers`);
  if (v.length !== length) throw new RecordError(field, `has ${v.length} ${what}, expected ${length} (the run's config)`);
  v.forEach((x, i) => finite(`${field}[${i}]`, x));
}

function solution(field: string, v: unknown, cfg: DiceConfig): SolutionRecord {
  if (!isRecord(v)) throw new RecordError(field, 'must be a solution {x, objectives, constraints, feasible, violation}');
  if (typeof v.x !== 'string' || v.x.length !== cfg.n) throw new RecordError(`${field}.x`, `must be a sequence of N = ${cfg.n} faces, got ${typeof v.x === 'string' ? `${v.x.length} characters` : describeValue(v.x)}`);
  numberList(`${field}.objectives`, v.objectives, cfg.objectives.length, 'objectives');
  numberList(`${field}.constraints`, v.constraints, cfg.constraints.length, 'constraint values');
  if (typeof v.feasible !== 'boolean') throw new RecordError(`${field}.feasible`, `must be true or false, got ${describeValue(v.feasible)}`);
  finite(`${field}.violation`, v.violation);
  return v as unknown as SolutionRecord;
}

function countOrNull(field: string, v: unknown): void {
  if (v !== undefined && v !== null) finite(field, v);
}

/**
 * A stored solver result for a run of `cfg`: the fields that comparisons, verification and the
 * app read, with every solution's objective and constraint counts equal to the config's.
 */
export function solverResult(field: string, v: unknown, cfg: DiceConfig): SolverResult {
  if (!isRecord(v)) throw new RecordError(field, `must be a solver result object, got ${describeValue(v)}`);
  text(`${field}.solver`, v.solver);
  finite(`${field}.evaluations`, v.evaluations);
  if (v.seconds !== undefined) finite(`${field}.seconds`, v.seconds);
  if (v.best === undefined) throw new RecordError(`${field}.best`, 'is missing');
  if (v.best !== null) solution(`${field}.best`, v.best, cfg);
  if (!Array.isArray(v.front)) throw new RecordError(`${field}.front`, `must be a list of solutions, got ${describeValue(v.front)}`);
  v.front.forEach((s, i) => solution(`${field}.front[${i}]`, s, cfg));
  if (!Array.isArray(v.trace)) throw new RecordError(`${field}.trace`, `must be a list of trace points, got ${describeValue(v.trace)}`);
  v.trace.forEach((t, i) => {
    if (!isRecord(t)) throw new RecordError(`${field}.trace[${i}]`, 'must be a trace point object');
    finite(`${field}.trace[${i}].evaluations`, t.evaluations);
  });
  countOrNull(`${field}.firstFeasibleAt`, v.firstFeasibleAt);
  countOrNull(`${field}.bestFoundAt`, v.bestFoundAt);
  return v as unknown as SolverResult;
}

/** The checks of a run about to be stored: its config, and its result against that config. */
export function solverResultOf(run: { status: string; config: unknown; result: unknown }): void {
  const cfg = config('config', run.config);
  if (run.result !== null) solverResult('result', run.result, cfg);
  else if (run.status === 'done') throw new RecordError('result', 'is missing for a done run');
}
