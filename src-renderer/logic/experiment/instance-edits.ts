/**
 * An instance of a draft as the editor changes it: its effective config (what the track gives
 * when the draft does not say), band, constraint and normalisation edits that leave a value
 * back at its default out of the spec, its track and N (with the name made from them), and
 * unique names for new instances.
 */
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
import { getAt, isRecord, pruneEmpty, setAt, type Draft } from './draft-paths.ts';

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
  return setConstraintRows(
    draft,
    i,
    ALL_BLOCK_LENGTHS.map((d) => ({ d, lower: DEFAULT_LOWER, upper: DEFAULT_UPPER })),
  );
}

/** Gives an instance its own normalisation (ideal 0, nadir 1 per objective to start from) or takes it away. */
export function setNormalisation(draft: Draft, i: number, on: boolean): Draft {
  const inst = getAt(draft, `instances[${i}]`);
  const m = objectiveCountOf(inst) ?? 2;
  let next = setAt(draft, `instances[${i}].normalization`, undefined);
  next = setAt(next, `instances[${i}].normalisation`, on ? { ideal: Array(m).fill(0), nadir: Array(m).fill(1) } : undefined);
  return next;
}

/** `base`, or `base-2`, `base-3`, … when taken. */
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

export function instanceDraft(track: TrackName, n: number, taken: ReadonlySet<string>): Record<string, unknown> {
  return { name: uniqueName(`${track}-n${n}`, taken), track, n };
}
