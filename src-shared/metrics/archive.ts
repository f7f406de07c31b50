// Incremental non-dominated archive (minimisation) with an optional capacity.
//
// insert(objectives, payload):
//   * rejected if some member weakly dominates the point (dominates it, or has the same
//     objective vector: duplicates in objective space keep the member already stored);
//   * otherwise every member the point dominates is removed and the point is added;
//   * if a capacity is set and the archive is now over it, the member with the smallest
//     NSGA-II crowding distance (computed over the whole archive) is dropped; ties are broken
//     against the newest member, so when the new point itself is the most crowded it is not
//     kept and insert returns false, leaving the archive as it was.
// Over capacity can only happen when the new point removed nothing, so a rejected point never
// changes the archive.

import { crowdingDistance, dominates, weaklyDominates, type Objectives } from './dominance.ts';

export interface ArchiveEntry<T> {
  readonly objectives: readonly number[];
  readonly payload: T;
}

export interface ArchiveOptions {
  /** Maximum number of members (>= 1). Omit for an unbounded archive. */
  capacity?: number;
}

export class ParetoArchive<T = undefined> {
  private entries: ArchiveEntry<T>[] = [];
  readonly capacity: number | undefined;

  constructor(options: ArchiveOptions = {}) {
    if (options.capacity !== undefined && !(Number.isInteger(options.capacity) && options.capacity >= 1)) {
      throw new Error(`archive capacity must be a positive integer, got ${options.capacity}`);
    }
    this.capacity = options.capacity;
  }

  get size(): number {
    return this.entries.length;
  }

  /** The members in insertion order (oldest first). */
  members(): readonly ArchiveEntry<T>[] {
    return this.entries;
  }

  /** The members' objective vectors in insertion order. */
  points(): number[][] {
    return this.entries.map((e) => [...e.objectives]);
  }

  clear(): void {
    this.entries = [];
  }

  /** True if the point would be rejected as dominated by, or equal to, a member. */
  isCovered(objectives: Objectives): boolean {
    for (const e of this.entries) if (weaklyDominates(e.objectives, objectives)) return true;
    return false;
  }

  /** Try to add a point; returns true if it is a member afterwards. */
  insert(objectives: Objectives, payload: T): boolean {
    if (this.entries.length > 0 && this.entries[0].objectives.length !== objectives.length) {
      throw new Error(`objective count ${objectives.length} differs from the archive's ${this.entries[0].objectives.length}`);
    }
    if (this.isCovered(objectives)) return false;
    const kept = this.entries.filter((e) => !dominates(objectives, e.objectives));
    kept.push({ objectives: [...objectives], payload });
    if (this.capacity !== undefined && kept.length > this.capacity) {
      const cd = crowdingDistance(kept.map((e) => e.objectives));
      let worst = kept.length - 1;
      for (let i = kept.length - 2; i >= 0; i--) if (cd[i] < cd[worst]) worst = i;
      if (worst === kept.length - 1) return false; // the newcomer is the most crowded: archive unchanged
      kept.splice(worst, 1);
    }
    this.entries = kept;
    return true;
  }
}
