/**
 * The two N-Queens methods behind one stepping interface, in the solver framework's terms:
 * parameters as ParamSpec (so `describeParam` and the UI's parameter forms work unchanged),
 * Termination and StopReason for when a run ends, RunControl for pause and cancel between
 * slices. `runNqueensSolver` is the driver a host calls; it yields to the host's event loop
 * every `sliceMilliseconds`, like the dice driver (src-shared/solvers/run.ts).
 *
 * They are not in src-shared/solvers/registry.ts: that registry's SolverInfo binds the dice
 * Problem (a sequence of faces 1..6, its evaluator and DiceState), and every solver in it is
 * run on dice problems. See docs/nqueens.md.
 */
import { describeParam } from '../../solvers/params.ts';
import type { ParamDescriptor, ParamSpec, ParamValue, RunControl, StopReason, Termination } from '../../solvers/types.ts';
import { defaultNeuralParams, NeuralNet, type NeuralParams } from './neural.ts';
import { defaultMinConflictsParams, MinConflicts, type MinConflictsParams } from './minconflicts.ts';

export interface NqueensProgress {
  steps: number;
  /** Attacking pairs now (for the network: among the raised neurons). */
  conflicts: number;
  /** Raised neurons (network) or N (min-conflicts). */
  queens: number;
  /** The network's energy E (zero exactly at a solution); min-conflicts has none. */
  energy?: number;
}

/** One run, advanced in slices by the driver. */
export interface NqueensStepper {
  /** Does up to `budget` steps; stops early when solved or at the step limit. */
  advance(budget: number): void;
  readonly steps: number;
  readonly solved: boolean;
  /** Solved or at the step limit. */
  readonly finished: boolean;
  progress(): NqueensProgress;
  /** queens[r] = column in row r, when solved. */
  queens(): number[] | null;
  /** Why an unsolved run failed (network: loop / oscillation / stall / wander). */
  failure(): string | undefined;
}

export interface NqueensSolverInfo {
  readonly name: string;
  readonly title: string;
  readonly summary: string;
  readonly baseline: boolean;
  readonly params: readonly ParamSpec[];
  /** Builds a run for board size n from resolved params (see resolveNqueensParams). */
  create(n: number, params: Readonly<Record<string, ParamValue>>, seed: number): NqueensStepper;
}

const STEP_LIMIT: ParamSpec = { name: 'maxSteps', type: 'integer', default: 0, defaultText: '0 = the method\'s default for N', min: 0, description: 'Step limit (0: neural max(5000, 5N) sweeps, min-conflicts max(100000, 50N) repairs)' };

export const nqueensNeural: NqueensSolverInfo = {
  name: 'nqueens-neural',
  title: 'Hill-climbing neural network',
  summary: "The slides' network: dU = -A(row+col-2) - B(diagonals) + C·h, with kicks",
  baseline: false,
  params: [
    { name: 'A', type: 'number', default: 1, min: 0, exclusiveMin: true, description: 'Weight of the row and column term' },
    { name: 'B', type: 'number', default: 1, min: 0, exclusiveMin: true, description: 'Weight of the diagonal term' },
    { name: 'C', type: 'number', default: 1, min: 0, description: 'Weight of the hill-climbing term outside kicks' },
    { name: 'kick', type: 'number', default: 4, min: 0, description: 'C during a kick' },
    { name: 'kickEvery', type: 'integer', default: 0, defaultText: '0 = whenever the outputs repeat', min: 0, description: 'Kick every k steps (0: kick when a state repeats)' },
    { name: 'kickLength', type: 'integer', default: 3, min: 0, description: 'Steps per kick (0: never kick)' },
    { name: 'update', type: 'choice', default: 'seq', choices: ['seq', 'sync'], description: 'One neuron at a time, or all at once (the slides)' },
    { name: 'threshold', type: 'number', default: 0, description: 'A neuron is raised when U > threshold' },
    { name: 'clamp', type: 'number', default: 3, min: 0, description: 'Bound on |U - threshold| (0: unbounded)' },
    STEP_LIMIT,
  ],
  create(n, p, seed) {
    const base = defaultNeuralParams(n);
    const params: NeuralParams = {
      ...base,
      A: p.A as number,
      B: p.B as number,
      C: p.C as number,
      kick: { value: p.kick as number, every: (p.kickEvery as number) === 0 ? 'auto' : (p.kickEvery as number), length: p.kickLength as number },
      update: p.update as 'seq' | 'sync',
      threshold: p.threshold as number,
      clamp: p.clamp as number,
      maxSteps: (p.maxSteps as number) || base.maxSteps,
    };
    const net = new NeuralNet(params, seed);
    return {
      advance(budget) {
        for (let i = 0; i < budget && !this.finished; i++) net.step();
      },
      get steps() {
        return net.stepCount;
      },
      get solved() {
        return net.solved;
      },
      get finished() {
        return net.solved || net.stepCount >= params.maxSteps;
      },
      progress: () => ({ steps: net.stepCount, conflicts: net.state.conflicts, queens: net.state.queens, energy: net.state.energy }),
      queens: () => net.result().queens,
      failure: () => net.result().failure,
    };
  },
};

