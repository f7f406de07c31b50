/**
 * An N-Queens run as the app's API takes it (`startNqueensRun`): its checks, with errors that
 * name the field in the CLI's words (`saikoro nqueens`), and the translation of the network's
 * and min-conflicts' own parameter objects into the framework's names (what a host request
 * carries). Shared by the main side (checks every request), the CLI and the renderer (checks a
 * form before sending it).
 */
import type { ParamValue } from '../../core/params.ts';
import { defaultMinConflictsParams, MAX_MINCONFLICTS_N, validateMinConflictsParams, type MinConflictsParams } from './minconflicts.ts';
import { defaultNeuralParams, validateNeuralParams, type NeuralParams } from './neural.ts';
import { ParamError, resolveParams } from '../../core/params.ts';
import { findNqueensSolver } from './solvers.ts';
import { FieldError } from '../../base/field-error.ts';

export type NqueensMethodName = 'neural' | 'minconflicts';
export const NQUEENS_METHOD_NAMES: readonly NqueensMethodName[] = ['neural', 'minconflicts'];

/** The largest board per method, as `saikoro nqueens` allows (the network needs N*N neurons). */
export const NQUEENS_MAX_N: Record<NqueensMethodName, number> = { neural: 4000, minconflicts: MAX_MINCONFLICTS_N };
/** Seeds are 32-bit signed integers, as in the CLI. */
export const NQUEENS_SEED_RANGE = [-(2 ** 31), 2 ** 31 - 1] as const;
/** How many queens a finished run's report carries by default (the first ones, row 0 up). */
export const DEFAULT_REPORT_QUEENS = 10_000;

/** A bad field of an N-Queens request; `field` is e.g. "n", "method", "params.A". */
export class NqueensRequestError extends FieldError {
  override readonly name = 'NqueensRequestError';
}

export interface NqueensRequestFields {
  method: NqueensMethodName;
  n: number;
  /** Parameters by their framework names (solvers.ts); missing ones take their defaults. */
  params?: Record<string, ParamValue>;
  seed: number;
  /** How many queens the report of a solved run carries (default DEFAULT_REPORT_QUEENS, 0..N). */
  maxQueens?: number;
}

export interface CheckedNqueensRequest {
  method: NqueensMethodName;
  n: number;
  seed: number;
  /** Every parameter, defaults filled in. */
  params: Record<string, ParamValue>;
  maxQueens: number;
  /** The step limit that applies: params.maxSteps, or the method's default for N when that is 0. */
  stepLimit: number;
}

function integerField(field: string, v: unknown, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new NqueensRequestError(field, `expected a number, got ${JSON.stringify(v) ?? String(v)}`);
  if (!Number.isInteger(v)) throw new NqueensRequestError(field, `expected an integer, got ${v}`);
  if (v < min) throw new NqueensRequestError(field, `must be at least ${min}, got ${v}`);
  if (v > max) throw new NqueensRequestError(field, `must be at most ${max}, got ${v}`);
  return v;
}

/**
 * Checks a request the way `saikoro nqueens` checks its options and resolves the parameters;
 * throws NqueensRequestError naming the first bad field. Builds nothing (cheap at any N).
 */
export function checkNqueensRequest(request: unknown): CheckedNqueensRequest {
  if (typeof request !== 'object' || request === null || Array.isArray(request))
    throw new NqueensRequestError('request', 'must be an object {method, n, params?, seed}');
  const r = request as Partial<Record<keyof NqueensRequestFields, unknown>>;
  const method = r.method as NqueensMethodName;
  if (!NQUEENS_METHOD_NAMES.includes(method))
    throw new NqueensRequestError('method', `expected "neural" or "minconflicts", got ${JSON.stringify(r.method) ?? String(r.method)}`);
  const n = integerField('n', r.n, 1, NQUEENS_MAX_N[method]);
  const seed = integerField('seed', r.seed, NQUEENS_SEED_RANGE[0], NQUEENS_SEED_RANGE[1]);
  const maxQueens = r.maxQueens === undefined ? Math.min(n, DEFAULT_REPORT_QUEENS) : integerField('maxQueens', r.maxQueens, 0, n);
  const given = r.params ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new NqueensRequestError('params', 'must be an object of parameters by name');
  let params: Record<string, ParamValue>;
  const info = findNqueensSolver(`nqueens-${method}`);
  try {
    params = resolveParams(info.name, info.params, given as Record<string, unknown>, n);
  } catch (e) {
    if (e instanceof ParamError) throw new NqueensRequestError(`params.${e.param}`, e.rule);
    throw e;
  }
  // What the parameter specs cannot say: N = 2 and 3 have no solution, the network needs N >= 4,
  // and a kick must be shorter than its period. The validators' words, as the CLI prints them.
  const base: NeuralParams | MinConflictsParams = method === 'neural' ? defaultNeuralParams(n) : defaultMinConflictsParams(n);
  try {
    if (method === 'neural') validateNeuralParams(base as NeuralParams);
    else validateMinConflictsParams(base as MinConflictsParams);
  } catch (e) {
    throw new NqueensRequestError('n', (e as Error).message.replace(/^n: /, ''));
  }
  const every = params.kickEvery as number;
  if (method === 'neural' && every > 0 && (params.kickLength as number) >= every)
    throw new NqueensRequestError('params.kickLength', `must be less than kickEvery (${every}), got ${params.kickLength as number}`);
  const stepLimit = (params.maxSteps as number) || base.maxSteps;
  return { method, n, seed, params, maxQueens, stepLimit };
}

/**
 * The CLI's parameters in the framework's names (src-shared/problems/nqueens/solvers.ts), for a
 * host request. The framework builds the same NeuralParams / MinConflictsParams from them:
 * `kickEvery` 0 means "on repeat", so the CLI's "every 0" (never) becomes `kickLength` 0.
 */
export function frameworkParams(method: NqueensMethodName, params: NeuralParams | MinConflictsParams): Record<string, ParamValue> {
  if (method === 'minconflicts') {
    const p = params as MinConflictsParams;
    return { samples: p.samples, greedyTries: p.greedyTries, noise: p.noise, maxSteps: p.maxSteps };
  }
  const p = params as NeuralParams;
  const every = p.kick.every;
  return {
    A: p.A,
    B: p.B,
    C: p.C,
    kick: p.kick.value,
    kickEvery: every === 'auto' ? 0 : every,
    kickLength: every === 0 ? 0 : p.kick.length,
    update: p.update,
    threshold: p.threshold,
    clamp: p.clamp,
    maxSteps: p.maxSteps,
  };
}
