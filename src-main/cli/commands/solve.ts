import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { InputError, numberOption, parseCommandArgs, UsageError, writeLine, type CliIo, type Command } from '../command.ts';
import { isName, NAME_RULE } from '../../../src-shared/base/names.ts';
import { solveHelp } from './solve.help.ts';
import { parseYamlSafe, YamlInputError } from '../yaml.ts';
import {
  ConfigError,
  diceConfig,
  MAX_N,
  TRACK_NAMES,
  TRACK_OBJECTIVES,
  trackOf,
  type DiceConfig,
  type TrackName,
} from '../../../src-shared/problems/dice/config.ts';
import { checkValueDepth, JsonInputError } from '../../../src-shared/json.ts';
import { DiceEvaluator } from '../../../src-shared/problems/dice/evaluate.ts';
import { formatParams, ParamError, parseParamPairs } from '../../../src-shared/core/params.ts';
import { SolverError } from '../../../src-shared/solvers/registry.ts';
import type { Snapshot, SolverInfo, SolverResult } from '../../../src-shared/solvers/types.ts';
import type { ParamValue } from '../../../src-shared/core/params.ts';
import { defaultMemoryLimitMb } from '../../host/memory-limit.ts';
import { sandboxWarning } from '../../host/sandbox.ts';
import { MemoryLimitError } from '../../../src-shared/solvers/memory.ts';
import { TRACE_HYPERVOLUME_MAX_OBJECTIVES } from '../../../src-shared/runtime/kinds/dice.ts';
import { INDICATOR_FIRST_AT } from '../../../src-shared/solvers/solver-run.ts';
import type { HvNormalisation } from '../../../src-shared/problems/dice/hv-reference.ts';
import { nodeSpawner, type WorkerSpawner } from '../../host/spawner.ts';
import { hvNormalisationFor, planDiceRun, withHvNormalisation, type DiceRunPlan } from '../../app/dice.ts';
import { commandLineGate, ProgramResolveError } from '../../app/program-gate.ts';
import { refusalToWrite } from '../../report/output-target.ts';
import { WriteFilesError, writeFilesAtomically } from '../../report/write-files.ts';
import { Launcher } from '../../app/launcher.ts';
import { CommandLineError, defaultProgramName, splitCommandLine } from '../../../src-shared/solvers/program/command-line.ts';
import { checkProgramSpec, formatCommand, ProgramSpecError, type ProgramSpec } from '../../../src-shared/solvers/program/protocol.ts';

const CONFIG_FIELDS = ['n', 'alpha', 'beta', 'gamma', 'objectives', 'constraints', 'lowerBounds', 'upperBounds'] as const;

/** One solution in the printed result: the full evaluation of x. */
export interface PrintedSolution {
  x: string;
  objectives: number[];
  constraints: number[];
  feasible: boolean;
}

/** What `--json` prints. */
export interface PrintedResult {
  solver: string;
  track: TrackName | 'custom';
  n: number;
  seed: number;
  evaluations: number;
  seconds: number;
  success: boolean;
  message: string;
  best: PrintedSolution | null;
  /** One objective: the evaluation at which `best` was first evaluated (null otherwise). */
  bestFoundAt: number | null;
  front: PrintedSolution[];
}

/**
 * Where JSON.parse fails in `text`: the length of the longest prefix that is still valid so far
 * (Node 20's messages do not always carry a position). Binary search: once a prefix is
 * invalid, every longer one is too.
 */
