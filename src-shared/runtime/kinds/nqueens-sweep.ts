/**
 * The N-Queens lab's sweep as a kind of run: a grid of network runs, (setting, N) points x
 * seeds 1..seeds, run one after the other in one worker. Each cell is exactly the nqueens run
 * of its N, parameters and seed (nqueensRunKind, stepped to its own end as the driver steps
 * it, its solution verified), so a cell's outcome is what executeRun of that nqueens request
 * gives. The work the driver counts is steps over all cells; the run's own progress is the
 * share of cells finished. A cancelled sweep reports the cells it finished.
 */
import type { ParamValue } from '../../core/params.ts';
import type { RunClock } from '../../core/control.ts';
import type { RunEnd, RunProgress, Steppable } from '../../core/driver.ts';
import type { StopReason } from '../../core/termination.ts';
import type { KindRun, RunRequestBase } from './base.ts';
import { nqueensRunKind, type NqueensResult } from './nqueens.ts';

/** The largest number of cells (points x seeds) one sweep may run. */
export const MAX_SWEEP_CELLS = 1_000_000;

/** One (setting, N) of the grid: the network's parameters by their framework names. */
export interface NqueensSweepPoint {
  /** Which of the caller's settings (an index it charts by). */
  setting: number;
  n: number;
  params: Record<string, ParamValue>;
}

export interface NqueensSweepRequest extends RunRequestBase {
  kind: 'nqueens-sweep';
  /** The points in the order they run; each runs seeds 1..seeds (cell index = point * seeds + seed - 1). */
  points: NqueensSweepPoint[];
  seeds: number;
}

/** How one cell ended. */
export interface NqueensSweepOutcome {
  /** The cell's place in the grid (point * seeds + seed - 1). */
  index: number;
  setting: number;
  n: number;
  seed: number;
  solved: boolean;
  steps: number;
  /** Why an unsolved cell failed (loop, oscillation, stall, wander). */
  failure?: string;
  /** Running seconds of the cell (pauses excluded). */
  seconds: number;
}

export interface NqueensSweepSnapshot extends RunProgress {
  /** Cells finished, of `cells`. */
  done: number;
  cells: number;
  /** Cells solved so far. */
  solved: number;
}

export interface NqueensSweepResult {
  kind: 'nqueens-sweep';
  /** The finished cells in grid order (all of them unless cancelled). */
  outcomes: NqueensSweepOutcome[];
  cells: number;
  /** 'solver': every cell ran; 'cancelled'. */
  stopReason: StopReason;
  seconds: number;
  message: string;
}

/** Checks the request's shape; each cell's own checks happen when its nqueens run is built. */
export function checkSweepRequest(request: NqueensSweepRequest): void {
  if (!Array.isArray(request.points) || request.points.length === 0) throw new Error('nqueens-sweep: points must be a non-empty array');
  if (!Number.isSafeInteger(request.seeds) || request.seeds < 1)
    throw new Error(`nqueens-sweep: seeds must be a positive integer, got ${JSON.stringify(request.seeds)}`);
  if (request.points.length * request.seeds > MAX_SWEEP_CELLS)
    throw new Error(`nqueens-sweep: at most ${MAX_SWEEP_CELLS} cells (points x seeds), got ${request.points.length * request.seeds}`);
  request.points.forEach((p, i) => {
    if (typeof p !== 'object' || p === null) throw new Error(`nqueens-sweep: points[${i}] must be an object {setting, n, params}`);
    if (!Number.isSafeInteger(p.setting) || p.setting < 0)
      throw new Error(`nqueens-sweep: points[${i}].setting must be a non-negative integer, got ${JSON.stringify(p.setting)}`);
  });
}

type Cell = KindRun<unknown, NqueensResult> & { index: number; point: NqueensSweepPoint; seed: number; startedAt: number };

class NqueensSweepRun implements Steppable<NqueensSweepSnapshot, NqueensSweepResult> {
  private readonly outcomes: NqueensSweepOutcome[] = [];
  private readonly cells: number;
  private current: Cell | null = null;
  private stepsBefore = 0;
  private solved = 0;

  constructor(
    private readonly request: NqueensSweepRequest,
    private readonly clock: RunClock,
  ) {
    this.cells = request.points.length * request.seeds;
  }

  get work(): number {
    return this.stepsBefore + (this.current?.run.work ?? 0);
  }

  /** The next cell's nqueens run, built as executeRun builds the nqueens request of the cell. */
  private openCell(): Cell {
    const index = this.outcomes.length;
    const point = this.request.points[Math.floor(index / this.request.seeds)];
    const seed = (index % this.request.seeds) + 1;
    const built = nqueensRunKind.create({ kind: 'nqueens', method: 'neural', n: point.n, params: point.params, seed });
    return (this.current = { ...built, index, point, seed, startedAt: this.clock.seconds() });
  }

  private finishCell(cell: Cell): void {
    const seconds = this.clock.seconds() - cell.startedAt;
    const result = cell.run.result({ seconds, stopReason: 'solver' });
    cell.check?.(result);
    const outcome: NqueensSweepOutcome = {
      index: cell.index,
      setting: cell.point.setting,
      n: cell.point.n,
      seed: cell.seed,
      solved: result.solved,
      steps: result.steps,
      seconds,
    };
    if (result.failure !== undefined) outcome.failure = result.failure;
    this.outcomes.push(outcome);
    if (result.solved) this.solved++;
    this.stepsBefore += result.steps;
    this.current = null;
  }

  step(limit: number): void {
    const cell = this.current ?? this.openCell();
    if (!cell.run.finished()) cell.run.step(limit);
    if (cell.run.finished()) this.finishCell(cell);
  }

  finished(): boolean {
    return this.outcomes.length === this.cells;
  }

  progress(): number {
    return this.outcomes.length / this.cells;
  }

  snapshot(progress: RunProgress): NqueensSweepSnapshot {
    return { ...progress, done: this.outcomes.length, cells: this.cells, solved: this.solved };
  }

  result(end: RunEnd): NqueensSweepResult {
    const done = this.outcomes.length;
    const message =
      end.stopReason === 'cancelled' ? `cancelled after ${done} of ${this.cells} runs (${this.solved} solved)` : `${this.solved} of ${this.cells} runs solved`;
    return { kind: 'nqueens-sweep', outcomes: this.outcomes.slice(), cells: this.cells, stopReason: end.stopReason, seconds: end.seconds, message };
  }
}

export const nqueensSweepRunKind = {
  name: 'nqueens-sweep',
  /** Cells finished against cells solved. */
  progressPoint: (snapshot: NqueensSweepSnapshot) => ({ evaluations: snapshot.done, value: snapshot.solved, secondary: null }),
  finalPoints: () => null,
  create(request: NqueensSweepRequest, clock: RunClock): KindRun<NqueensSweepSnapshot, NqueensSweepResult> {
    checkSweepRequest(request);
    return { run: new NqueensSweepRun(request, clock), termination: {}, requireBudget: false };
  },
} as const;
