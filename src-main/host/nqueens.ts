/**
 * An N-Queens run request executed by the driver of src-shared/problems/nqueens/solvers.ts:
 * what a worker does with `{kind: 'nqueens'}`, and what an in-process run (`saikoro nqueens
 * --inline`, tests) calls to get exactly the same result. Imports only src-shared, so the
 * worker stays free of host code.
 */
import { runNqueensSolver, type NqueensRunOptions, type NqueensSnapshot } from '../../src-shared/problems/nqueens/solvers.ts';
import { verifySolution } from '../../src-shared/problems/nqueens/verify.ts';
import type { RunControl, Termination } from '../../src-shared/solvers/types.ts';
import { NQUEENS_METHODS, type NqueensResult, type NqueensRunRequest } from './run.ts';

/** Checks the request's shape; the method's own checks (N, parameters) happen when it starts. */
function checkRequest(request: NqueensRunRequest): void {
  if (!NQUEENS_METHODS.includes(request.method)) throw new Error(`nqueens: unknown method ${JSON.stringify(request.method)} (known: ${NQUEENS_METHODS.join(', ')})`);
  if (!Number.isSafeInteger(request.n) || request.n < 1) throw new Error(`nqueens: n must be a positive integer, got ${JSON.stringify(request.n)}`);
  if (!Number.isSafeInteger(request.seed)) throw new Error(`nqueens: seed must be an integer, got ${JSON.stringify(request.seed)}`);
  if (typeof request.params !== 'object' || request.params === null || Array.isArray(request.params)) throw new Error('nqueens: params must be an object');
  const { steps, seconds } = request.limits ?? {};
  if (steps !== undefined && !(Number.isSafeInteger(steps) && steps >= 1)) throw new Error(`nqueens: limits.steps must be a positive integer, got ${JSON.stringify(steps)}`);
  if (seconds !== undefined && !(typeof seconds === 'number' && seconds > 0)) throw new Error(`nqueens: limits.seconds must be a positive number, got ${JSON.stringify(seconds)}`);
}

/**
 * Runs the request to a verified solution, the method's step limit, the request's limits or a
 * cancel. Throws (the run fails with the message) for a bad request or parameter, and for a
 * "solution" that verifySolution rejects.
 */
export async function runNqueensRequest(
  request: NqueensRunRequest,
  onSnapshot?: (snapshot: NqueensSnapshot) => void,
  control?: RunControl,
  options: NqueensRunOptions = {},
): Promise<NqueensResult> {
  checkRequest(request);
  const { method, n, seed } = request;
  const termination: Termination = {};
  if (request.limits?.steps !== undefined) termination.maxEvaluations = request.limits.steps;
  if (request.limits?.seconds !== undefined) termination.maxSeconds = request.limits.seconds;
  const r = await runNqueensSolver(`nqueens-${method}`, n, request.params, seed, termination, onSnapshot, control, {
    snapshotInterval: request.snapshotIntervalMs ?? 200,
    ...options,
  });
  const queens = r.solved ? r.queens : null;
  if (r.solved && (queens === null || queens.length !== n || !verifySolution(queens)))
    throw new Error(`nqueens: ${method} reported a solution for N = ${n} that does not verify`);
  return {
    n,
    method,
    solved: r.solved,
    steps: r.steps,
    seconds: r.seconds,
    queens,
    kind: 'nqueens',
    seed,
    params: r.params,
    stopReason: r.stopReason,
    ...(r.failure !== undefined ? { failure: r.failure } : {}),
    message: r.message,
  };
}
