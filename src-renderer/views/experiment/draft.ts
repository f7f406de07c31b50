/**
 * The experiment editor's model: a draft is the spec exactly as it would be sent (plain JSON,
 * invalid values included), so the form and the JSON text are two views of one value. The
 * form reads and writes fields by their path ("instances[0].config.alpha[3]", the paths
 * SpecError names); checkDraft runs the main side's own checks (validateSpec, expandGrid) on
 * the draft and on each part of it, so several fields can be marked at once.
 */
import { expandGrid } from '../../../src-shared/experiments/grid.ts';
import { MAX_EXPERIMENT_RUNS, SpecError, validateSpec, type ExperimentSpec } from '../../../src-shared/experiments/spec.ts';
import {
  DEFAULT_ALPHA,
  DEFAULT_BETA,
  DEFAULT_GAMMA,
  DEFAULT_LOWER,
  DEFAULT_N,
  DEFAULT_UPPER,
  MAX_BLOCK_LENGTH,
  TRACK_NAMES,
  TRACK_OBJECTIVES,
  type TrackName,
} from '../../../src-shared/problems/dice/config.ts';
import type { SolverDescriptor } from '../../../src-shared/api.ts';
import { DEFAULT_SOLVERS } from '../../../src-shared/solvers/registry.ts';
import { cannotDiffer, runsNeeded, smallestHolmP } from '../../../src-shared/stats/attainable.ts';

export type Draft = Record<string, unknown>;
type Segment = string | number;

// ---- paths --------------------------------------------------------------------------------