/** Greedy-start rows placed per unit of the driver's step budget (a row costs far less than a repair). */
const ROWS_PER_STEP = 1024;

export const nqueensMinConflicts: NqueensSolverInfo = {
  name: 'nqueens-minconflicts',
  title: 'Min-conflicts',
  summary: 'Greedy start, then swap an attacked queen to its least-conflicted sampled column (Minton et al.)',
  baseline: true,
  params: [
    { name: 'samples', type: 'integer', default: 32, min: 1, description: 'Partner rows examined per repair' },
    { name: 'greedyTries', type: 'integer', default: 64, min: 1, description: 'Random columns tried per row by the greedy start' },
    { name: 'noise', type: 'number', default: 0.02, min: 0, max: 1, description: 'Probability of taking a worsening move' },
    STEP_LIMIT,
  ],
  create(n, p, seed) {
    const base = defaultMinConflictsParams(n);
    const params: MinConflictsParams = { ...base, samples: p.samples as number, greedyTries: p.greedyTries as number, noise: p.noise as number, maxSteps: (p.maxSteps as number) || base.maxSteps };
    // The greedy start runs in slices of the driver's budget (ROWS_PER_STEP rows a step), so
    // that a run of 10^7 queens reports progress and can be cancelled during it.
    const mc = new MinConflicts(params, seed, { deferStart: true });
    return {
      advance(budget) {
        if (mc.started) mc.advance(budget);
        else mc.continueStart(budget * ROWS_PER_STEP);
      },
      get steps() {
        return mc.progress().steps;
      },
      get solved() {
        return mc.solved;
      },
      get finished() {
        return mc.solved || mc.progress().steps >= params.maxSteps;
      },
      // During the greedy start, `queens` is the rows placed so far.
      progress: () => ({ steps: mc.progress().steps, conflicts: mc.conflictCount, queens: mc.started ? n : mc.placedRows }),
      queens: () => (mc.solved ? Array.from(mc.queens) : null),
      failure: () => (mc.solved ? undefined : `${mc.conflictCount} attacking pairs left`),
    };
  },
};

export const nqueensSolvers: readonly NqueensSolverInfo[] = [nqueensNeural, nqueensMinConflicts];

export class NqueensSolverError extends Error {}

export function findNqueensSolver(name: string): NqueensSolverInfo {
  const s = nqueensSolvers.find((x) => x.name === name);
  if (!s) throw new NqueensSolverError(`unknown N-Queens solver ${JSON.stringify(name)} (known: ${nqueensSolvers.map((x) => x.name).join(', ')})`);
  return s;
}

export function describeNqueensSolvers(): { name: string; title: string; summary: string; baseline: boolean; params: ParamDescriptor[] }[] {
  return nqueensSolvers.map((s) => ({ name: s.name, title: s.title, summary: s.summary, baseline: s.baseline, params: s.params.map(describeParam) }));
}

/** Defaults filled in and every value checked against its spec; errors name the parameter. */
export function resolveNqueensParams(info: NqueensSolverInfo, given: Readonly<Record<string, unknown>>): Record<string, ParamValue> {
  for (const key of Object.keys(given)) if (!info.params.some((s) => s.name === key)) throw new NqueensSolverError(`${info.name}: unknown parameter "${key}" (known: ${info.params.map((s) => s.name).join(', ')})`);
  const out: Record<string, ParamValue> = {};
  for (const spec of info.params) {
    const raw = given[spec.name] ?? (spec.default as ParamValue);
    const bad = (why: string) => new NqueensSolverError(`${info.name}: ${spec.name} ${why}, got ${JSON.stringify(raw)}`);
    if (spec.type === 'choice') {
      if (typeof raw !== 'string' || !spec.choices!.includes(raw)) throw bad(`must be one of ${spec.choices!.join(', ')}`);
    } else {
      if (typeof raw !== 'number' || !Number.isFinite(raw)) throw bad('must be a number');
      if (spec.type === 'integer' && !Number.isInteger(raw)) throw bad('must be an integer');
      if (spec.min !== undefined && (spec.exclusiveMin ? raw <= spec.min : raw < spec.min)) throw bad(`must be ${spec.exclusiveMin ? 'above' : 'at least'} ${spec.min}`);
      if (spec.max !== undefined && raw > spec.max) throw bad(`must be at most ${spec.max}`);
    }
    out[spec.name] = raw;
  }
  return out;
}

