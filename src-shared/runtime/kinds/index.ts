/**
 * Every kind of run, one line each, and the one way to execute a request of any kind: find its
 * kind, build the run, drive it, check the result. The worker process, in-process runs
 * (`--inline`, `experiment verify`, benchmarks) and the tests all call executeRun /
 * executeRunSync, so a run gives the same result wherever it runs.
 *
 * To add a kind: a module beside this one exporting its request, snapshot and result types and
 * a `{name, create}` object; one line in RunKindTypes and one in RUN_KINDS. The host, the API's
 * runs and the renderer's run store are generic over the kind.
 */
import type { Snapshot, SolverResult } from '../../solvers/types.ts';
import { RunClock, type RunControl } from '../control.ts';
import { drive, driveSync } from '../driver.ts';
import type { KindRun, RunEnvironment } from './base.ts';
import { diceRunKind, type DiceRunRequest } from './dice.ts';
import { nqueensRunKind, type NqueensResult, type NqueensRunRequest, type NqueensSnapshot } from './nqueens.ts';

export type { DiceRunRequest } from './dice.ts';
export type { NqueensMethod, NqueensResult, NqueensRunRequest, NqueensSnapshot } from './nqueens.ts';
export type { RunEnvironment, RunRequestBase } from './base.ts';

/** Request, snapshot and result of each kind. */
export interface RunKindTypes {
  dice: { request: DiceRunRequest; snapshot: Snapshot; result: SolverResult };
  nqueens: { request: NqueensRunRequest; snapshot: NqueensSnapshot; result: NqueensResult };
}

export type RunKindName = keyof RunKindTypes;
export type RunRequest = RunKindTypes[RunKindName]['request'];
export type SnapshotOf<R extends RunRequest> = RunKindTypes[R['kind']]['snapshot'];
export type ResultOf<R extends RunRequest> = RunKindTypes[R['kind']]['result'];
export type AnyRunSnapshot = RunKindTypes[RunKindName]['snapshot'];
export type AnyRunResult = RunKindTypes[RunKindName]['result'];

interface RunKind<K extends RunKindName> {
  readonly name: K;
  create(request: RunKindTypes[K]['request'], clock: RunClock, environment?: RunEnvironment): KindRun<RunKindTypes[K]['snapshot'], RunKindTypes[K]['result']>;
}

const RUN_KINDS: { [K in RunKindName]: RunKind<K> } = {
  dice: diceRunKind,
  nqueens: nqueensRunKind,
};

export const RUN_KIND_NAMES = Object.keys(RUN_KINDS) as readonly RunKindName[];

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
