/**
 * The one parameter resolver, for every kind of run (dice solvers, N-Queens methods): defaults
 * filled in (a default may depend on the problem or board) and every value validated, with
 * errors that name the parameter. Values may come typed (API, project files) or as strings
 * (`--param k=v`).
 */
import type { Problem } from './problem.ts';

export type ParamValue = number | boolean | string;
export type ParamValues = Readonly<Record<string, ParamValue>>;

/** A parameter of a solver or method; `C` is what a computed default depends on (the problem). */
export interface ParamSpec<C = Problem> {
  readonly name: string;
  readonly type: 'integer' | 'number' | 'boolean' | 'choice';
  /** The default; a function when it depends on the problem (then `defaultText` explains it). */
  readonly default: ParamValue | ((context: C) => ParamValue);
  /** How the default is shown, e.g. "1/N". */
  readonly defaultText?: string;
  readonly min?: number;
  readonly max?: number;
  /** Whether min / max themselves are excluded (e.g. a rate in (0, 1]). */
  readonly exclusiveMin?: boolean;
  readonly choices?: readonly string[];
  readonly description: string;
}

/** Serializable view of a ParamSpec (for `saikoro solvers`, IPC and the UI). */
export interface ParamDescriptor {
  name: string;
  type: ParamSpec['type'];
  default: ParamValue;
  defaultText: string;
  min: number | null;
  max: number | null;
  choices: string[] | null;
  description: string;
}

export class ParamError extends Error {
  constructor(
    readonly solver: string,
    readonly param: string,
    readonly rule: string,
  ) {
    super(`solver ${solver}: parameter ${param} ${rule}`);
    this.name = 'ParamError';
  }
}

/** A spec without its default: what checking a value needs. */
type SpecRules = Omit<ParamSpec<unknown>, 'default'>;

function describeRange(spec: SpecRules): string {
  const lo = spec.min === undefined ? '' : `${spec.exclusiveMin ? '>' : '>='} ${spec.min}`;
  const hi = spec.max === undefined ? '' : `<= ${spec.max}`;
  return [lo, hi].filter(Boolean).join(' and ');
}

function coerce(solver: string, spec: SpecRules, raw: unknown): ParamValue {
  const fail = (rule: string): never => {
    throw new ParamError(solver, spec.name, rule);
  };
  switch (spec.type) {
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      if (raw === 'true' || raw === '1') return true;
      if (raw === 'false' || raw === '0') return false;
      return fail(`must be true or false, got ${JSON.stringify(raw)}`);
    }
    case 'choice': {
      if (typeof raw !== 'string' || !spec.choices!.includes(raw)) return fail(`must be one of ${spec.choices!.join(', ')}, got ${JSON.stringify(raw)}`);
      return raw;
    }
    default: {
      let v: number;
      if (typeof raw === 'number') v = raw;
      else if (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw))) v = Number(raw);
      else return fail(`must be ${spec.type === 'integer' ? 'an integer' : 'a number'}, got ${JSON.stringify(raw)}`);
      if (!Number.isFinite(v)) return fail(`must be a finite number, got ${v}`);
      if (spec.type === 'integer' && !Number.isInteger(v)) return fail(`must be an integer, got ${v}`);
      const belowMin = spec.min !== undefined && (spec.exclusiveMin ? v <= spec.min : v < spec.min);
      const aboveMax = spec.max !== undefined && v > spec.max;
      if (belowMin || aboveMax) return fail(`must be ${describeRange(spec)}, got ${v}`);
      return v;
    }
  }
}

/**
 * Fills defaults and validates `given` against the specs. Unknown names are errors (listing
 * the known ones), so a typo never silently runs the default.
 */
export function resolveParams<C>(
  solver: string,
  specs: readonly ParamSpec<C>[],
  given: Readonly<Record<string, unknown>>,
  context: C,
): Record<string, ParamValue> {
  const known = new Set(specs.map((s) => s.name));
  for (const name of Object.keys(given)) {
    if (!known.has(name)) {
      const list = specs.length ? specs.map((s) => s.name).join(', ') : 'none';
      throw new ParamError(solver, name, `is unknown (parameters of ${solver}: ${list})`);
    }
  }
  const out: Record<string, ParamValue> = {};
  for (const spec of specs) {
    const raw = Object.prototype.hasOwnProperty.call(given, spec.name) ? given[spec.name] : undefined;
    const value = raw === undefined ? (typeof spec.default === 'function' ? spec.default(context) : spec.default) : raw;
    out[spec.name] = coerce(solver, spec, value);
  }
  return out;
}

/**
 * Parses CLI `k=v` pairs into a raw map (values stay strings; resolveParams coerces them).
 * The map has no prototype, so `__proto__=1` is an ordinary (unknown) name, not a silent no-op.
 */
export function parseParamPairs(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new ParamError('(any)', JSON.stringify(pair), 'must be written name=value');
    const name = pair.slice(0, eq).trim();
    if (Object.prototype.hasOwnProperty.call(out, name)) throw new ParamError('(any)', name, 'is given twice');
    out[name] = pair.slice(eq + 1).trim();
  }
  return out;
}

/** The serializable view of a spec. */
export function describeParam<C>(spec: ParamSpec<C>): ParamDescriptor {
  const fn = typeof spec.default === 'function';
  return {
    name: spec.name,
    type: spec.type,
    default: fn ? (spec.defaultText ?? 'depends on the problem') : (spec.default as ParamValue),
    defaultText: spec.defaultText ?? (fn ? 'depends on the problem' : String(spec.default)),
    min: spec.min ?? null,
    max: spec.max ?? null,
    choices: spec.choices ? [...spec.choices] : null,
    description: spec.description,
  };
}

/** Typed accessors for resolved params inside solvers. */
export const num = (p: ParamValues, name: string): number => p[name] as number;
export const bool = (p: ParamValues, name: string): boolean => p[name] as boolean;
export const str = (p: ParamValues, name: string): string => p[name] as string;

/** A parameter value for display: numbers to 4 significant digits (0.00119, 1/840 as used), the rest as is. */
export function formatParamValue(v: ParamValue): string {
  if (typeof v !== 'number') return String(v);
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toPrecision(4)));
}

/** Parameters on one line: "mutationRate=0.00119 populationSize=92". */
export function formatParams(params: Readonly<Record<string, ParamValue>>): string {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${formatParamValue(v)}`)
    .join(' ');
}