/** "instances[0].config.alpha[3]" -> ["instances", 0, "config", "alpha", 3]. */
export function pathSegments(field: string): Segment[] {
  const out: Segment[] = [];
  for (const m of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

export function joinPath(segments: readonly Segment[]): string {
  return segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function getAt(root: unknown, field: string): unknown {
  let v: unknown = root;
  for (const s of pathSegments(field)) {
    if (typeof s === 'number' ? !Array.isArray(v) : !isRecord(v)) return undefined;
    v = (v as Record<Segment, unknown>)[s];
  }
  return v;
}

/**
 * A copy of `root` with the value at `field` replaced (structural sharing: only the objects on
 * the way are copied); `undefined` removes an object member. Missing objects and lists on the
 * way are created.
 */
export function setAt<T>(root: T, field: string, value: unknown): T {
  const segments = pathSegments(field);
  const put = (node: unknown, i: number): unknown => {
    const s = segments[i];
    const last = i === segments.length - 1;
    if (typeof s === 'number') {
      const list = Array.isArray(node) ? [...node] : [];
      list[s] = last ? value : put(list[s], i + 1);
      return list;
    }
    const record: Record<string, unknown> = isRecord(node) ? { ...node } : {};
    const next = last ? value : put(record[s], i + 1);
    if (next === undefined) delete record[s];
    else record[s] = next;
    return record;
  };
  return (segments.length ? put(root, 0) : value) as T;
}

/** Removes empty objects left on the way to `field` (a `config` whose last member went). */
function pruneEmpty(root: Draft, field: string): Draft {
  const segments = pathSegments(field);
  for (let k = segments.length - 1; k > 0; k--) {
    const parent = joinPath(segments.slice(0, k));
    const v = getAt(root, parent);
    if (isRecord(v) && Object.keys(v).length === 0 && typeof segments[k - 1] === 'string') root = setAt(root, parent, undefined);
    else break;
  }
  return root;
}

// ---- text <-> values -------------------------------------------------------------------------

/**
 * What a number field holds: a number when the text is one, the text itself otherwise (so the
 * spec shows it and validation names the field), undefined when empty (the field is left out).
 */
export function parseNumberText(text: string): number | string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const v = Number(t);
  return Number.isFinite(v) && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t) ? v : t;
}

/** A list of numbers typed as "1, 2, 3" (commas or spaces). */
export function parseNumberListText(text: string): (number | string)[] | undefined {
  const parts = text.split(/[\s,;]+/).filter((p) => p !== '');
  return parts.length ? parts.map((p) => parseNumberText(p)!) : undefined;
}

export function formatValue(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.map(formatValue).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

// ---- the effective instance config (what the track gives when the draft does not say) ----------

export const ALL_BLOCK_LENGTHS = Array.from({ length: MAX_BLOCK_LENGTH }, (_, i) => i + 1);
const BAND_DEFAULTS = { alpha: DEFAULT_ALPHA, beta: DEFAULT_BETA, gamma: DEFAULT_GAMMA } as const;
export type BandKey = keyof typeof BAND_DEFAULTS;
export const BAND_KEYS = Object.keys(BAND_DEFAULTS) as BandKey[];

export function trackOfInstance(instance: unknown): TrackName | null {
  const t = isRecord(instance) ? (instance.track ?? 'so') : null;
  return TRACK_NAMES.includes(t as TrackName) ? (t as TrackName) : null;
}

/** The instance's objective count: its objective groups, or its track's; null when neither is readable. */
export function objectiveCountOf(instance: unknown): number | null {
  const groups = getAt(instance, 'config.objectives');
  if (Array.isArray(groups)) return groups.length;
  const track = trackOfInstance(instance);
  return track ? TRACK_OBJECTIVES[track].length : null;
}

/** A band list as the draft has it, or the default. */
export function bandValues(instance: unknown, key: BandKey): unknown[] {
  const given = getAt(instance, `config.${key}`);
  return Array.isArray(given) ? given : [...BAND_DEFAULTS[key]];
}

export function constraintLists(instance: unknown): { constraints: unknown[]; lowerBounds: unknown[]; upperBounds: unknown[] } {
  const c = getAt(instance, 'config.constraints');
  const constraints = Array.isArray(c) ? c : [...ALL_BLOCK_LENGTHS];
  const list = (key: string, p: number) => {
    const v = getAt(instance, `config.${key}`);
    return Array.isArray(v) ? v : constraints.map(() => p);
  };
  return { constraints, lowerBounds: list('lowerBounds', DEFAULT_LOWER), upperBounds: list('upperBounds', DEFAULT_UPPER) };
}

const sameList = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Sets one band value of an instance; a list back at its default is left out of the spec. */
export function setBand(draft: Draft, i: number, key: BandKey, k: number, value: unknown): Draft {
  const base = `instances[${i}].config.${key}`;
  const list = [...bandValues(getAt(draft, `instances[${i}]`), key)];
  list[k] = value;
  const next = setAt(draft, base, sameList(list, BAND_DEFAULTS[key]) ? undefined : list);
  return pruneEmpty(next, base);
}

/** Back to the spec's default bands and weights. */
export function resetBands(draft: Draft, i: number): Draft {
  let next = draft;
  for (const key of BAND_KEYS) next = setAt(next, `instances[${i}].config.${key}`, undefined);
  return pruneEmpty(next, `instances[${i}].config.alpha`);
}

/** Constrains block length d or not (its percent points are kept, new ones start at p 0.1, P 0.9). */
export function setConstrained(draft: Draft, i: number, d: number, on: boolean): Draft {
  const inst = getAt(draft, `instances[${i}]`);
  const { constraints, lowerBounds, upperBounds } = constraintLists(inst);
  const rows = constraints.map((c, j) => ({ d: c, lower: lowerBounds[j], upper: upperBounds[j] })).filter((r) => r.d !== d);
  if (on) rows.push({ d, lower: DEFAULT_LOWER, upper: DEFAULT_UPPER });
  rows.sort((a, b) => Number(a.d) - Number(b.d));
  return setConstraintRows(draft, i, rows);
}

/** Sets p_d (lower) or P_d (upper) of the j-th constrained block length. */
export function setPercentPoint(draft: Draft, i: number, which: 'lowerBounds' | 'upperBounds', j: number, value: unknown): Draft {
  const inst = getAt(draft, `instances[${i}]`);
  const lists = constraintLists(inst);
  const rows = lists.constraints.map((d, k) => ({ d, lower: lists.lowerBounds[k], upper: lists.upperBounds[k] }));
  if (!rows[j]) return draft;
  rows[j] = { ...rows[j], [which === 'lowerBounds' ? 'lower' : 'upper']: value };
  return setConstraintRows(draft, i, rows);
}

function setConstraintRows(draft: Draft, i: number, rows: { d: unknown; lower: unknown; upper: unknown }[]): Draft {
  const constraints = rows.map((r) => r.d);
  const lower = rows.map((r) => r.lower);
  const upper = rows.map((r) => r.upper);
  const isDefault = sameList(constraints, ALL_BLOCK_LENGTHS) && lower.every((p) => p === DEFAULT_LOWER) && upper.every((p) => p === DEFAULT_UPPER);
  let next = draft;
  const base = `instances[${i}].config`;
  next = setAt(next, `${base}.constraints`, isDefault ? undefined : constraints);
  next = setAt(next, `${base}.lowerBounds`, isDefault ? undefined : lower);
  next = setAt(next, `${base}.upperBounds`, isDefault ? undefined : upper);
  return pruneEmpty(next, `${base}.constraints`);
}

export function resetConstraints(draft: Draft, i: number): Draft {
  return setConstraintRows(draft, i, ALL_BLOCK_LENGTHS.map((d) => ({ d, lower: DEFAULT_LOWER, upper: DEFAULT_UPPER })));
}

/** Gives an instance its own normalisation (ideal 0, nadir 1 per objective to start from) or takes it away. */
export function setNormalisation(draft: Draft, i: number, on: boolean): Draft {
  const inst = getAt(draft, `instances[${i}]`);
  const m = objectiveCountOf(inst) ?? 2;
  let next = setAt(draft, `instances[${i}].normalization`, undefined);
  next = setAt(next, `instances[${i}].normalisation`, on ? { ideal: Array(m).fill(0), nadir: Array(m).fill(1) } : undefined);
  return next;
}

// ---- new drafts, clones -----------------------------------------------------------------------

export function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let k = 2; ; k++) if (!taken.has(`${base}-${k}`)) return `${base}-${k}`;
}

