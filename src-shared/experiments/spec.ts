/**
 * An experiment: a grid of instances × solvers × seeds with one evaluation budget.
 * The JSON format is documented in docs/projects.md; validateSpec checks the shape and names
 * the offending field, checkSolvers checks names and parameters against the solver registry.
 */
import { describeValue } from '../json.ts';
import { TRACK_NAMES, ConfigError, diceConfig, type DiceConfig, type TrackName } from '../problems/dice/config.ts';
import { FieldError } from '../base/field-error.ts';
import { isName, NAME_RULE } from '../base/names.ts';
import { checkProgramSpec, PROGRAM_FIELDS, ProgramSpecError, type ProgramSpec } from '../solvers/program/protocol.ts';

export interface InstanceSpec {
  /** Unique within the experiment; used in tables. */
  name: string;
  /** Track whose objective grouping and defaults to start from (default "so"). */
  track?: TrackName;
  /** Sequence length (default 50). */
  n?: number;
  /** Fields of DiceConfig that replace the track's defaults. */
  config?: Partial<Omit<DiceConfig, 'n'>>;
  /**
   * Normalisation for hypervolume and IGD+: objectives map to [0, 1] between ideal and nadir
   * (HV reference point 1.1 in every normalised objective). When the spec leaves it out,
   * `experiment add` stores the default (see normalisation.ts) with the instance. Input may
   * spell the key `normalization`, as specs stored before did (normalisation.ts, upgradeSpec).
   */
  normalisation?: { ideal: number[]; nadir: number[]; method?: string };
  /**
   * A secret instance (a competition's draw, docs/competition.md): its bands and weights are
   * shown nowhere (compare, reports, the app, the API) until the competition is revealed; it is
   * named by its name. Only in a blind spec (no solver may see them either). Stored only when true.
   */
  hidden?: boolean;
}

/**
 * A solver of the grid: a registered one by name with its parameters, or a solver program
 * (`command`, and optionally `cwd`, `env`, `blind`, `grace`, `timeout`; docs/external-solvers.md)
 * whose `name` is its label in tables, charts and reports. `experiment add` stores with a
 * program the sha256 of each argument that is a file in the project's folder (`hashes`).
 */
export interface SolverSpec extends Partial<ProgramSpec> {
  /** Registry name, e.g. "random"; for a program, its name. */
  name: string;
  /** Unique within the experiment (default: the name); tells apart two entries of one solver. */
  label?: string;
  params?: Record<string, number | boolean | string>;
  /**
   * A competition's remote entrant (docs/competition.md, "Running it as a service"): whatever
   * it runs, it runs on its own machine and asks `saikoro serve --competition` for evaluations,
   * so no process of Saikoro's runs it (`experiment run` and `competition run` leave its runs to
   * the server). Only in a blind spec; `name` is the entrant's. Stored only when true.
   */
  remote?: true;
}

/** The program of a solver entry, or null for a registered solver. */
export function programOf(solver: SolverSpec): ProgramSpec | null {
  if (solver.command === undefined) return null;
  const program: ProgramSpec = { command: solver.command };
  for (const key of PROGRAM_FIELDS) if (key !== 'command' && solver[key] !== undefined) (program as unknown as Record<string, unknown>)[key] = solver[key];
  return program;
}

export interface BudgetSpec {
  /** Exact evaluation budget of every run. */
  evaluations: number;
  /**
   * Single objective: a run stops at its first feasible solution with f <= target; 0 when not
   * given (the one stopping policy, src-shared/solvers/stopping.ts).
   */
  target?: number;
  /** Single objective: run the whole budget, with no target. */
  wholeBudget?: boolean;
  /** Stop when nothing has improved for this many evaluations. */
  stallEvaluations?: number;
}

export interface ExperimentSpec {
  name: string;
  description?: string;
  instances: InstanceSpec[];
  solvers: SolverSpec[];
  /** Explicit seeds, or `count` consecutive seeds from `start` (default 1). */
  seeds: number[] | { count: number; start?: number };
  budget: BudgetSpec;
  /**
   * Blind as a whole: every solver, built-in or program, gets only N, M, L, the budget, the
   * seed and the answers to what it asks (docs/competition.md). Part of every run's identity.
   * Stored only when true.
   */
  blind?: boolean;
}

export class SpecError extends FieldError {
  override readonly name = 'SpecError';
}

/**
 * The largest experiment `experiment add` accepts: instances x solvers x seeds. Expanding and
 * hashing 100,000 runs takes a few seconds (every status or compare expands the grid again);
 * 10^7 seeds took minutes and gigabytes before anything was stored. Checked before expansion.
 */
export const MAX_EXPERIMENT_RUNS = 100_000;

