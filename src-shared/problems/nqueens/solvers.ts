/**
 * The two N-Queens methods behind one stepping interface: parameters as ParamSpec (resolved by
 * the one parameter resolver, src-shared/core/params.ts; the UI's parameter forms use
 * describeParam), and a stepper that the generic driver advances in slices (the N-Queens kind
 * of run, src-shared/runtime/kinds/nqueens.ts, does that; see docs/nqueens.md).
 *
 * They are not in src-shared/solvers/registry.ts: those solvers are ask/tell searches over a
 * Problem's variables, these are whole methods with their own state (the network's neurons).
 */
import { describeParam } from '../../core/params.ts';
import type { ParamDescriptor, ParamSpec, ParamValue } from '../../core/params.ts';
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
  /** Min-conflicts: the attacking pairs its greedy start left (null before it finished, and for the network). */
  initialConflicts(): number | null;
}

export interface NqueensSolverInfo {
  readonly name: string;
  readonly title: string;
  readonly summary: string;
  readonly baseline: boolean;
  /** Parameters; a computed default would depend on the board size N. */
  readonly params: readonly ParamSpec<number>[];
  /** Builds a run for board size n from resolved params. */
  create(n: number, params: Readonly<Record<string, ParamValue>>, seed: number): NqueensStepper;
}

const STEP_LIMIT: ParamSpec<number> = {
  name: 'maxSteps',
  type: 'integer',
  default: 0,
  defaultText: "0 = the method's default for N",
  min: 0,
  description: 'Step limit (0: neural max(5000, 5N) sweeps, min-conflicts max(100000, 50N) repairs)',
};

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
    {
      name: 'kickEvery',
      type: 'integer',
      default: 0,
      defaultText: '0 = whenever the outputs repeat',
      min: 0,
      description: 'Kick every k steps (0: kick when a state repeats)',
    },
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
      initialConflicts: () => null,
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
    const params: MinConflictsParams = {
      ...base,
      samples: p.samples as number,
      greedyTries: p.greedyTries as number,
      noise: p.noise as number,
      maxSteps: (p.maxSteps as number) || base.maxSteps,
    };
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
      initialConflicts: () => (mc.started ? mc.initialConflicts : null),
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