/**
 * Changes an instance's track or N; a name the editor made from them ("so-n50") follows
 * ("mo3-n50"), a name the user gave stays.
 */
export function setInstanceShape(draft: Draft, i: number, change: { track?: unknown; n?: unknown }): Draft {
  const base = `instances[${i}]`;
  const inst = getAt(draft, base);
  const oldName = getAt(inst, 'name');
  const oldTrack = getAt(inst, 'track') ?? 'so';
  const oldN = getAt(inst, 'n') ?? DEFAULT_N;
  let next = draft;
  if ('track' in change) next = setAt(next, `${base}.track`, change.track);
  if ('n' in change) next = setAt(next, `${base}.n`, change.n);
  const track = 'track' in change ? change.track : oldTrack;
  const n = 'n' in change ? change.n : oldN;
  if (oldName === `${String(oldTrack)}-n${String(oldN)}` && typeof track === 'string' && typeof n === 'number') {
    const others = Array.isArray(draft.instances) ? draft.instances.filter((_, k) => k !== i).map((x) => String(getAt(x, 'name'))) : [];
    next = setAt(next, `${base}.name`, uniqueName(`${track}-n${n}`, new Set(others)));
  }
  return next;
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
    const bare = isRecord(entry) && Object.keys(entry).every((k) => k === 'name' || (k === 'params' && (entry.params === undefined || (isRecord(entry.params) && Object.keys(entry.params).length === 0))));
    const known = descriptors.some((d) => d.name === name);
    const taken = (next.solvers as unknown[]).some((other) => getAt(other, 'name') === replacement && getAt(other, 'label') === undefined);
    if (bare && known && !fitting.has(String(name)) && !taken) next = setAt(next, `solvers[${i}]`, { name: replacement });
  });
  return next;
}

export function instanceDraft(track: TrackName, n: number, taken: ReadonlySet<string>): Record<string, unknown> {
  return { name: uniqueName(`${track}-n${n}`, taken), track, n };
}

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

// ---- JSON text ----------------------------------------------------------------------------------

/** The draft as JSON, two spaces deep, with a list of plain values on one line when it fits (bands, seeds). */
export function draftJson(draft: Draft): string {
  return formatJson(draft, '');
}

const LINE = 96;

