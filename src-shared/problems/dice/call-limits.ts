/**
 * Bounds on one interactive evaluation call (the API's evaluateDice, from the app or the web
 * server). The evaluator itself takes N up to MAX_N (10^7), but one call with 16 million rolls
 * held the main process for 400 ms, stalling every other request; long or many sequences belong
 * in `saikoro eval`, which streams.
 */

/** The most rolls one evaluateDice call evaluates (a few tens of milliseconds). */
export const MAX_EVALUATE_DICE_LENGTH = 1_000_000;

/** A call argument that breaks a limit; the message names the field. */
export class CallLimitError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'CallLimitError';
  }
}

/**
 * Checks an evaluateDice request before anything is built from it: `x` a string of at most
 * MAX_EVALUATE_DICE_LENGTH rolls. Throws TypeError or CallLimitError naming the field.
 */
export function checkEvaluateDiceRequest(request: unknown): void {
  const x = (request as { x?: unknown } | null)?.x;
  if (typeof x !== 'string') throw new TypeError('evaluateDice: request.x must be a string of faces 1-6');
  if (x.length > MAX_EVALUATE_DICE_LENGTH)
    throw new CallLimitError(
      `evaluateDice: request.x has ${x.length} rolls; one call evaluates at most ${MAX_EVALUATE_DICE_LENGTH} (use saikoro eval for longer sequences)`,
    );
}
