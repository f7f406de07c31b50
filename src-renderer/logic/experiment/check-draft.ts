/**
 * checkDraft runs the main side's own checks (validateSpec, expandGrid) on a draft and on each
 * part of it, so that several fields can be marked at once; and the warning when the seeds are
 * too few for the comparison to show a difference.
 */
import { expandGrid } from '../../../src-shared/experiments/grid.ts';
import { SpecError, validateSpec, type ExperimentSpec } from '../../../src-shared/experiments/spec.ts';
import type { TrackName } from '../../../src-shared/problems/dice/config.ts';
import { cannotDiffer, runsNeeded, smallestHolmP } from '../../../src-shared/stats/attainable.ts';
import { getAt, isRecord, pathSegments, type Draft } from './draft-paths.ts';
import { trackOfInstance } from './instance-edits.ts';

export interface DraftCheck {
  /** Field path -> what is wrong, in the order of the form. */
  errors: Map<string, string>;
  /** instances × solvers × seeds, when the shape says (even if some field is wrong). */
  runs: number | null;
  instanceCount: number | null;
  solverCount: number | null;
  seedCount: number | null;
  /** The validated spec when there is no error. */
  spec: ExperimentSpec | null;
}

/** The smallest valid spec: the parts of a draft are checked one at a time inside it. */
const VALID_INSTANCE = { name: 'i', track: 'so' };
const VALID_SOLVER = { name: 'random' };
const VALID: Draft = { name: 'x', instances: [VALID_INSTANCE], solvers: [VALID_SOLVER], seeds: [1], budget: { evaluations: 1 } };

function specErrorOf(fn: () => void): SpecError | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (e instanceof SpecError) return e;
    // Anything else is a bug in a check, not the user's input; say so where it shows.
    return new SpecError('spec', (e as Error).message);
  }
}

/** A spec with one seed: checks every instance × solver against the registry without expanding every seed. */
function withOneSeed(spec: ExperimentSpec): ExperimentSpec {
  const first = Array.isArray(spec.seeds) ? spec.seeds[0] : (spec.seeds.start ?? 1);
  return { ...spec, seeds: [first] };
}

/** A duplicate name is the name field's problem, not the whole entry's. */
function refine(field: string, rule: string, draft: Draft): string {
  const dup = /^(instances|solvers)\[(\d+)\]$/.exec(field);
  if (dup && /is used twice/.test(rule)) {
    if (dup[1] === 'instances') return `${field}.name`;
    return getAt(draft, `${field}.label`) !== undefined ? `${field}.label` : `${field}.name`;
  }
  return field;
}

/**
 * A warning when the seeds cannot show a difference between the solvers: with that many runs
 * each, the rank-sum test the report and the Compare view mark +/−/= by (Holm over the k − 1
 * comparisons with the baseline, src-shared/experiments/baseline-marks.ts) cannot reach
 * p < alpha whatever the runs find (src-shared/stats/attainable.ts).
 */
export function seedsWarning(solverCount: number | null, seedCount: number | null, alpha: number): string | null {
  if (solverCount === null || seedCount === null || solverCount < 2 || seedCount < 1) return null;
  const comparisons = solverCount - 1;
  if (!cannotDiffer(seedCount, seedCount, comparisons, alpha)) return null;
  const p = smallestHolmP(seedCount, seedCount, comparisons);
  const needed = runsNeeded(alpha, comparisons);
  const after = comparisons > 1 ? ` after Holm over the ${comparisons} comparisons of ${solverCount} solvers with the baseline` : '';
  return `With ${seedCount} seed${seedCount === 1 ? '' : 's'}, the rank-sum test cannot show a difference between solvers at p < ${alpha}: its smallest p is ${Number(p.toPrecision(3))}${after}, so every +/−/= mark of the comparison will be "=". Use at least ${needed} seeds.`;
}

export function seedCountOf(seeds: unknown): number | null {
  if (Array.isArray(seeds)) return seeds.length;
  if (isRecord(seeds) && typeof seeds.count === 'number' && Number.isInteger(seeds.count) && seeds.count >= 0) return seeds.count;
  return null;
}

