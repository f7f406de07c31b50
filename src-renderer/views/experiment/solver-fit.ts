/** Which registered solvers fit a draft's instances, and a draft's solvers refitted after a track change. */
import type { SolverDescriptor } from '../../../src-shared/api.ts';
import type { TrackName } from '../../../src-shared/problems/dice/config.ts';
import { DEFAULT_SOLVERS } from '../../../src-shared/solvers/registry.ts';
import { getAt, isRecord, setAt, type Draft } from '../../logic/experiment/draft-paths.ts';
import { objectiveCountOf } from '../../logic/experiment/instance-edits.ts';

/** The registry's solvers that handle every instance's objective count (unknown counts ignored). */
export function solversThatFit(descriptors: readonly SolverDescriptor[], objectiveCounts: readonly (number | null)[]): SolverDescriptor[] {
  const counts = objectiveCounts.filter((m): m is number => m !== null);
  return descriptors.filter((d) => counts.every((m) => d.objectives === 'any' || (d.objectives === 'single') === (m === 1)));
}

/**
 * After an instance's track changed, a solver left that no longer fits the instances' objective
 * counts (a single-objective solver once an instance has M = 2) is replaced by the track's
 * default solver, when the entry is a bare choice (no label, no parameters: nothing of the
 * user's is lost) and the default fits every instance and is not listed yet. Others stay, shown
 * as not fitting, with the spec's error.
 */
export function refitSolvers(draft: Draft, track: unknown, descriptors: readonly SolverDescriptor[]): Draft {
  if (!Array.isArray(draft.solvers) || !Array.isArray(draft.instances) || typeof track !== 'string' || !(track in DEFAULT_SOLVERS)) return draft;
  const counts = draft.instances.map(objectiveCountOf);
  const fitting = new Set(solversThatFit(descriptors, counts).map((d) => d.name));
  const replacement = DEFAULT_SOLVERS[track as TrackName];
  if (!fitting.has(replacement)) return draft;
  let next = draft;
  draft.solvers.forEach((entry, i) => {
    const name = getAt(entry, 'name');
    const bare =
      isRecord(entry) &&
      Object.keys(entry).every(
        (k) => k === 'name' || (k === 'params' && (entry.params === undefined || (isRecord(entry.params) && Object.keys(entry.params).length === 0))),
      );
    const known = descriptors.some((d) => d.name === name);
    const taken = (next.solvers as unknown[]).some((other) => getAt(other, 'name') === replacement && getAt(other, 'label') === undefined);
    if (bare && known && !fitting.has(String(name)) && !taken) next = setAt(next, `solvers[${i}]`, { name: replacement });
  });
  return next;
}
