/**
 * How long an experiment session still needs: every run's own estimate, laid out on the jobs
 * the way the runner starts them (in order, each on the first job free).
 *
 * A run's length is the time it holds a job, paused time excluded (from its start to its
 * outcome, the worker's start and the storing included). Runs of one cell (an instance and a
 * solver label) are alike, so a waiting run is estimated from its cell: the mean of its done
 * runs and of the lengths its runs in flight are heading for (time so far over progress). A
 * cell that has not begun is scaled from the others by its cost (evaluations × N), the same
 * solver's cells first. So slow runs queued behind fast ones are counted as slow as soon as one
 * of them has moved, and by their size before that; a session's mean rate is never used.
 */

/** A run's cell and its size, the part of a grid run the estimate reads. */
export interface SizedRun {
  /** Runs of the same cell are expected to take about as long. */
  cell: string;
  /** The solver label: cells of one solver scale with each other best. */
  solver: string;
  /** Evaluations × N: what a cell with no run of its own is scaled by. */
  cost: number;
}

export interface TimeLeftState {
  /** Runs at once (the session's jobs). */
  jobs: number;
  /** Done runs and how long each held its job (ms, paused time excluded). */
  done: readonly (SizedRun & { ms: number })[];
  /**
   * Runs in flight: ms held so far (paused time excluded); their progress 0..1 as last
   * reported, the ms held when it was (`reportedMs`, now if left out), and of those the
   * solver's own running time when known (the rest is the worker's start, which does not scale
   * with progress).
   */
  inFlight: readonly (SizedRun & { ms: number; fraction: number; reportedMs?: number; solverMs?: number | null })[];
  /** Runs not started yet, in the order they will start. */
  waiting: readonly SizedRun[];
}

/** A run in flight tells its length once it has moved this far (earlier, the worker's start dominates). */
const MIN_FRACTION = 0.01;

/** The length (ms) a run in flight is heading for, or null when it has not moved enough to tell. */
function projectedLength(run: TimeLeftState['inFlight'][number]): number | null {
  if (!(run.fraction >= MIN_FRACTION)) return null;
  const fraction = Math.min(1, run.fraction);
  // The progress and the time it took, as of the same moment (the time since goes on running).
  const held = run.reportedMs ?? run.ms;
  const solver = run.solverMs ?? null;
  if (solver === null || solver <= 0 || solver > held) return held / fraction;
  // The start (worker, normalisation) once, the solver's time scaled to the whole run.
  return held - solver + solver / fraction;
}

/**
 * Milliseconds until every run of the session has ended, or null while no run has told its
 * length (none done, none moved).
 */
export function estimateLeftMs(state: TimeLeftState): number | null {
  const samples: { cell: string; solver: string; cost: number; ms: number }[] = [];
  for (const r of state.done) if (r.ms > 0) samples.push(r);
  for (const r of state.inFlight) {
    const length = projectedLength(r);
    if (length !== null && length > 0) samples.push({ cell: r.cell, solver: r.solver, cost: r.cost, ms: length });
  }
  if (samples.length === 0) return state.inFlight.length + state.waiting.length === 0 ? 0 : null;

  const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
  const byCell = new Map<string, number[]>();
  for (const s of samples) byCell.set(s.cell, [...(byCell.get(s.cell) ?? []), s.ms]);
  const perCost = (keep: (s: (typeof samples)[number]) => boolean) => {
    const rates = samples.filter((s) => keep(s) && s.cost > 0).map((s) => s.ms / s.cost);
    return rates.length ? mean(rates) : null;
  };
  const lengthCache = new Map<string, number>();
  const lengthOf = (run: SizedRun): number => {
    const cached = lengthCache.get(run.cell);
    if (cached !== undefined) return cached;
    const own = byCell.get(run.cell);
    let length: number;
    if (own) length = mean(own);
    else {
      const rate = perCost((s) => s.solver === run.solver) ?? perCost(() => true);
      length = rate !== null && run.cost > 0 ? rate * run.cost : mean(samples.map((s) => s.ms));
    }
    lengthCache.set(run.cell, length);
    return length;
  };

  // Each job is free when its run in flight ends; the waiting runs go, in order, to the first free one.
  const jobs = Math.max(1, state.jobs, state.inFlight.length);
  const free: number[] = state.inFlight.map((r) => {
    const length = projectedLength(r) ?? lengthOf(r);
    return Math.max(0, length - r.ms);
  });
  while (free.length < jobs) free.push(0);
  for (const run of state.waiting) {
    let first = 0;
    for (let j = 1; j < free.length; j++) if (free[j] < free[first]) first = j;
    free[first] += lengthOf(run);
  }
  return Math.max(0, ...free);
}
