/**
 * Every kind of run, one line each, and the one way to execute a request of any kind: find its
 * kind, build the run, drive it, check the result. The worker process, in-process runs
 * (`--inline`, `experiment verify`, benchmarks) and the tests all call executeRun (or
 * executeRunSync, which has no environment and so runs no solver program), so a built-in
 * solver's run with an evaluation budget gives the same result wherever it runs (a time budget
 * or a program's own choices may not).
 *
 * To add a kind: a module beside this one exporting its request, snapshot and result types and
 * its RunKind (`{name, create, progressPoint, finalPoints}`); one line in RunKindTypes and one in
 * RUN_KINDS, one in RunApiTypes (src-shared/runtime/run-api.ts: what the API starts and reports),
 * and its app side (src-main/app/run-kinds.ts). The host, the API's runs and the
 * renderer's run store are generic over the kind.
 */
import type { Snapshot, SolverResult } from '../../solvers/types.ts';
import { RunClock, type RunControl } from '../../core/control.ts';
import { drive, driveSync } from '../../core/driver.ts';
import type { KindRun, RunEnvironment } from './base.ts';
import type { RunApiTypes } from '../run-api.ts';
import type { ProgressPoint } from '../progress.ts';
import { diceRunKind, type DiceRunRequest } from './dice.ts';
import { nqueensRunKind, type NqueensResult, type NqueensRunRequest, type NqueensSnapshot } from './nqueens.ts';
import { nqueensSweepRunKind, type NqueensSweepRequest, type NqueensSweepResult, type NqueensSweepSnapshot } from './nqueens-sweep.ts';

export type { DiceRunRequest } from './dice.ts';
export type { NqueensMethod, NqueensResult, NqueensRunRequest, NqueensSnapshot } from './nqueens.ts';
export type { NqueensSweepOutcome, NqueensSweepPoint, NqueensSweepRequest, NqueensSweepResult, NqueensSweepSnapshot } from './nqueens-sweep.ts';
export type { RunEnvironment, RunRequestBase } from './base.ts';

/** Request, snapshot and result of each kind. */
export interface RunKindTypes {
  dice: { request: DiceRunRequest; snapshot: Snapshot; result: SolverResult };
  nqueens: { request: NqueensRunRequest; snapshot: NqueensSnapshot; result: NqueensResult };
  'nqueens-sweep': { request: NqueensSweepRequest; snapshot: NqueensSweepSnapshot; result: NqueensSweepResult };
}

export type RunKindName = keyof RunKindTypes;
export type RunRequest = RunKindTypes[RunKindName]['request'];
export type SnapshotOf<R extends RunRequest> = RunKindTypes[R['kind']]['snapshot'];
export type ResultOf<R extends RunRequest> = RunKindTypes[R['kind']]['result'];
export type AnyRunSnapshot = RunKindTypes[RunKindName]['snapshot'];
export type AnyRunResult = RunKindTypes[RunKindName]['result'];

/**
 * A kind of run as every process knows it (its app side is RunKindDescriptor in
 * src-main/app/run-kinds.ts): how a request becomes a run, and how the run's progress is drawn.
 */
export interface RunKind<K extends RunKindName> {
  readonly name: K;
  create(request: RunKindTypes[K]['request'], clock: RunClock, environment?: RunEnvironment): KindRun<RunKindTypes[K]['snapshot'], RunKindTypes[K]['result']>;
  /** A live snapshot as a convergence point (src-shared/runtime/progress.ts), for the main side's history and the renderer. */
  progressPoint(snapshot: RunApiTypes[K]['snapshot'], started: RunApiTypes[K]['started']): ProgressPoint;
  /** The points of a finished run from its reported result; null keeps the live history. */
  finalPoints(result: RunApiTypes[K]['result']): ProgressPoint[] | null;
}

const RUN_KINDS: { [K in RunKindName]: RunKind<K> } = {
  dice: diceRunKind,
  nqueens: nqueensRunKind,
  'nqueens-sweep': nqueensSweepRunKind,
};

export const RUN_KIND_NAMES = Object.keys(RUN_KINDS) as readonly RunKindName[];

/** A snapshot of a run as a convergence point, by the run's kind. */
export function progressPoint<K extends RunKindName>(started: RunApiTypes[K]['started'], snapshot: RunApiTypes[K]['snapshot']): ProgressPoint {
  return (RUN_KINDS[started.kind as K] as RunKind<K>).progressPoint(snapshot, started);
}

/** A finished run's convergence points from its result, or null when its live history stands. */
export function finalPoints<K extends RunKindName>(kind: K, result: RunApiTypes[K]['result'] | null): ProgressPoint[] | null {
  return result === null ? null : (RUN_KINDS[kind] as RunKind<K>).finalPoints(result);
}

export function isRunKindName(name: unknown): name is RunKindName {
  return typeof name === 'string' && Object.hasOwn(RUN_KINDS, name);
}

function build<R extends RunRequest>(request: R, clock: RunClock, environment: RunEnvironment = {}): KindRun<SnapshotOf<R>, ResultOf<R>> {
  if (typeof request !== 'object' || request === null) throw new Error('a run request must be an object');
  if (!isRunKindName(request.kind)) throw new Error(`unknown kind of run ${JSON.stringify(request.kind)} (known: ${RUN_KIND_NAMES.join(', ')})`);
  const kind = RUN_KINDS[request.kind] as unknown as RunKind<R['kind']>;
  return kind.create(request as never, clock, environment) as unknown as KindRun<SnapshotOf<R>, ResultOf<R>>;
}

export interface ExecuteOptions<S> {
  onSnapshot?: (snapshot: S) => void;
  control?: RunControl;
  /** Milliseconds clock (tests). */
  clock?: () => number;
  yieldToHost?: () => Promise<void>;
  sliceMilliseconds?: number;
  /** What this process offers runs beyond src-shared (starting solver programs). */
  environment?: RunEnvironment;
}

/** Runs a request of any kind to its end (or a cancel) and returns its checked result. */
export async function executeRun<R extends RunRequest>(request: R, options: ExecuteOptions<SnapshotOf<R>> = {}): Promise<ResultOf<R>> {
  const clock = new RunClock(options.clock);
  const built = build(request, clock, options.environment);
  const result = await drive(built.run, built.termination, {
    onSnapshot: options.onSnapshot,
    control: options.control,
    clock,
    snapshotInterval: request.snapshotIntervalMs ?? 200,
    sliceMilliseconds: options.sliceMilliseconds,
    yieldToHost: options.yieldToHost,
    requireBudget: built.requireBudget,
  });
  built.check?.(result);
  return result;
}

/** The same without yielding or snapshots. */
export function executeRunSync<R extends RunRequest>(request: R, options: { clock?: () => number } = {}): ResultOf<R> {
  const clock = new RunClock(options.clock);
  const built = build(request, clock);
  const result = driveSync(built.run, built.termination, { clock, requireBudget: built.requireBudget });
  built.check?.(result);
  return result;
}
