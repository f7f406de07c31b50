/**
 * N-Queens runs for the app's API: a request checked as `saikoro nqueens` checks its options
 * (NqueensRequestError names the field), what the worker runs, the report of a finished
 * run (the first maxQueens queens, the solution verified again on this side), and the record a
 * project stores of it (a lab run).
 */
import type { NqueensRunReport, StartNqueensRun } from '../../src-shared/api.ts';
import { checkNqueensRequest, NqueensRequestError } from '../../src-shared/problems/nqueens/request.ts';
import { NQUEENS_RUN_PURPOSES, type NqueensRunPurpose } from '../../src-shared/runtime/run-api.ts';
import { verifySolution } from '../../src-shared/problems/nqueens/verify.ts';
import type { NqueensResult, NqueensRunRequest } from '../../src-shared/runtime/kinds/index.ts';
import type { RunOutcome } from '../host/pool.ts';
import { appVersion } from '../project/app-version.ts';
import { hostName, labRunId, type LabRunRecord, labRunRequest } from '../project/project-records.ts';
import type { RunPlan } from './launcher.ts';

export type NqueensRunPlan = RunPlan<'nqueens'>;

const METHOD_TITLES = { neural: 'the network', minconflicts: 'min-conflicts' } as const;

export function planNqueensRun(start: StartNqueensRun): NqueensRunPlan {
  const { method, n, seed, params, maxQueens, stepLimit } = checkNqueensRequest(start);
  const purpose = checkPurpose(start.purpose);
  const title = `N-Queens, N = ${n.toLocaleString('en-US')}, ${METHOD_TITLES[method]}, seed ${seed}${purpose === 'baseline' ? " (the lab's baseline)" : ''}`;
  return {
    kind: 'nqueens',
    request: { kind: 'nqueens', method, n, params, seed },
    started: { kind: 'nqueens', title, method, n, seed, params, stepLimit, maxQueens, purpose },
    report: (result) => nqueensReport(result, maxQueens),
  };
}

function checkPurpose(purpose: unknown): NqueensRunPurpose {
  if (purpose === undefined) return 'run';
  if (!NQUEENS_RUN_PURPOSES.includes(purpose as NqueensRunPurpose))
    throw new NqueensRequestError(
      'purpose',
      `expected ${NQUEENS_RUN_PURPOSES.map((p) => JSON.stringify(p)).join(' or ')}, got ${JSON.stringify(purpose) ?? String(purpose)}`,
    );
  return purpose as NqueensRunPurpose;
}

/**
 * A finished N-Queens result as the API reports it: the first `maxQueens` queens (a board of
 * 10^7 would be 80 MB of JSON), and the solution checked again here with verifySolution.
 */
export function nqueensReport(r: NqueensResult, maxQueens: number): NqueensRunReport {
  const verified = r.solved && r.queens !== null && r.queens.length === r.n && verifySolution(r.queens);
  return {
    n: r.n,
    method: r.method,
    seed: r.seed,
    params: r.params,
    solved: r.solved,
    steps: r.steps,
    seconds: r.seconds,
    stopReason: r.stopReason,
    failure: r.failure ?? null,
    initialConflicts: r.initialConflicts ?? null,
    message: r.message,
    verified,
    queens: r.solved && r.queens ? r.queens.slice(0, maxQueens) : null,
  };
}

/**
 * A finished N-Queens run as a project stores it (the app's saveRun and `saikoro nqueens
 * --project` alike): keyed by its request, a failed run with its reason and no result.
 * A cancelled run is not a result and has no record.
 */
export function nqueensLabRun(
  request: NqueensRunRequest,
  outcome: RunOutcome<NqueensResult> & { status: 'done' | 'failed' },
  startedAt: string,
  elapsedMs: number,
): LabRunRecord {
  const labRequest = labRunRequest(request);
  return {
    id: labRunId(labRequest),
    kind: 'nqueens',
    request: labRequest,
    status: outcome.status,
    error: outcome.status === 'failed' ? (outcome.reason ?? 'failed') : null,
    result: outcome.status === 'done' ? outcome.result : null,
    appVersion: appVersion(),
    host: hostName(),
    startedAt,
    finishedAt: new Date().toISOString(),
    elapsedMs,
  };
}