/**
 * The longest sequence an experiment instance may ask for. Lower than the evaluator's own
 * bound (MAX_N, 10^7, which `saikoro solve` takes): `experiment add` evaluates 1000 random
 * sequences per multi-objective instance for its default normalisation, about 70 s at 10^6
 * and 12 minutes at 10^7.
 */
export const MAX_EXPERIMENT_N = 1_000_000;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function allowOnly(field: string, record: Record<string, unknown>, keys: readonly string[]): void {
  for (const k of Object.keys(record)) if (!keys.includes(k)) throw new SpecError(`${field}.${k}`, `is not a known field (known: ${keys.join(', ')})`);
}

function checkName(field: string, v: unknown): string {
  if (!isName(v)) throw new SpecError(field, `${NAME_RULE}, got ${describeValue(v)}`);
  return v;
}

function checkInteger(field: string, v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v))
    throw new SpecError(field, `must be a safe integer (from -(2^53 - 1) to 2^53 - 1 = ${Number.MAX_SAFE_INTEGER}), got ${v}`);
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new SpecError(field, `must be an integer, got ${describeValue(v)}`);
  if (v < min) throw new SpecError(field, `must be at least ${min}, got ${v}`);
  if (v > max) throw new SpecError(field, `must be at most ${max}, got ${v}`);
  return v;
}

function checkNumberList(field: string, v: unknown, length: number): number[] {
  if (!Array.isArray(v) || v.length !== length) throw new SpecError(field, `must be a list of ${length} numbers`);
  v.forEach((x, i) => {
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new SpecError(`${field}[${i}]`, `must be a finite number, got ${describeValue(x)}`);
  });
  return v as number[];
}

/** The full DiceConfig of an instance: the track's defaults at length n, then the overrides. */
export function instanceConfig(instance: InstanceSpec): DiceConfig {
  return diceConfig({ ...(instance.config ?? {}), track: instance.track ?? 'so', n: instance.n ?? 50 });
}

function validateInstance(field: string, v: unknown): InstanceSpec {
  if (!isRecord(v)) throw new SpecError(field, 'must be an object like {"name": "mo3-n50", "track": "mo3", "n": 50}');
  allowOnly(field, v, ['name', 'track', 'n', 'config', 'normalisation', 'normalization', 'hidden']);
  const instance: InstanceSpec = { name: checkName(`${field}.name`, v.name) };
  if (v.track !== undefined) {
    if (typeof v.track !== 'string' || !TRACK_NAMES.includes(v.track as TrackName))
      throw new SpecError(`${field}.track`, `must be one of ${TRACK_NAMES.join(', ')}, got ${describeValue(v.track)}`);
    instance.track = v.track as TrackName;
  }
  if (v.n !== undefined) instance.n = checkInteger(`${field}.n`, v.n, 1, MAX_EXPERIMENT_N);
  if (v.config !== undefined) {
    if (!isRecord(v.config)) throw new SpecError(`${field}.config`, 'must be an object of DiceConfig fields');
    allowOnly(`${field}.config`, v.config, ['alpha', 'beta', 'gamma', 'objectives', 'constraints', 'lowerBounds', 'upperBounds']);
    instance.config = v.config as InstanceSpec['config'];
  }
  let config: DiceConfig;
  try {
    config = instanceConfig(instance);
  } catch (e) {
    if (e instanceof ConfigError) throw new SpecError(`${field}.${e.field === 'n' ? 'n' : `config.${e.field}`}`, e.rule);
    throw e;
  }
  // `normalization` is the spelling of specs stored before; either is read, not both.
  if (v.normalisation !== undefined && v.normalization !== undefined)
    throw new SpecError(`${field}.normalization`, 'is the older spelling of normalisation: give only one of the two');
  const key = v.normalization !== undefined ? 'normalization' : 'normalisation';
  const given = v[key];
  if (given !== undefined) {
    const nf = `${field}.${key}`;
    if (!isRecord(given)) throw new SpecError(nf, 'must be {"ideal": [...], "nadir": [...]}');
    allowOnly(nf, given, ['ideal', 'nadir', 'method']);
    if (given.method !== undefined && typeof given.method !== 'string') throw new SpecError(`${nf}.method`, 'must be a string');
    const m = config.objectives.length;
    const ideal = checkNumberList(`${nf}.ideal`, given.ideal, m);
    const nadir = checkNumberList(`${nf}.nadir`, given.nadir, m);
    nadir.forEach((x, k) => {
      if (!(x > ideal[k])) throw new SpecError(`${nf}.nadir[${k}]`, `must exceed ideal[${k}] (${x} <= ${ideal[k]})`);
    });
    instance.normalisation = { ideal, nadir };
    if (typeof given.method === 'string') instance.normalisation.method = given.method;
  }
  if (v.hidden !== undefined) {
    if (typeof v.hidden !== 'boolean') throw new SpecError(`${field}.hidden`, `must be true or false, got ${describeValue(v.hidden)}`);
    if (v.hidden) instance.hidden = true;
  }
  return instance;
}

