/**
 * What a run keeps as its result: the best solution (SO, feasibility first) or the feasible
 * non-dominated archive (MO), plus the least-violating solution while nothing is feasible.
 * Solutions are copied on entry, so solvers may reuse their buffers.
 */
import { ParetoArchive } from '../metrics/archive.ts';
import { compareEvaluated } from './constraints.ts';
import { FrontLogWriter, type FrontLog } from './front-log.ts';
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

/** A member of the run's front, with its entry in the front log. */
interface Member extends Kept {
  handle: number;
}

/**
 * MO: the feasible non-dominated solutions, kept in the one Pareto archive
 * (src-shared/metrics/archive.ts: an equal objective vector keeps the earlier point; unbounded),
 * the least-violating infeasible point while nothing feasible has been seen, and the log of
 * every insertion into the archive (front-log.ts).
 */
export class RunFront {
  readonly archive = new ParetoArchive<Member>();
  leastViolating: Kept | null = null;
  private readonly log: FrontLogWriter;
  private readonly byHandle = new Map<number, Member>();

  constructor(logLimit?: number) {
    this.log = new FrontLogWriter(logLimit);
  }

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
    const before = this.archive.members();
    const member: Member = { solution: copy(e), foundAt: at, handle: this.log.inserted(at, F) };
    this.archive.insert(F, member);
    this.byHandle.set(member.handle, member);
    if (this.archive.size !== before.length + 1) {
      const now = new Set(this.archive.members().map((m) => m.payload));
      for (const m of before)
        if (!now.has(m.payload)) {
          this.log.removed(m.payload.handle, at);
          this.byHandle.delete(m.payload.handle);
        }
    }
    this.log.maybeCompact((from, to) => {
      const moved = this.byHandle.get(from)!;
      this.byHandle.delete(from);
      moved.handle = to;
      this.byHandle.set(to, moved);
    });
    this.leastViolating = null;
    return true;
  }

  /** The log of every insertion into the archive so far. */
  frontLog(): FrontLog {
    return this.log.toJSON();
  }
}
