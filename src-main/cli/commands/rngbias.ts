import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError, parseCommandArgs, readAll, writeLine, type CliIo, type Command } from '../command.ts';
import { rngbiasHelp } from './rngbias.help.ts';
import { ConfigError, configFromPartial, DEFAULT_N, type DiceConfig } from '../../../src-shared/problems/dice/config.ts';
import { DiceEvaluator, parseSequence, SequenceError } from '../../../src-shared/problems/dice/evaluate.ts';
import { checkValueDepth, describeValue, JsonInputError, parseJsonSafe } from '../../../src-shared/json.ts';

/**
 * A drop-in for the EC-Comp 2020 reference evaluator (rngbias.py): the same options,
 * RNGBIAS_* environment variables and YAML config keys, the same output convention.
 * Precedence: command line > environment > config file > the spec's defaults.
 */
interface OptionSpec {
  /** Key in the YAML file; the environment variable is RNGBIAS_ + its upper case. */
  key: string;
  /** The command-line option (rngbiasHelp.options). */
  long: keyof typeof rngbiasHelp.options;
  field: keyof Omit<DiceConfig, 'n'> | 'n';
}

const OPTIONS: OptionSpec[] = [
  { key: 'variables', long: 'variables', field: 'n' },
  { key: 'objectives', long: 'objectives', field: 'objectives' },
  { key: 'constraints', long: 'constraints', field: 'constraints' },
  { key: 'lower_bounds', long: 'lower-bounds', field: 'lowerBounds' },
  { key: 'upper_bounds', long: 'upper-bounds', field: 'upperBounds' },
  { key: 'bias_alpha', long: 'bias_alpha', field: 'alpha' },
  { key: 'bias_beta', long: 'bias_beta', field: 'beta' },
  { key: 'bias_gamma', long: 'bias_gamma', field: 'gamma' },
];

class RngbiasInputError extends Error {}

/** An option's text for a message: JSON-quoted, at most 80 characters. */
function describeRaw(raw: unknown): string {
  return describeValue(raw, 80);
}

/** Parses an option value: JSON text from the command line or environment, or a YAML value. */
function optionValue(spec: OptionSpec, raw: unknown, source: string): unknown {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = parseJsonSafe(raw);
    } catch (e) {
      if (!(e instanceof JsonInputError)) throw e;
      const why = e.message.startsWith('nested') ? e.message : 'is not valid JSON';
      throw new RngbiasInputError(`${source}: --${spec.long} ${why}: ${describeRaw(raw)}`);
    }
  } else {
    try {
      checkValueDepth(raw, `${source}: --${spec.long}`);
    } catch (e) {
      if (e instanceof JsonInputError) throw new RngbiasInputError(e.message);
      throw e;
    }
  }
  if (spec.field === 'n') {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
      throw new RngbiasInputError(`${source}: --${spec.long} must be a positive integer, got ${describeRaw(raw)}`);
    return value;
  }
  if (!Array.isArray(value)) throw new RngbiasInputError(`${source}: --${spec.long} must be a JSON list, got ${describeRaw(raw)}`);
  return value;
}

async function readConfigFile(path: string, explicit: boolean): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if (!explicit && (e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new RngbiasInputError(`cannot read config file ${path}: ${(e as Error).message}`);
  }
  // YAML loads only when there is a config file: a harness calls rngbias once per solution.
  const { parseYamlSafe, YamlInputError } = await import('../yaml.ts');
  let parsed: unknown;
  try {
    parsed = parseYamlSafe(text);
  } catch (e) {
    if (e instanceof YamlInputError) throw new RngbiasInputError(`config file ${path}: ${e.message}`);
    throw e;
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new RngbiasInputError(`config file ${path} must be a mapping of keys to values`);
  const known = new Set(OPTIONS.map((o) => o.key));
  const unknown = Object.keys(parsed).filter((k) => !known.has(k));
  if (unknown.length) throw new RngbiasInputError(`config file ${path}: unknown key ${unknown.map((k) => `"${k}"`).join(', ')}`);
  return parsed as Record<string, unknown>;
}

/** Resolves the config from the command line, the environment and the YAML file. */
export async function resolveRngbiasConfig(values: Record<string, string | boolean | undefined>, io: CliIo): Promise<DiceConfig> {
  const configPath = typeof values.config === 'string' ? values.config : 'config.yml';
  const file = await readConfigFile(resolve(io.cwd, configPath), typeof values.config === 'string');
  const partial: Record<string, unknown> = { n: DEFAULT_N };
  for (const spec of OPTIONS) {
    const cli = values[spec.long];
    const envName = `RNGBIAS_${spec.key.toUpperCase()}`;
    const env = io.env[envName];
    if (typeof cli === 'string') partial[spec.field] = optionValue(spec, cli, 'option');
    else if (env !== undefined && env !== '') partial[spec.field] = optionValue(spec, env, `environment ${envName}`);
    else if (spec.key in file) partial[spec.field] = optionValue(spec, file[spec.key], `config file key ${spec.key}`);
  }
  try {
    return configFromPartial(partial as Partial<DiceConfig> & { n: number });
  } catch (e) {
    if (e instanceof ConfigError) {
      const spec = OPTIONS.find((o) => e.field === o.field || e.field.startsWith(`${o.field}[`));
      throw new RngbiasInputError(spec ? `--${spec.long}: ${e.message}` : e.message);
    }
    throw e;
  }
}

/** stdin, at most STDIN_LIMIT_BYTES (src-main/cli/command.ts); more is an error line. */
async function readInput(io: CliIo): Promise<string> {
  try {
    return await readAll(io.stdin);
  } catch (e) {
    if (e instanceof InputError) throw new RngbiasInputError(e.message);
    throw e;
  }
}

/** Reads the single JSON string from stdin. */
function parseSolution(text: string, n: number): string {
  if (text.trim() === '') throw new RngbiasInputError('empty input: expected a JSON string of digits 1-6 on stdin');
  let value: unknown;
  try {
    value = parseJsonSafe(text);
  } catch (e) {
    if (!(e instanceof JsonInputError)) throw e;
    if (e.message.startsWith('nested')) throw new RngbiasInputError(`input is ${e.message}`);
    throw new RngbiasInputError(`input is not valid JSON: ${JSON.stringify(text.trim().slice(0, 60))}`);
  }
  if (typeof value !== 'string')
    throw new RngbiasInputError(`input must be a JSON string of digits 1-6, got ${Array.isArray(value) ? 'a list' : typeof value}`);
  try {
    parseSequence(value, n);
  } catch (e) {
    if (e instanceof SequenceError) throw new RngbiasInputError(e.message);
    throw e;
  }
  return value;
}

/** The reference's convention: a bare number for one value, a list for several, null for none. */
function collapse(values: number[]): number | number[] | null {
  if (values.length === 0) return null;
  return values.length === 1 ? values[0] : values;
}

export const rngbiasCommand: Command = {
  name: 'rngbias',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, rngbiasHelp);
    try {
      const config = await resolveRngbiasConfig(values, io);
      const x = parseSolution(await readInput(io), config.n);
      const evaluation = new DiceEvaluator(config).evaluate(x);
      writeLine(io.stdout, JSON.stringify({ objective: collapse(evaluation.objectives), constraint: collapse(evaluation.constraints), error: null }));
      return 0;
    } catch (e) {
      if (!(e instanceof RngbiasInputError)) throw e;
      writeLine(io.stdout, JSON.stringify({ objective: null, constraint: null, error: e.message }));
      return 1;
    }
  },
};