export function jsonErrorPosition(text: string): number {
  const validSoFar = (prefix: string): boolean => {
    try {
      JSON.parse(prefix);
      return true;
    } catch (e) {
      const message = (e as Error).message;
      if (/Unexpected end of JSON input/.test(message)) return true;
      const m = /at position (\d+)/.exec(message);
      return m !== null && Number(m[1]) >= prefix.length;
    }
  };
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (validSoFar(text.slice(0, mid))) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function lineColumn(text: string, position: number): string {
  const before = text.slice(0, position).split('\n');
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

/** Reads a config file (JSON, or YAML for .yaml / .yml) into a record of known fields. */
export async function readConfigFile(path: string, cwd: string): Promise<Record<string, unknown>> {
  const full = resolve(cwd, path);
  let text: string;
  try {
    text = await readFile(full, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read config file ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  let data: unknown;
  const ext = extname(full).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') {
    try {
      data = parseYamlSafe(text);
    } catch (e) {
      if (e instanceof YamlInputError) throw new InputError(`config file ${path}: ${e.message}`);
      throw e;
    }
  } else {
    try {
      data = JSON.parse(text);
    } catch (e) {
      const message = (e as Error).message.replace(/ in JSON at position \d+$/, '');
      throw new InputError(`config file ${path}: not valid JSON at ${lineColumn(text, jsonErrorPosition(text))}: ${message}`);
    }
  }
  // A document nested thousands deep would overflow the stack of whatever walks it next.
  try {
    checkValueDepth(data, `config file ${path}`);
  } catch (e) {
    if (e instanceof JsonInputError) throw new InputError(`config file ${path}: ${e.message.replace(`config file ${path}`, '').replace(/^[: ]+/, '')}`);
    throw e;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new InputError(`config file ${path}: must hold an object with fields ${CONFIG_FIELDS.join(', ')}`);
  const unknown = Object.keys(data).filter((k) => !(CONFIG_FIELDS as readonly string[]).includes(k));
  if (unknown.length)
    throw new InputError(`config file ${path}: unknown field ${unknown.map((k) => `"${k}"`).join(', ')} (known: ${CONFIG_FIELDS.join(', ')})`);
  return data as Record<string, unknown>;
}

/** The problem config from --track, --n and the optional file, which overrides the track's defaults. */
export function buildConfig(track: TrackName | undefined, n: number | undefined, file: Record<string, unknown> | null, fileName = 'config file'): DiceConfig {
  if (file && track && file.objectives !== undefined && JSON.stringify(file.objectives) !== JSON.stringify(TRACK_OBJECTIVES[track]))
    throw new UsageError(`--track ${track} conflicts with the objectives in ${fileName}; give one of them`);
  if (file && n !== undefined && file.n !== undefined && file.n !== n)
    throw new UsageError(`--n ${n} conflicts with n = ${JSON.stringify(file.n)} in ${fileName}; give one of them`);
  if (!track && file?.objectives === undefined)
    throw new UsageError(`--track is required (one of ${TRACK_NAMES.join(', ')}) unless the config file has "objectives"`);
  if (n === undefined && file?.n === undefined) throw new UsageError('--n is required unless the config file has "n"');
  try {
    return diceConfig({ track: track ?? 'so', ...(file ?? {}), n: (n ?? file?.n) as number });
  } catch (e) {
    if (e instanceof ConfigError) throw new InputError(`${fileName}: ${e.message}`);
    throw e;
  }
}

/** The printed form of a result: every value recomputed by a full evaluation of x. */
export function printedResult(result: SolverResult, config: DiceConfig, seed: number): PrintedResult {
  const evaluator = new DiceEvaluator(config);
  const solution = (s: { x: string }): PrintedSolution => {
    const e = evaluator.evaluate(s.x);
    return { x: s.x, objectives: e.objectives, constraints: e.constraints, feasible: e.feasible };
  };
  const single = config.objectives.length === 1;
  return {
    solver: result.solver,
    track: trackOf(config.objectives) ?? 'custom',
    n: config.n,
    seed,
    evaluations: result.evaluations,
    seconds: result.seconds,
    success: result.success,
    message: result.message,
    best: single && result.best ? solution(result.best) : null,
    bestFoundAt: single && result.best ? result.bestFoundAt : null,
    front: single ? [] : result.front.map(solution),
  };
}

function formatValue(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toPrecision(6).replace(/\.?0+$/, '');
}

function abbreviate(x: string, width = 72): string {
  return x.length <= width ? x : `${x.slice(0, width - 12)}... (${x.length} digits)`;
}

function humanReport(printed: PrintedResult, info: SolverInfo, params: Record<string, ParamValue>, program?: ProgramSpec): string[] {
  const lines = [
    program
      ? `solver       ${info.name} (program: ${formatCommand(program.command)}${program.blind ? ', blind' : ''})`
      : `solver       ${info.name} (${info.title})${Object.keys(params).length ? `  ${formatParams(params)}` : ''}`,
    `problem      track ${printed.track}, N = ${printed.n}, seed ${printed.seed}`,
    `evaluations  ${printed.evaluations.toLocaleString('en-US')} in ${printed.seconds.toFixed(2)} s`,
    `result       ${printed.success ? 'success' : 'no success'}: ${printed.message}`,
  ];
  if (printed.best) {
    const b = printed.best;
    const found =
      printed.bestFoundAt === null
        ? ''
        : `, found at evaluation ${printed.bestFoundAt.toLocaleString('en-US')} of ${printed.evaluations.toLocaleString('en-US')}`;
    lines.push(
      `best         f = ${formatValue(b.objectives[0])}, ${b.feasible ? 'feasible' : `infeasible (g = ${b.constraints.map(formatValue).join(', ')})`}${found}`,
    );
    lines.push(`x            ${abbreviate(b.x)}`);
  }
  if (printed.front.length) {
    lines.push(`front        ${printed.front.length} feasible non-dominated solutions (objectives; x abbreviated, full x with --json or --out):`);
    for (const s of printed.front) lines.push(`  (${s.objectives.map(formatValue).join(', ')})  ${abbreviate(s.x, 40)}`);
  }
  return lines;
}

/** A one-line progress bar redrawn in place on a terminal. */
class ProgressBar {
  private drawn = false;
  constructor(
    private readonly io: CliIo,
    private readonly single: boolean,
  ) {}
  draw(s: Snapshot): void {
    const width = 24;
    const filled = Math.round(s.progress * width);
    const bar = '#'.repeat(filled) + '-'.repeat(width - filled);
    let status: string;
    if (this.single) status = s.best ? `best f ${formatValue(s.best.objectives[0])}${s.best.feasible ? '' : ' (infeasible)'}` : '';
    else status = s.front.length ? `front ${s.front.length}` : s.best ? 'no feasible yet' : '';
    this.io.stderr.write(
      `\r[${bar}] ${(s.progress * 100).toFixed(0).padStart(3)}%  ${s.evaluations.toLocaleString('en-US')} evals  ${s.seconds.toFixed(1)} s  ${status}${s.paused ? '  paused' : ''}\x1b[K`,
    );
    this.drawn = true;
  }
  clear(): void {
    if (this.drawn) this.io.stderr.write('\r\x1b[K');
    this.drawn = false;
  }
}

/** What --out records as "hvNormalisation": the normalisation and what trace[].indicator is (null for SO). */
export interface OutFileNormalisation extends HvNormalisation {
  indicator: string;
}

export function outFileNormalisation(norm: HvNormalisation | null): OutFileNormalisation | null {
  if (!norm) return null;
  const m = norm.ideal.length;
  const indicator =
    m <= TRACE_HYPERVOLUME_MAX_OBJECTIVES
      ? 'trace[].indicator: hypervolume of the feasible non-dominated front, objectives normalised as (f - ideal) / (nadir - ideal), against the reference point (higher is better; null before the first feasible solution)'
      : `trace[].indicator: hypervolume of the feasible non-dominated front as for M <= ${TRACE_HYPERVOLUME_MAX_OBJECTIVES}, but for M = ${m} recorded only at the first trace point after ${INDICATOR_FIRST_AT} evaluations, after each doubling of the evaluations, and at the last point (null elsewhere)`;
  return { indicator, ideal: norm.ideal, nadir: norm.nadir, reference: norm.reference, method: norm.method };
}

/** The program solver of --command and its options, checked as a spec entry is; null without --command. */
function programOption(values: Record<string, string | string[] | boolean | undefined>, cwd: string): { name: string; spec: ProgramSpec } | null {
  const command = values.command as string | undefined;
  if (command === undefined) {
    for (const option of ['name', 'blind', 'env', 'cwd', 'grace', 'timeout'])
      if (values[option] !== undefined) throw new UsageError(`--${option} applies to a program solver: give --command too`);
    return null;
  }
  if (values.solver !== undefined) throw new UsageError('--solver and --command both name the solver: give one of them');
  if (values.param !== undefined) throw new UsageError("--param sets a built-in solver's parameters; a program takes its options in --command");
  let argv: string[];
  try {
    argv = splitCommandLine(command);
  } catch (e) {
    if (e instanceof CommandLineError) throw new UsageError(`--command: ${e.message}`);
    throw e;
  }
  const env: Record<string, string> = {};
  for (const pair of (values.env as string[] | undefined) ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--env: expected NAME=VALUE, got ${JSON.stringify(pair)}`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const seconds = (option: 'grace' | 'timeout') =>
    values[option] === undefined ? undefined : numberOption(option, values[option] as string, 0, { min: 0.001, max: 86_400 });
  const name = (values.name as string | undefined) ?? defaultProgramName(argv);
  if (!isName(name)) throw new UsageError(`--name: ${NAME_RULE}, got ${JSON.stringify(name)}`);
  try {
    const spec = checkProgramSpec(
      {
        command: argv,
        cwd: resolve(cwd, (values.cwd as string | undefined) ?? '.'),
        ...(Object.keys(env).length ? { env } : {}),
        ...(values.blind ? { blind: true } : {}),
        grace: seconds('grace'),
        timeout: seconds('timeout'),
      },
      '',
    );
    return { name, spec };
  } catch (e) {
    if (e instanceof ProgramSpecError) throw new UsageError(`--${e.field.replace(/\[.*$/, '').replace(/\..*$/, '')}: ${e.rule}`);
    throw e;
  }
}

export interface SolveDependencies {
  /** How the worker is started (tests may pass their own). */
  spawn?: WorkerSpawner;
}

export function createSolveCommand(deps: SolveDependencies = {}): Command {
  return {
    name: 'solve',
    async run(argv, io) {
      const { values } = parseCommandArgs(argv, solveHelp);
      const program = programOption(values, io.cwd);
      if (values.track !== undefined && !(TRACK_NAMES as string[]).includes(values.track))
        throw new UsageError(`--track: expected one of ${TRACK_NAMES.join(', ')}, got "${values.track}"`);
      const track = values.track as TrackName | undefined;
      const n = values.n === undefined ? undefined : numberOption('n', values.n, 0, { integer: true, min: 1, max: MAX_N });
      if (values.evals === undefined) throw new UsageError('--evals is required (the evaluation budget)');
      const evals = numberOption('evals', values.evals, 0, { integer: true, min: 1, max: Number.MAX_SAFE_INTEGER });
      if (values.seed === undefined) throw new UsageError('--seed is required (the same seed gives the same result)');
      // Seeds from 0 to 2^53 - 1, as experiment specs take them; each gives its own stream.
      const seed = numberOption('seed', values.seed, 0, { integer: true, min: 0, max: Number.MAX_SAFE_INTEGER });

      const file = values.config === undefined ? null : await readConfigFile(values.config, io.cwd);
      const config = buildConfig(track, n, file, values.config);
      // --out: a .json file that may be written (output-target.ts), checked before the run and again after it.
      if (values.out !== undefined && extname(values.out).toLowerCase() !== '.json')
        throw new UsageError(`--out ${values.out}: the result is a .json file (its ending must be .json)`);
      if (values.force && values.out === undefined) throw new UsageError('--force goes with --out');
      const checkOut = () => {
        const refusal = values.out === undefined ? null : refusalToWrite(resolve(io.cwd, values.out), { force: values.force === true });
        if (refusal) throw new InputError(`--out ${values.out}: ${refusal}; nothing was written`);
      };
      checkOut();
      const memoryLimitMb =
        values['memory-limit'] === undefined ? undefined : numberOption('memory-limit', values['memory-limit'], 0, { integer: true, min: 64, max: 1_048_576 });

      let plan: DiceRunPlan;
      try {
        plan = planDiceRun({
          config,
          solver: program ? program.name : values.solver,
          ...(program ? { program: program.spec } : {}),
          params: parseParamPairs(values.param ?? []),
          seed,
          evaluations: evals,
          wholeBudget: values['whole-budget'] ?? false,
          memoryLimitMb,
          workerMemoryLimitMb: defaultMemoryLimitMb(1),
        });
      } catch (e) {
        if (e instanceof MemoryLimitError) throw new InputError(`${e.message} (--memory-limit MB sets it)`);
        if (e instanceof SolverError || e instanceof ParamError)
          throw new UsageError(
            e.message
              .replace(/^solver \S+: /, `--param: `)
              .replace(/^unknown solver/, '--solver: unknown solver')
              .replace(/this problem has/, `track ${trackOf(config.objectives) ?? 'custom'} has`),
          );
        throw e;
      }
      const { info } = plan;
      const params = plan.started.params;
      const launcher = new Launcher({ spawn: deps.spawn ?? nodeSpawner(), parallelism: 1, memoryLimitMb });
      const bar = io.stderrIsTTY ? new ProgressBar(io, plan.started.objectiveCount === 1) : null;
      let interrupted = false;
      const onSigint = () => {
        interrupted = true;
        run.cancel();
      };
      // MO: the normalisation of the trace's hypervolume, computed in a worker process (not in
      // this one: minutes at N = 10^7, under the worker's memory limit) and given to the run, so
      // the one written to --out is the one the worker used.
      if (plan.started.objectiveCount >= 2 && plan.request.traceHypervolume !== false) {
        try {
          plan = withHvNormalisation(plan, await hvNormalisationFor(launcher, config));
        } catch (e) {
          launcher.dispose();
          writeLine(io.stderr, `saikoro solve: the normalisation of the hypervolume failed: ${(e as Error).message}`);
          return 1;
        }
      }
      const hvNormalisation = plan.started.hvNormalisation;
      // A program passes the program gate (what will really run: the executable on its PATH, its cwd).
      try {
        plan = await commandLineGate().admit(plan, { project: null, folder: io.cwd, action: 'saikoro solve' });
      } catch (e) {
        launcher.dispose();
        if (e instanceof ProgramResolveError) throw new InputError(`--${e.field === 'cwd' ? 'cwd' : 'command'}: ${e.message}`);
        throw e;
      }
      const unsandboxed = plan.request.program ? sandboxWarning() : null;
      if (unsandboxed) writeLine(io.stderr, unsandboxed);
      const run = launcher.start(plan);
      const snapshots = bar ? run.onSnapshot((s) => bar.draw(s)) : null;
      process.once('SIGINT', onSigint);
      let outcome;
      try {
        outcome = await run.outcome;
      } finally {
        process.off('SIGINT', onSigint);
        snapshots?.dispose();
        bar?.clear();
        launcher.dispose();
      }
      // A failed run may carry what it evaluated before it failed (a competition scores that): it is still a failure.
      if (!outcome.result || outcome.status === 'failed') {
        writeLine(io.stderr, `saikoro solve: the run ${outcome.status}: ${outcome.reason}`);
        return interrupted ? 130 : 1;
      }
      const printed = printedResult(outcome.result, config, seed);
      if (values.out !== undefined) {
        const { program: ran, log } = outcome.result;
        const record = {
          ...printed,
          ...(ran ? { program: ran, log } : {}),
          params: outcome.result.params,
          termination: outcome.result.termination,
          stopReason: outcome.result.stopReason,
          config,
          firstFeasibleAt: outcome.result.firstFeasibleAt,
          hvNormalisation: outFileNormalisation(hvNormalisation),
          trace: outcome.result.trace,
          traceExact: outcome.result.traceExact === true,
          ...(outcome.result.frontLog ? { frontLog: outcome.result.frontLog } : {}),
        };
        checkOut();
        try {
          writeFilesAtomically([{ path: resolve(io.cwd, values.out), content: JSON.stringify(record, null, 2) + '\n' }]);
        } catch (e) {
          if (!(e instanceof WriteFilesError)) throw e;
          throw new InputError(`cannot write --out ${values.out}: ${e.code === 'ENOSPC' ? 'the disk is full' : e.message}; nothing was written`);
        }
      }
      if (values.json) writeLine(io.stdout, JSON.stringify(printed));
      else for (const line of humanReport(printed, info, params, program?.spec)) writeLine(io.stdout, line);
      return interrupted ? 130 : 0;
    },
  };
}

export const solveCommand: Command = createSolveCommand();