/**
 * Every problem of a draft that `experiment add` would find, by field, as far as the renderer
 * can tell: validateSpec on the whole and on each part (so a bad instance does not hide a bad
 * seed), then the grid's registry checks (solver names, objective counts, parameters) for each
 * solver. Only the solvers' setups (NSGA-III's reference directions) are left to the main side.
 */
export function checkDraft(draft: Draft): DraftCheck {
  const errors = new Map<string, string>();
  const add = (e: SpecError | null, map: (field: string) => string = (f) => f) => {
    if (!e) return;
    const field = refine(map(e.field), e.rule, draft);
    if (!errors.has(field)) errors.set(field, e.rule);
  };
  const instances = Array.isArray(draft.instances) ? draft.instances : null;
  const solvers = Array.isArray(draft.solvers) ? draft.solvers : null;

  // The top-level fields, each inside an otherwise valid spec.
  for (const key of Object.keys(draft)) {
    if (key === 'instances' || key === 'solvers') continue;
    add(specErrorOf(() => validateSpec({ ...VALID, [key]: draft[key] })));
  }
  for (const key of ['name', 'seeds', 'budget']) if (!(key in draft)) add(specErrorOf(() => validateSpec({ ...VALID, [key]: undefined })));
  if (!instances?.length) add(specErrorOf(() => validateSpec({ ...VALID, instances: draft.instances })));
  if (!solvers?.length) add(specErrorOf(() => validateSpec({ ...VALID, solvers: draft.solvers })));

  // Each instance alone.
  const goodInstances: unknown[] = [];
  if (instances)
    instances.forEach((inst, i) => {
      const e = specErrorOf(() => validateSpec({ ...VALID, instances: [inst] }));
      add(e, (f) => f.replace(/^instances\[0\]/, `instances[${i}]`));
      if (!e) goodInstances.push(inst);
    });
  // While no instance is valid, the solvers are checked against the tracks the instances name
  // (at the default N), so a bad parameter shows at once and not only after N is fixed.
  const standIns = goodInstances.length
    ? goodInstances
    : (instances ?? [])
        .map(trackOfInstance)
        .filter((t): t is TrackName => t !== null)
        .map((track, k) => ({ name: `${track}-${k}`, track }));
  // Each solver alone, then against every valid instance (names, objective counts, parameters).
  if (solvers)
    solvers.forEach((solver, s) => {
      const map = (f: string) => f.replace(/^solvers\[0\]/, `solvers[${s}]`);
      const e = specErrorOf(() => validateSpec({ ...VALID, solvers: [solver] }));
      add(e, map);
      if (e || standIns.length === 0) return;
      // Instance names stay (the grid's messages name them); a repeated one gets a suffix here.
      const seen = new Set<string>();
      const named = (standIns as { name: string }[]).map((inst, k) => {
        const name = seen.has(inst.name) ? `${inst.name.slice(0, 58)}-${k}` : inst.name;
        seen.add(name);
        return { ...inst, name };
      });
      add(
        specErrorOf(() => expandGrid(withOneSeed(validateSpec({ ...VALID, instances: named, solvers: [solver] })))),
        map,
      );
    });

  // The whole: lists, duplicates, the grid's size, and anything the parts did not show.
  let spec: ExperimentSpec | null = null;
  const whole = specErrorOf(() => {
    const valid = validateSpec(draft);
    expandGrid(withOneSeed(valid));
    spec = valid;
  });
  add(whole);
  if (errors.size) spec = null;
  const ordered = new Map([...errors].sort(([a], [b]) => formRank(a) - formRank(b)));

  const instanceCount = instances?.length ?? null;
  const solverCount = solvers?.length ?? null;
  const seedCount = seedCountOf(draft.seeds);
  const runs = instanceCount !== null && solverCount !== null && seedCount !== null ? instanceCount * solverCount * seedCount : null;
  return { errors: ordered, runs, instanceCount, solverCount, seedCount, spec };
}

const FORM_ORDER = ['name', 'description', 'instances', 'solvers', 'seeds', 'budget'];
/** Where a field comes in the form (errors are listed in that order; a stable sort keeps the rest). */
function formRank(field: string): number {
  const k = FORM_ORDER.indexOf(String(pathSegments(field)[0]));
  return k < 0 ? FORM_ORDER.length : k;
}
