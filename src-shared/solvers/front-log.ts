/**
 * The exact record of a multi-objective run: every insertion into its feasible non-dominated
 * archive, with the evaluation count that produced it (COCO's bi-objective archive log, for any
 * M). The archive after t evaluations is the non-dominated subset of the insertions made up to
 * t (a point the archive rejected was weakly dominated by a member, so it changes no indicator
 * of the front), so the hypervolume at any evaluation, for any reference point and any
 * normalisation that keeps each objective's order, is recomputable from the log alone; so are
 * IGD+ and epsilon against any reference set (docs/solvers.md, "Traces").
 *
 * Bounded: when the log reaches `limit` entries it is compacted. An insertion that entered and
 * left the archive between two consecutive checkpoints of a fixed ladder of evaluation counts
 * (ceil(10^(i / p)) for i = 0, 1, ...: p = 20 per decade, as COCO's evaluation triggers) is
 * dropped. While what remains is more than half the limit, the ladder is made sparser (p = 10,
 * 5, 2, then 1 per decade; each ladder is part of the one before) and the log compacted again.
 * The front rebuilt from a compacted log is exact at every evaluation up to `exactUntil`, at
 * every checkpoint of the final ladder and at the end of the run; between two checkpoints after
 * `exactUntil` it is weakly dominated by the true front and weakly dominates the front at the
 * checkpoint before, so an indicator's first hit of a target is exact or late by less than one
 * step of the ladder. What cannot be dropped is the union of the fronts at the checkpoints, so
 * a run whose front itself holds more than the limit keeps a log larger than the limit.
 */
import type { Objectives } from '../metrics/dominance.ts';

/** The stored log (plain JSON). */
export interface FrontLog {
  /** The insertions in the order they were made: [evaluation, f_1, ..., f_M]. */
  insertions: number[][];
  /** null: every insertion is listed. Otherwise the log was compacted (see the file header). */
  compacted: FrontLogCompaction | null;
}

export interface FrontLogCompaction {
  /** The front the log gives is exact at every evaluation up to this one, */
  exactUntil: number;
  /** and at every checkpoint ceil(10^(i / perDecade)) (i >= 0) and at the run's end. */
  perDecade: number;
}

/** Entries at which a run's log is first compacted (then again at twice what survives). */
export const FRONT_LOG_LIMIT = 10_000;

/** The densities of the compaction ladder (checkpoints per decade), densest first. */
export const FRONT_LOG_LADDERS = [20, 10, 5, 2, 1] as const;

/** The i-th checkpoint of a ladder with `perDecade` checkpoints per decade: ceil(10^(i / perDecade)). */
export function frontLogCheckpoint(i: number, perDecade: number): number {
  return Math.ceil(10 ** (i / perDecade));
}

/** The smallest checkpoint of the ladder at or after evaluation `at`. */
export function nextFrontLogCheckpoint(at: number, perDecade: number): number {
  let i = Math.max(0, Math.floor(perDecade * Math.log10(Math.max(1, at))) - 2);
  while (frontLogCheckpoint(i, perDecade) < at) i++;
  return frontLogCheckpoint(i, perDecade);
}

/** The checkpoints of a ladder up to `evaluations`, ascending, without repeats. */
export function frontLogCheckpoints(evaluations: number, perDecade: number): number[] {
  const out: number[] = [];
  for (let i = 0; ; i++) {
    const c = frontLogCheckpoint(i, perDecade);
    if (c > evaluations) return out;
    if (out[out.length - 1] !== c) out.push(c);
  }
}

/** A run's log as it is written: insertions, then their removals by later insertions. */
export class FrontLogWriter {
  private at: number[] = [];
  private objectives: number[][] = [];
  /** The evaluation whose insertion removed the entry from the archive; Infinity while a member. */
  private removedAt: number[] = [];
  private compaction: FrontLogCompaction | null = null;
  private ladder = 0;
  private compactAt: number;

  constructor(private readonly limit = FRONT_LOG_LIMIT) {
    this.compactAt = Math.max(2, limit);
  }

  get size(): number {
    return this.at.length;
  }

  /** Logs an insertion; returns its handle for `removed` (handles change at compaction: see maybeCompact). */
  inserted(at: number, objectives: Objectives): number {
    this.at.push(at);
    this.objectives.push(Array.from(objectives));
    this.removedAt.push(Infinity);
    return this.at.length - 1;
  }

  /** The entry `handle` left the archive at evaluation `at`. */
  removed(handle: number, at: number): void {
    this.removedAt[handle] = at;
  }

  /**
   * Compacts the log when it has reached its limit; `onMove(from, to)` is called for every entry
   * still in the archive whose handle changed (the caller keeps the handles of its members).
   */
  maybeCompact(onMove: (from: number, to: number) => void): void {
    if (this.at.length < this.compactAt) return;
    const moves = new Map<number, number>();
    for (;;) {
      this.compactOnce(FRONT_LOG_LADDERS[this.ladder], moves);
      if (this.at.length <= this.limit / 2 || this.ladder === FRONT_LOG_LADDERS.length - 1) break;
      this.ladder++;
    }
    for (const [from, to] of moves) if (from !== to) onMove(from, to);
    this.compactAt = Math.max(this.limit, 2 * this.at.length);
  }

  /** Drops the entries that were members at no checkpoint; `moves` maps original handles of members to new ones. */
  private compactOnce(perDecade: number, moves: Map<number, number>): void {
    const original = new Map<number, number>();
    for (const [from, to] of moves) original.set(to, from);
    let w = 0;
    let exactUntil = this.compaction?.exactUntil ?? Infinity;
    for (let r = 0; r < this.at.length; r++) {
      const removedAt = this.removedAt[r];
      // Kept when it is still a member, or was one at some checkpoint: at <= c < removedAt.
      if (removedAt !== Infinity && nextFrontLogCheckpoint(this.at[r], perDecade) >= removedAt) {
        exactUntil = Math.min(exactUntil, this.at[r] - 1);
        continue;
      }
      if (removedAt === Infinity) moves.set(original.get(r) ?? r, w);
      this.at[w] = this.at[r];
      this.objectives[w] = this.objectives[r];
      this.removedAt[w] = removedAt;
      w++;
    }
    this.at.length = this.objectives.length = this.removedAt.length = w;
    if (exactUntil !== Infinity) this.compaction = { exactUntil, perDecade };
    else if (this.compaction) this.compaction = { ...this.compaction, perDecade };
  }

  /** The log as stored. */
  toJSON(): FrontLog {
    return { insertions: this.at.map((at, i) => [at, ...this.objectives[i]]), compacted: this.compaction };
  }
}

/** The objective vectors of the log's front after `evaluations` evaluations (non-dominated, insertion order). */
export function frontLogFrontAt(log: FrontLog, evaluations: number): number[][] {
  const members: number[][] = [];
  for (const row of log.insertions) {
    if (row[0] > evaluations) break;
    const f = row.slice(1);
    if (members.some((m) => weaklyDominatesVector(m, f))) continue;
    let w = 0;
    for (const m of members) if (!dominatesVector(f, m)) members[w++] = m;
    members.length = w;
    members.push(f);
  }
  return members;
}

function weaklyDominatesVector(a: readonly number[], b: readonly number[]): boolean {
  for (let k = 0; k < a.length; k++) if (a[k] > b[k]) return false;
  return true;
}

function dominatesVector(a: readonly number[], b: readonly number[]): boolean {
  let strict = false;
  for (let k = 0; k < a.length; k++) {
    if (a[k] > b[k]) return false;
    if (a[k] < b[k]) strict = true;
  }
  return strict;
}
