/**
 * When a run stops: its budget (work units and seconds of running time), a target, a stall
 * rule; validation with errors that name the field, and progress from 0 to 1.
 *
 * "Work" is what a kind of run counts: evaluations for the dice problem (every candidate whose
 * objectives are computed, fully or incrementally), steps for N-Queens. The field keeps the
 * name `maxEvaluations` because stored results and `--out` files carry it.
 */

export interface Termination {
  /** Stop after this many units of work (an exact budget). */
  maxEvaluations?: number;
  /** Stop after this many seconds of running time (paused time excluded; checked between steps). */
  maxSeconds?: number;
  /** Single objective only: stop once a feasible solution with f <= target is found. */
  target?: number;
  /** Stop when nothing has improved for this many units of work. */
  stallEvaluations?: number;
}

export type StopReason = 'evaluations' | 'time' | 'target' | 'stall' | 'solver' | 'cancelled';

export class TerminationError extends Error {
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`termination ${field}: ${rule}`);
    this.name = 'TerminationError';
  }
}

/**
 * Checks every field. With `requireBudget` (the default) at least one of maxEvaluations and
 * maxSeconds must bound the run; a kind whose runs end by themselves (N-Queens has a step
 * limit of its own) passes false.
 */
export function validateTermination(t: Termination, requireBudget = true): Termination {
  const positiveInt = (field: keyof Termination) => {
    const v = t[field];
    if (v === undefined) return;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) throw new TerminationError(field, `must be a positive integer, got ${JSON.stringify(v)}`);
  };
  positiveInt('maxEvaluations');
  positiveInt('stallEvaluations');
  if (t.maxSeconds !== undefined && !(typeof t.maxSeconds === 'number' && Number.isFinite(t.maxSeconds) && t.maxSeconds > 0)) {
    throw new TerminationError('maxSeconds', `must be a positive number, got ${JSON.stringify(t.maxSeconds)}`);
  }
  if (t.target !== undefined && !(typeof t.target === 'number' && Number.isFinite(t.target))) {
    throw new TerminationError('target', `must be a finite number, got ${JSON.stringify(t.target)}`);
  }
  if (requireBudget && t.maxEvaluations === undefined && t.maxSeconds === undefined) {
    throw new TerminationError('maxEvaluations', 'or maxSeconds must be given (a run needs a budget)');
  }
  return t;
}

/** Progress 0..1: the larger of the used fractions of the work and time budgets. */
export function terminationProgress(t: Termination, work: number, seconds: number): number {
  let p = 0;
  if (t.maxEvaluations !== undefined) p = Math.max(p, work / t.maxEvaluations);
  if (t.maxSeconds !== undefined) p = Math.max(p, seconds / t.maxSeconds);
  return Math.min(1, p);
}