function validateSolver(field: string, v: unknown): SolverSpec {
  if (!isRecord(v))
    throw new SpecError(field, 'must be an object like {"name": "random", "params": {}}, or {"name": "my-ga", "command": ["python3", "my_ga.py"]}');
  if (v.remote !== undefined) return validateRemoteSolver(field, v);
  if (v.command !== undefined) return validateProgramSolver(field, v);
  allowOnly(field, v, ['name', 'label', 'params']);
  if (typeof v.name !== 'string' || v.name === '') throw new SpecError(`${field}.name`, `must be a solver name, got ${describeValue(v.name)}`);
  const solver: SolverSpec = { name: v.name };
  if (v.label !== undefined) solver.label = checkName(`${field}.label`, v.label);
  if (v.params !== undefined) {
    if (!isRecord(v.params)) throw new SpecError(`${field}.params`, 'must be an object of parameter values');
    for (const [k, p] of Object.entries(v.params))
      if (!(typeof p === 'boolean' || typeof p === 'string' || (typeof p === 'number' && Number.isFinite(p))))
        throw new SpecError(`${field}.params.${k}`, `must be a number, boolean or string, got ${describeValue(p)}`);
    solver.params = v.params as SolverSpec['params'];
  }
  return solver;
}

/** A solver program's entry: its name (its label) and the program's fields; no params. */
function validateProgramSolver(field: string, v: Record<string, unknown>): SolverSpec {
  if (v.params !== undefined) throw new SpecError(`${field}.params`, 'a solver program takes no params: give its options as arguments in its command');
  allowOnly(field, v, ['name', 'label', ...PROGRAM_FIELDS]);
  const solver: SolverSpec = { name: checkName(`${field}.name`, v.name) };
  if (v.label !== undefined) solver.label = checkName(`${field}.label`, v.label);
  try {
    Object.assign(solver, checkProgramSpec(v, field));
  } catch (e) {
    if (e instanceof ProgramSpecError) throw new SpecError(e.field, e.rule);
    throw e;
  }
  return solver;
}

/** A remote entrant's entry: its name and `"remote": true`, nothing else (it runs nowhere here). */
function validateRemoteSolver(field: string, v: Record<string, unknown>): SolverSpec {
  if (v.remote !== true) throw new SpecError(`${field}.remote`, `must be true (a remote entrant) or left out, got ${describeValue(v.remote)}`);
  allowOnly(field, v, ['name', 'remote']);
  return { name: checkName(`${field}.name`, v.name), remote: true };
}

function unique(field: string, names: string[]): void {
  const seen = new Set<string>();
  names.forEach((name, i) => {
    if (seen.has(name)) throw new SpecError(`${field}[${i}]`, `name ${JSON.stringify(name)} is used twice`);
    seen.add(name);
  });
}