export interface NqueensSnapshot extends NqueensProgress {
  seconds: number;
  /** 0..1: the larger of steps / step budget and seconds / time budget. */
  progress: number;
  paused: boolean;
}

export interface NqueensRunResult {
  solver: string;
  n: number;
  params: Record<string, ParamValue>;
  seed: number;
  solved: boolean;
  steps: number;
  seconds: number;
  stopReason: StopReason;
  queens: number[] | null;
  failure?: string;
  message: string;
}

export interface NqueensRunOptions {
  sliceMilliseconds?: number;
  snapshotInterval?: number;
  clock?: () => number;
  yieldToHost?: () => Promise<void>;
}

interface HostGlobals {
  performance?: { now(): number };
  setTimeout?: (callback: () => void, ms: number) => unknown;
}
const host = globalThis as unknown as HostGlobals;

/**
 * Runs an N-Queens solver to a solution, its step limit, or the termination (maxEvaluations
 * counts steps; maxSeconds wall time), honouring pause and cancel between slices.
 */
export async function runNqueensSolver(
  name: string,
  n: number,
  given: Readonly<Record<string, unknown>>,
  seed: number,
  termination: Termination = {},
  onSnapshot?: (s: NqueensSnapshot) => void,
  control?: RunControl,
  options: NqueensRunOptions = {},
): Promise<NqueensRunResult> {
  const info = findNqueensSolver(name);
  const params = resolveNqueensParams(info, given);
  const clock = options.clock ?? (() => (host.performance ? host.performance.now() : Date.now()));
  const yieldToHost = options.yieldToHost ?? (() => new Promise<void>((resolve) => (host.setTimeout ? host.setTimeout(resolve, 0) : resolve())));
  const slice = options.sliceMilliseconds ?? 20;
  const interval = options.snapshotInterval ?? 200;
  const start = clock();
  const stepper = info.create(n, params, seed);
  const seconds = () => (clock() - start) / 1000;
  const progress = (at: number) => Math.min(1, Math.max(termination.maxEvaluations ? stepper.steps / termination.maxEvaluations : 0, termination.maxSeconds ? at / termination.maxSeconds : 0));
  const snapshot = (paused: boolean, at = seconds()) => onSnapshot?.({ ...stepper.progress(), seconds: at, progress: stepper.solved ? 1 : progress(at), paused });
  // Throttled on the seconds the snapshots report, so they are at least `interval` apart in them.
  let lastSnapshotSeconds = -Infinity;
  let stopReason: StopReason = 'solver';
  let batch = 1;
  for (;;) {
    if (stepper.finished) break;
    if (control?.cancelled) {
      stopReason = 'cancelled';
      break;
    }
    if (termination.maxEvaluations !== undefined && stepper.steps >= termination.maxEvaluations) {
      stopReason = 'evaluations';
      break;
    }
    if (termination.maxSeconds !== undefined && seconds() >= termination.maxSeconds) {
      stopReason = 'time';
      break;
    }
    if (control?.paused) {
      snapshot(true);
      await control.whenResumed();
      continue;
    }
    // Grow or shrink the batch so that one slice takes about `slice` ms.
    const t0 = clock();
    const budget = termination.maxEvaluations !== undefined ? Math.min(batch, termination.maxEvaluations - stepper.steps) : batch;
    stepper.advance(budget);
    const took = clock() - t0;
    batch = took < slice / 2 ? batch * 2 : took > slice * 2 ? Math.max(1, batch >> 1) : batch;
    const now = seconds();
    if ((now - lastSnapshotSeconds) * 1000 >= interval) {
      lastSnapshotSeconds = now;
      snapshot(false, now);
    }
    await yieldToHost();
  }
  snapshot(false);
  const solved = stepper.solved;
  const failure = solved ? undefined : stepper.failure();
  const steps = stepper.steps;
  const message = solved
    ? `solved N = ${n} in ${steps} steps`
    : stopReason === 'cancelled'
      ? `cancelled after ${steps} steps`
      : stopReason === 'solver'
        ? `not solved within the step limit (${steps} steps)${failure ? `: ${failure}` : ''}`
        : `stopped by the ${stopReason === 'time' ? 'time' : 'step'} budget after ${steps} steps`;
  return { solver: name, n, params, seed, solved, steps, seconds: seconds(), stopReason: solved ? 'solver' : stopReason, queens: stepper.queens(), ...(failure ? { failure } : {}), message };
}
