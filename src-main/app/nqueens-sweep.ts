/**
 * The N-Queens lab's sweep for the app's API: a start request checked point by point as
 * `saikoro nqueens` checks its options (each point's N and parameters through
 * checkNqueensRequest; errors name the field, e.g. "points[2].params.A"), and what the worker
 * runs (src-shared/runtime/kinds/nqueens-sweep.ts). The report is the worker's result.
 */
import type { StartNqueensSweep } from '../../src-shared/api.ts';
import { checkNqueensRequest, NqueensRequestError } from '../../src-shared/problems/nqueens/request.ts';
import { MAX_SWEEP_CELLS, type NqueensSweepPoint } from '../../src-shared/runtime/kinds/nqueens-sweep.ts';
import type { RunPlan } from './launcher.ts';

/** Seeds per point a sweep may ask for. */
export const MAX_SWEEP_SEEDS = 10_000;

export function planNqueensSweep(start: StartNqueensSweep): RunPlan<'nqueens-sweep'> {
  const { points: given, seeds } = start;
  if (!Number.isSafeInteger(seeds) || seeds < 1 || seeds > MAX_SWEEP_SEEDS)
    throw new NqueensRequestError('seeds', `must be an integer from 1 to ${MAX_SWEEP_SEEDS}, got ${JSON.stringify(seeds)}`);
  if (!Array.isArray(given) || given.length === 0) throw new NqueensRequestError('points', 'must be a non-empty array of {setting, n, params}');
  if (given.length * seeds > MAX_SWEEP_CELLS)
    throw new NqueensRequestError('points', `${given.length} points x ${seeds} seeds is more than ${MAX_SWEEP_CELLS.toLocaleString('en-US')} runs`);
  const points = given.map((p, i): NqueensSweepPoint => {
    if (typeof p !== 'object' || p === null || Array.isArray(p)) throw new NqueensRequestError(`points[${i}]`, 'must be an object {setting, n, params}');
    if (!Number.isSafeInteger(p.setting) || p.setting < 0)
      throw new NqueensRequestError(`points[${i}].setting`, `must be a non-negative integer, got ${JSON.stringify(p.setting)}`);
    try {
      const { n, params } = checkNqueensRequest({ method: 'neural', n: p.n, params: p.params, seed: 1, maxQueens: 0 });
      return { setting: p.setting, n, params };
    } catch (e) {
      if (e instanceof NqueensRequestError) throw new NqueensRequestError(`points[${i}].${e.field}`, e.rule);
      throw e;
    }
  });
  const cells = points.length * seeds;
  const ns = [...new Set(points.map((p) => p.n))];
  const settings = new Set(points.map((p) => p.setting)).size;
  const title = `N-Queens sweep, N = ${ns.length > 3 ? `${ns[0]}…${ns[ns.length - 1]}` : ns.join(', ')}, ${settings} ${settings === 1 ? 'setting' : 'settings'} x ${seeds} ${seeds === 1 ? 'seed' : 'seeds'} (${cells.toLocaleString('en-US')} runs of the network)`;
  return {
    kind: 'nqueens-sweep',
    request: { kind: 'nqueens-sweep', points, seeds },
    started: { kind: 'nqueens-sweep', title, points, seeds, cells },
    report: (result) => result,
  };
}