/** Checks the shape of a spec read from JSON; throws a SpecError naming the field. */
export function validateSpec(input: unknown): ExperimentSpec {
  if (!isRecord(input)) throw new SpecError('spec', 'must be a JSON object with name, instances, solvers, seeds and budget');
  allowOnly('spec', input, ['name', 'description', 'instances', 'solvers', 'seeds', 'budget', 'blind']);
  const name = checkName('name', input.name);
  if (input.blind !== undefined && typeof input.blind !== 'boolean') throw new SpecError('blind', `must be true or false, got ${describeValue(input.blind)}`);
  const blind = input.blind === true;
  if (input.description !== undefined && typeof input.description !== 'string') throw new SpecError('description', 'must be a string');
  if (!Array.isArray(input.instances) || input.instances.length === 0) throw new SpecError('instances', 'must be a non-empty list');
  const instances = input.instances.map((v, i) => validateInstance(`instances[${i}]`, v));
  unique(
    'instances',
    instances.map((i) => i.name),
  );
  instances.forEach((instance, i) => {
    if (instance.hidden && !blind)
      throw new SpecError(
        `instances[${i}].hidden`,
        'a hidden instance needs a blind experiment ("blind": true at the top of the spec): a solver that sees the bands would leak them',
      );
  });
  if (!Array.isArray(input.solvers) || input.solvers.length === 0) throw new SpecError('solvers', 'must be a non-empty list');
  const solvers = input.solvers.map((v, i) => validateSolver(`solvers[${i}]`, v));
  unique('solvers', solvers.map(solverLabel));
  if (blind)
    (input.solvers as unknown[]).forEach((v, i) => {
      if (isRecord(v) && v.blind === false)
        throw new SpecError(
          `solvers[${i}].blind`,
          'cannot be false in a blind experiment: the experiment is blind as a whole ("blind": true at the top of the spec)',
        );
    });
  solvers.forEach((solver, i) => {
    if (solver.remote && !blind)
      throw new SpecError(
        `solvers[${i}].remote`,
        'a remote entrant needs a blind experiment ("blind": true at the top of the spec): it sees the problem only through its evaluations',
      );
  });
  let seeds: ExperimentSpec['seeds'];
  // The grid's size is known before anything is expanded: refuse a huge one at once.
  const cells = instances.length * solvers.length;
  const maxSeeds = Math.max(1, Math.floor(MAX_EXPERIMENT_RUNS / cells));
  const tooMany = (field: string, count: number) =>
    new SpecError(
      field,
      `${count} seeds x ${instances.length} instance(s) x ${solvers.length} solver(s) = ${count * cells} runs; an experiment has at most ${MAX_EXPERIMENT_RUNS} runs (at most ${maxSeeds} seeds here); split it into several experiments`,
    );
  if (Array.isArray(input.seeds)) {
    if (input.seeds.length === 0) throw new SpecError('seeds', 'must not be empty');
    if (input.seeds.length * cells > MAX_EXPERIMENT_RUNS) throw tooMany('seeds', input.seeds.length);
    seeds = input.seeds.map((s, i) => checkInteger(`seeds[${i}]`, s, 0));
    const seen = new Set<number>();
    seeds.forEach((s, i) => {
      if (seen.has(s)) throw new SpecError(`seeds[${i}]`, `seed ${s} is listed twice`);
      seen.add(s);
    });
  } else if (isRecord(input.seeds)) {
    allowOnly('seeds', input.seeds, ['count', 'start']);
    seeds = { count: checkInteger('seeds.count', input.seeds.count, 1) };
    if (seeds.count * cells > MAX_EXPERIMENT_RUNS) throw tooMany('seeds.count', seeds.count);
    if (input.seeds.start !== undefined) seeds.start = checkInteger('seeds.start', input.seeds.start, 0);
    // Not start + count - 1 > MAX: past 2^53 that sum rounds, and 2^53 - 1 + 2 - 1 came out as 2^53 - 1.
    if (seeds.count - 1 > Number.MAX_SAFE_INTEGER - (seeds.start ?? 1))
      throw new SpecError(
        'seeds.start',
        `the last seed, start + count - 1 = ${BigInt(seeds.start ?? 1) + BigInt(seeds.count) - 1n}, must be at most 2^53 - 1 = ${Number.MAX_SAFE_INTEGER}`,
      );
  } else throw new SpecError('seeds', 'must be a list of integers or {"count": K, "start": S}');
  if (!isRecord(input.budget)) throw new SpecError('budget', 'must be an object like {"evaluations": 10000}');
  allowOnly('budget', input.budget, ['evaluations', 'target', 'wholeBudget', 'stallEvaluations']);
  const budget: BudgetSpec = { evaluations: checkInteger('budget.evaluations', input.budget.evaluations, 1) };
  if (input.budget.target !== undefined) {
    if (typeof input.budget.target !== 'number' || !Number.isFinite(input.budget.target)) throw new SpecError('budget.target', 'must be a finite number');
    budget.target = input.budget.target;
  }
  if (input.budget.wholeBudget !== undefined) {
    if (typeof input.budget.wholeBudget !== 'boolean')
      throw new SpecError('budget.wholeBudget', `must be true or false, got ${JSON.stringify(input.budget.wholeBudget)}`);
    if (input.budget.wholeBudget && budget.target !== undefined) throw new SpecError('budget.wholeBudget', 'cannot be true with a target: give one of them');
    if (input.budget.wholeBudget) budget.wholeBudget = true;
  }
  if (input.budget.stallEvaluations !== undefined) budget.stallEvaluations = checkInteger('budget.stallEvaluations', input.budget.stallEvaluations, 1);
  const spec: ExperimentSpec = { name, instances, solvers, seeds, budget };
  if (input.description !== undefined) spec.description = input.description as string;
  if (blind) spec.blind = true;
  return spec;
}

export function solverLabel(solver: SolverSpec): string {
  return solver.label ?? solver.name;
}

export function seedList(seeds: ExperimentSpec['seeds']): number[] {
  if (Array.isArray(seeds)) return [...seeds];
  const start = seeds.start ?? 1;
  return Array.from({ length: seeds.count }, (_, i) => start + i);
}
