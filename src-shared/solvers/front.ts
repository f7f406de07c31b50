/**
 * What a run keeps as its result: the best solution (SO, feasibility first) or the feasible
 * non-dominated archive (MO), plus the least-violating solution while nothing is feasible.
 * Solutions are copied on entry, so solvers may reuse their buffers.
 */
import { ParetoArchive } from '../metrics/archive.ts';
import { compareEvaluated } from './constraints.ts';
import type { Evaluated } from './types.ts';

function copy(e: Evaluated): Evaluated {
  return { x: e.x.slice(), F: e.F.slice(), G: e.G.slice(), violation: e.violation, feasible: e.feasible };
}

export interface Kept {
  solution: Evaluated;
  /** Evaluation count at which it was found. */
  foundAt: number;
}

/** SO: the best by feasibility-first order; ties keep the earlier one. */
export class BestKeeper {
  best: Kept | null = null;

  /** True when e is strictly better than the kept best. */
  consider(e: Evaluated, at: number): boolean {
    if (this.best && compareEvaluated(e, this.best.solution) >= 0) return false;
    this.best = { solution: copy(e), foundAt: at };
    return true;
  }
}

/**
 * MO: the feasible non-dominated solutions, kept in the one Pareto archive
 * (src-shared/metrics/archive.ts: an equal objective vector keeps the earlier point; unbounded),
 * and the least-violating infeasible point while nothing feasible has been seen.
 */
export class RunFront {
  readonly archive = new ParetoArchive<Kept>();
  leastViolating: Kept | null = null;

  get size(): number {
    return this.archive.size;
  }

  /** The kept solutions in the order they entered. */
  members(): Kept[] {
    return this.archive.members().map((m) => m.payload);
  }

  /** True when the archive changed. */
  consider(e: Evaluated, at: number): boolean {
    if (!e.feasible) {
      if (this.archive.size === 0 && (!this.leastViolating || e.violation < this.leastViolating.solution.violation)) {
        this.leastViolating = { solution: copy(e), foundAt: at };
      }
      return false;
    }
    const F = Array.from(e.F);
    if (this.archive.isCovered(F)) return false;
    this.archive.insert(F, { solution: copy(e), foundAt: at });
    this.leastViolating = null;
    return true;
  }
}
