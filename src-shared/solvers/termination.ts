/** Validation of a Termination and its progress from 0 to 1. */
import type { Termination } from './types.ts';

export class TerminationError extends Error {
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`termination ${field}: ${rule}`);
    this.name = 'TerminationError';
  }
}

/** Checks every field; at least one of maxEvaluations and maxSeconds must bound the run. */
export function validateTermination(t: Termination): Termination {
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
  if (t.maxEvaluations === undefined && t.maxSeconds === undefined) {
    throw new TerminationError('maxEvaluations', 'or maxSeconds must be given (a run needs a budget)');
  }
  return t;
}

/** Progress 0..1: the larger of the used fractions of the evaluation and time budgets. */
export function terminationProgress(t: Termination, evaluations: number, seconds: number): number {
  let p = 0;
  if (t.maxEvaluations !== undefined) p = Math.max(p, evaluations / t.maxEvaluations);
  if (t.maxSeconds !== undefined) p = Math.max(p, seconds / t.maxSeconds);
  return Math.min(1, p);
}