function formatJson(v: unknown, indent: string): string {
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    if (v.every((x) => x === null || typeof x !== 'object')) {
      const one = `[${v.map((x) => JSON.stringify(x ?? null)).join(', ')}]`;
      if (indent.length + one.length <= LINE) return one;
    }
    return `[\n${v.map((x) => `${inner}${formatJson(x ?? null, inner)}`).join(',\n')}\n${indent}]`;
  }
  if (isRecord(v)) {
    const keys = Object.keys(v).filter((k) => v[k] !== undefined);
    if (keys.length === 0) return '{}';
    return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${formatJson(v[k], inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export interface JsonProblem {
  message: string;
  /** 1-based. */
  line: number;
  column: number;
  /** 0-based character offset. */
  offset: number;
}

/** Where a JSON text breaks, from the engine's message (V8: "at position N"; SpiderMonkey: "line L column C"). */
export function jsonProblem(text: string, error: unknown): JsonProblem {
  const raw = error instanceof Error ? error.message : String(error);
  let offset = text.length;
  const position = /at position (\d+)/.exec(raw);
  const lineColumn = /line (\d+) column (\d+)/.exec(raw);
  if (position) offset = Math.min(Number(position[1]), text.length);
  else if (lineColumn) {
    const lines = text.split('\n');
    const line = Math.min(Number(lineColumn[1]), lines.length);
    offset = lines.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0) + Number(lineColumn[2]) - 1;
  }
  const before = text.slice(0, offset).split('\n');
  const message = raw
    .replace(/^JSON\.parse: /, '')
    .replace(/ in JSON at position \d+.*$/, '')
    .replace(/ at line \d+ column \d+ of the JSON data$/, '')
    .replace(/ \(line \d+ column \d+\)$/, '');
  return { message, line: before.length, column: before[before.length - 1].length + 1, offset };
}

/** Parses the JSON editor's text: the draft, or where and why it cannot be one. */
export function parseDraftJson(text: string): { draft: Draft } | { problem: JsonProblem } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problem: jsonProblem(text, e) };
  }
  if (!isRecord(value)) return { problem: { message: 'the spec must be a JSON object {…}', line: 1, column: 1, offset: 0 } };
  return { draft: value };
}

// ---- checking ---------------------------------------------------------------------------------

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
 * each, the rank-sum test the Compare view marks +/−/= by (Holm over all k(k − 1)/2 pairs of an
 * instance) cannot reach p < alpha whatever the runs find (src-shared/stats/attainable.ts).
 */
export function seedsWarning(solverCount: number | null, seedCount: number | null, alpha: number): string | null {
  if (solverCount === null || seedCount === null || solverCount < 2 || seedCount < 1) return null;
  const pairs = (solverCount * (solverCount - 1)) / 2;
  if (!cannotDiffer(seedCount, seedCount, pairs, alpha)) return null;
  const p = smallestHolmP(seedCount, seedCount, pairs);
  const needed = runsNeeded(alpha, pairs);
  const after = pairs > 1 ? ` after Holm over the ${pairs} pairs of ${solverCount} solvers` : '';
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
  const standIns = goodInstances.length ? goodInstances : (instances ?? []).map(trackOfInstance).filter((t): t is TrackName => t !== null).map((track, k) => ({ name: `${track}-${k}`, track }));
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
      add(specErrorOf(() => expandGrid(withOneSeed(validateSpec({ ...VALID, instances: named, solvers: [solver] })))), map);
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

export { MAX_EXPERIMENT_RUNS };

/** The registry's solvers that handle every instance's objective count (unknown counts ignored). */
export function solversThatFit(descriptors: readonly SolverDescriptor[], objectiveCounts: readonly (number | null)[]): SolverDescriptor[] {
  const counts = objectiveCounts.filter((m): m is number => m !== null);
  return descriptors.filter((d) => counts.every((m) => d.objectives === 'any' || (d.objectives === 'single') === (m === 1)));
}

/** The error of a field or, when the field has none, of the nearest enclosing field that has one. */
export function nearestError(errors: ReadonlyMap<string, string>, field: string): [string, string] | null {
  for (let segments = pathSegments(field); segments.length; segments = segments.slice(0, -1)) {
    const f = joinPath(segments);
    const rule = errors.get(f);
    if (rule !== undefined) return [f, rule];
  }
  return null;
}

/** Whether `field` is `prefix` or inside it ("instances[0].n" is inside "instances[0]", "instances[10]" is not). */
export function isInside(field: string, prefix: string): boolean {
  return field === prefix || field.startsWith(`${prefix}.`) || field.startsWith(`${prefix}[`);
}
