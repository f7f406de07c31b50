/** New drafts: a small valid experiment to start from, and a stored experiment cloned as a draft (members in the documented order). */
import type { ExperimentSpec } from '../../../src-shared/experiments/spec.ts';
import { DEFAULT_N } from '../../../src-shared/problems/dice/config.ts';
import { DEFAULT_SOLVERS } from '../../../src-shared/solvers/registry.ts';
import { isRecord, type Draft } from './draft-paths.ts';
import { instanceDraft, uniqueName } from './instance-edits.ts';

/** A small, valid single-objective experiment to start from, with the default (strongest) SO solver. */
export function newDraft(takenNames: ReadonlySet<string> = new Set()): Draft {
  return {
    name: uniqueName('experiment-1', takenNames),
    instances: [instanceDraft('so', DEFAULT_N, new Set())],
    solvers: [{ name: DEFAULT_SOLVERS.so }],
    seeds: { count: 10, start: 1 },
    budget: { evaluations: 10_000 },
  };
}

const KEY_ORDER: Record<string, readonly string[]> = {
  spec: ['name', 'description', 'instances', 'solvers', 'seeds', 'budget'],
  instance: ['name', 'track', 'n', 'config', 'normalisation', 'normalization'],
  config: ['alpha', 'beta', 'gamma', 'objectives', 'constraints', 'lowerBounds', 'upperBounds'],
  normalisation: ['ideal', 'nadir', 'method'],
  solver: ['name', 'label', 'params'],
  seeds: ['count', 'start'],
  budget: ['evaluations', 'target', 'wholeBudget', 'stallEvaluations'],
};

function ordered(record: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  const keys = [...order.filter((k) => k in record), ...Object.keys(record).filter((k) => !order.includes(k))];
  return Object.fromEntries(keys.map((k) => [k, record[k]]));
}

/**
 * A spec with its members in the order docs/projects.md writes them (a stored spec comes back
 * with sorted keys, canonical JSON): name first, budget last. Values are unchanged.
 */
export function inSpecOrder(spec: unknown): Draft {
  if (!isRecord(spec)) return {};
  const out = ordered(spec, KEY_ORDER.spec);
  if (Array.isArray(out.instances))
    out.instances = out.instances.map((inst) => {
      if (!isRecord(inst)) return inst;
      const i = ordered(inst, KEY_ORDER.instance);
      if (isRecord(i.config)) i.config = ordered(i.config, KEY_ORDER.config);
      for (const k of ['normalisation', 'normalization']) if (isRecord(i[k])) i[k] = ordered(i[k] as Record<string, unknown>, KEY_ORDER.normalisation);
      return i;
    });
  if (Array.isArray(out.solvers)) out.solvers = out.solvers.map((x) => (isRecord(x) ? ordered(x, KEY_ORDER.solver) : x));
  if (isRecord(out.seeds)) out.seeds = ordered(out.seeds, KEY_ORDER.seeds);
  if (isRecord(out.budget)) out.budget = ordered(out.budget, KEY_ORDER.budget);
  return out;
}

/** The normalisation `experiment add` computed (not one the user gave): computed again for the clone's instances. */
const DEFAULT_NORMALISATION_METHOD = /^ideal 0; nadir = median objective of \d+ uniformly random sequences/;

/** A stored experiment's spec as a new draft: a name not taken yet, computed normalisations left out. */
export function cloneAsDraft(spec: ExperimentSpec, takenNames: ReadonlySet<string>): Draft {
  const copy = inSpecOrder(structuredClone(spec));
  copy.name = uniqueName(`${spec.name}-copy`.slice(0, 64), takenNames);
  copy.instances = (copy.instances as Record<string, unknown>[]).map((inst) => {
    const norm = inst.normalisation as { method?: string } | undefined;
    if (norm && typeof norm.method === 'string' && DEFAULT_NORMALISATION_METHOD.test(norm.method)) {
      const { normalisation: _, ...rest } = inst;
      return rest;
    }
    return inst;
  });
  return copy;
}
