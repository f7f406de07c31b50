/**
 * What a run keeps as its result: the best solution (SO, feasibility first) or the feasible
 * non-dominated archive (MO), plus the least-violating solution while nothing is feasible.
 * Solutions are copied on entry, so solvers may reuse their buffers.
 */
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

function weaklyDominates(a: Float64Array, b: Float64Array): boolean {
  for (let k = 0; k < a.length; k++) if (a[k] > b[k]) return false;
  return true;
}

/**
 * MO: feasible points that no other kept point weakly dominates (an equal objective vector
 * keeps the earlier point). Unbounded; the least-violating infeasible point is kept too.
 */
export class FrontKeeper {
  members: Kept[] = [];
  leastViolating: Kept | null = null;

  /** True when the archive changed. */
  consider(e: Evaluated, at: number): boolean {
    if (!e.feasible) {
      if (this.members.length === 0 && (!this.leastViolating || e.violation < this.leastViolating.solution.violation)) {
        this.leastViolating = { solution: copy(e), foundAt: at };
      }
      return false;
    }
    for (const m of this.members) if (weaklyDominates(m.solution.F, e.F)) return false;
    this.members = this.members.filter((m) => !weaklyDominates(e.F, m.solution.F));
    this.members.push({ solution: copy(e), foundAt: at });
    this.leastViolating = null;
    return true;
  }
}
