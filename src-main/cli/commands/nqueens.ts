import { InputError, numberOption, parseCommandArgs, UsageError, writeLine, type CliIo, type Command } from '../command.ts';
import { nqueensHelp } from './nqueens.help.ts';
import { defaultNeuralParams, slidesNeuralParams, validateNeuralParams, type NeuralParams } from '../../../src-shared/problems/nqueens/neural.ts';
import {
  defaultMinConflictsParams,
  MAX_MINCONFLICTS_N,
  validateMinConflictsParams,
  type MinConflictsParams,
} from '../../../src-shared/problems/nqueens/minconflicts.ts';
import { frameworkParams } from '../../../src-shared/problems/nqueens/request.ts';
import { RunController } from '../../../src-shared/core/control.ts';
import type { NqueensSnapshot } from '../../../src-shared/runtime/kinds/index.ts';
import { Launcher, runInProcess } from '../../app/launcher.ts';
import { nqueensLabRun, planNqueensRun } from '../../app/nqueens.ts';
import type { NqueensResult } from '../../../src-shared/runtime/kinds/index.ts';
import type { RunOutcome } from '../../host/pool.ts';
import { nodeSpawner, type WorkerSpawner } from '../../host/spawner.ts';
import { ProjectError } from '../../project/errors.ts';
import type { Project } from '../../project/store.ts';
import { openProject } from './project.ts';

const NEURAL_ONLY = ['A', 'B', 'C', 'kick', 'kick-every', 'kick-length', 'threshold', 'update', 'clamp', 'preset'] as const;
const MINCONFLICTS_ONLY = ['samples', 'greedy-tries', 'noise'] as const;

/** What `--json` prints of a run (the queens written by toJson). */
interface NqueensOutcome {
  n: number;
  method: 'neural' | 'minconflicts';
  solved: boolean;
  steps: number;
  seconds: number;
  queens: ArrayLike<number> | null;
  params: NeuralParams | MinConflictsParams;
  failure?: string;
}
/** Boards up to this size are drawn; larger ones print the column list. */
const BOARD_MAX = 40;
const LIST_MAX = 1000;

function neuralParams(n: number, v: Record<string, string | boolean | undefined>): NeuralParams {
  const preset = (v.preset as string | undefined) ?? 'default';
  if (preset !== 'default' && preset !== 'slides') throw new UsageError(`--preset: expected "default" or "slides", got "${preset}"`);
  const base = preset === 'slides' ? slidesNeuralParams(n) : defaultNeuralParams(n);
  const num = (name: string, fallback: number, opts: { integer?: boolean; min?: number } = {}) =>
    numberOption(name, v[name] as string | undefined, fallback, opts);
  const everyText = v['kick-every'] as string | undefined;
  const every = everyText === 'auto' ? 'auto' : num('kick-every', typeof base.kick.every === 'number' ? base.kick.every : 0, { integer: true, min: 0 });
  const update = (v.update as string | undefined) ?? base.update;
  if (update !== 'sync' && update !== 'seq') throw new UsageError(`--update: expected "sync" or "seq", got "${update}"`);
  const p: NeuralParams = {
    ...base,
    A: num('A', base.A),
    B: num('B', base.B),
    C: num('C', base.C, { min: 0 }),
    kick: {
      value: num('kick', base.kick.value, { min: 0 }),
      every: everyText === undefined ? base.kick.every : every,
      length: num('kick-length', base.kick.length, { integer: true, min: 0 }),
    },
    threshold: num('threshold', base.threshold),
    update,
    clamp: num('clamp', base.clamp, { min: 0 }),
    maxSteps: num('max-steps', base.maxSteps, { integer: true, min: 1 }),
  };
  try {
    validateNeuralParams(p);
  } catch (e) {
    throw new UsageError(optionName((e as Error).message));
  }
  return p;
}

function minConflictsParams(n: number, v: Record<string, string | boolean | undefined>): MinConflictsParams {
  const base = defaultMinConflictsParams(n);
  const num = (name: string, fallback: number, opts: { integer?: boolean; min?: number; max?: number } = {}) =>
    numberOption(name, v[name] as string | undefined, fallback, opts);
  const p: MinConflictsParams = {
    ...base,
    samples: num('samples', base.samples, { integer: true, min: 1 }),
    greedyTries: num('greedy-tries', base.greedyTries, { integer: true, min: 1 }),
    noise: num('noise', base.noise, { min: 0, max: 1 }),
    maxSteps: num('max-steps', base.maxSteps, { integer: true, min: 1 }),
  };
  try {
    validateMinConflictsParams(p);
  } catch (e) {
    throw new UsageError(optionName((e as Error).message));
  }
  return p;
}

/** "kick.length: ..." -> "--kick-length: ..." so errors name the option the user typed. */
function optionName(message: string): string {
  const map: Record<string, string> = {
    n: 'n',
    A: 'A',
    B: 'B',
    C: 'C',
    'kick.value': 'kick',
    'kick.every': 'kick-every',
    'kick.length': 'kick-length',
    threshold: 'threshold',
    update: 'update',
    maxSteps: 'max-steps',
    clamp: 'clamp',
    samples: 'samples',
    greedyTries: 'greedy-tries',
    noise: 'noise',
  };
  const m = /^([\w.]+): (.*)$/s.exec(message);
  return m && map[m[1]] ? `--${map[m[1]]}: ${m[2]}` : message;
}

/** A text board: Q for a queen, . elsewhere, one row per line. */
export function drawBoard(queens: ArrayLike<number>): string {
  const n = queens.length;
  const lines: string[] = [];
  for (let r = 0; r < n; r++) lines.push(Array.from({ length: n }, (_, c) => (queens[r] === c ? 'Q' : '.')).join(' '));
  return lines.join('\n');
}

/** JSON with the queen list written by join, so N = 10^7 never builds a 10^7-element array. */
function toJson(o: NqueensOutcome): string {
  const queens = o.queens === null ? 'null' : `[${Array.prototype.join.call(o.queens, ',')}]`;
  const head = JSON.stringify({ n: o.n, method: o.method, solved: o.solved, steps: o.steps, seconds: o.seconds });
  const tail = JSON.stringify({ params: o.params, ...(o.failure ? { failure: o.failure } : {}) });
  return `${head.slice(0, -1)},"queens":${queens},${tail.slice(1)}`;
}

/** A one-line progress display redrawn in place on a terminal. */
function progressLine(io: CliIo, s: NqueensSnapshot): void {
  const energy = s.energy !== undefined ? `  energy ${Number.isInteger(s.energy) ? s.energy : s.energy.toFixed(1)}` : '';
  io.stderr.write(
    `\r${s.steps.toLocaleString('en-US')} steps  ${s.queens.toLocaleString('en-US')} queens  ${s.conflicts.toLocaleString('en-US')} conflicts${energy}  ${s.seconds.toFixed(1)} s${s.paused ? '  paused' : ''}\x1b[K`,
  );
}

export interface NqueensDependencies {
  /** How the worker is started (tests may pass their own). */
  spawn?: WorkerSpawner;
}

export function createNqueensCommand(deps: NqueensDependencies = {}): Command {
  return {
    name: 'nqueens',
    async run(argv, io) {
      const { values } = parseCommandArgs(argv, nqueensHelp);
      if (values.n === undefined) throw new UsageError('--n is required (the board size)');
      const method = values.method ?? 'neural';
      if (method !== 'neural' && method !== 'minconflicts') throw new UsageError(`--method: expected "neural" or "minconflicts", got "${method}"`);
      const misplaced = (method === 'neural' ? MINCONFLICTS_ONLY : NEURAL_ONLY).filter((k) => values[k] !== undefined);
      if (misplaced.length) throw new UsageError(`--${misplaced[0]} does not apply to --method ${method}`);
      const n = numberOption('n', values.n, 0, { integer: true, min: 1, max: method === 'neural' ? 4000 : MAX_MINCONFLICTS_N });
      const seed = numberOption('seed', values.seed, 1, { integer: true, min: -(2 ** 31), max: 2 ** 31 - 1 });
      const params = method === 'neural' ? neuralParams(n, values) : minConflictsParams(n, values);
      if (!values.json && n >= 100_000) writeLine(io.stderr, `nqueens: ${method}, N = ${n.toLocaleString('en-US')}...`);

      // Checked as the app checks a start request (the options above are within its limits).
      const plan = planNqueensRun({ kind: 'nqueens', method, n, params: frameworkParams(method, params), seed });
      const { request } = plan;
      // Opened before the run, so a missing or refused project file fails at once (exit 1).
      const project = values.project !== undefined ? openProject(values.project, io) : null;
      const refusal = project?.writeRefusal();
      if (project && refusal) {
        project.close();
        throw new InputError(`${values.project}: cannot store a run there: ${refusal}; nothing was run`);
      }
      try {
        return await execute();
      } finally {
        project?.close();
      }

      async function execute(): Promise<number> {
        const startedAt = new Date();
        const started = performance.now();
        let drawn = false;
        const onSnapshot = io.stderrIsTTY
          ? (s: NqueensSnapshot) => {
              progressLine(io, s);
              drawn = true;
            }
          : null;
        let interrupted = false;
        let cancel = () => {};
        const onSigint = () => {
          interrupted = true;
          cancel();
        };
        process.once('SIGINT', onSigint);
        let outcome: RunOutcome<NqueensResult>;
        try {
          if (values.inline) {
            const control = new RunController();
            cancel = () => control.cancel();
            outcome = await runInProcess(plan, { onSnapshot: onSnapshot ?? undefined, control });
          } else {
            const launcher = new Launcher({ spawn: deps.spawn ?? nodeSpawner(), parallelism: 1 });
            try {
              const run = launcher.start(plan);
              cancel = () => run.cancel();
              if (onSnapshot) run.onSnapshot(onSnapshot);
              outcome = await run.outcome;
            } finally {
              launcher.dispose();
            }
          }
        } finally {
          process.off('SIGINT', onSigint);
          if (drawn) io.stderr.write('\r\x1b[K');
        }
        const elapsedMs = performance.now() - started;
        const r = outcome.result;
        if (!r) {
          writeLine(io.stderr, `saikoro nqueens: the run ${outcome.status}: ${outcome.reason}`);
          if (project) storeRun(project, outcome, startedAt, elapsedMs);
          return interrupted ? 130 : 1;
        }
        const o: NqueensOutcome = {
          n,
          method: request.method,
          solved: r.solved,
          steps: r.steps,
          seconds: r.seconds,
          queens: r.queens,
          params,
          ...(r.failure !== undefined ? { failure: r.failure } : {}),
        };
        const cancelled = r.stopReason === 'cancelled';
        if (values.json) {
          writeLine(io.stdout, toJson(o));
        } else {
          const time = `${o.seconds.toFixed(3)} s`;
          if (o.solved && o.queens) {
            writeLine(io.stdout, `Solved N = ${n} with ${method} (seed ${seed}) in ${o.steps} steps, ${time}; verified.`);
            if (n <= BOARD_MAX) writeLine(io.stdout, '\n' + drawBoard(o.queens));
            if (n <= LIST_MAX) writeLine(io.stdout, `\nqueens (column per row, 0-based): ${Array.prototype.join.call(o.queens, ' ')}`);
            else
              writeLine(
                io.stdout,
                `queens (column per row, 0-based), first 20: ${Array.prototype.slice.call(o.queens, 0, 20).join(' ')} ... (use --json for all)`,
              );
          } else if (cancelled) {
            writeLine(io.stdout, `Not solved: N = ${n} with ${method} (seed ${seed}) cancelled after ${o.steps} steps, ${time}.`);
          } else {
            writeLine(
              io.stdout,
              `Not solved: N = ${n} with ${method} (seed ${seed}) stopped at the step limit after ${o.steps} steps, ${time}${o.failure ? `; failure mode: ${o.failure}` : ''}.`,
            );
          }
        }
        if (project) storeRun(project, outcome, startedAt, elapsedMs);
        return interrupted ? 130 : o.solved ? 0 : 1;
      }

      /** Stores a finished (done or failed) run; a cancelled one is not a result. */
      function storeRun(project: Project, outcome: RunOutcome<NqueensResult>, startedAt: Date, elapsedMs: number): void {
        const file = values.project!;
        if (outcome.status === 'cancelled') {
          writeLine(io.stderr, `nqueens: not stored in ${file}: the run was cancelled`);
          return;
        }
        const record = nqueensLabRun(request, { ...outcome, status: outcome.status }, startedAt.toISOString(), elapsedMs);
        let stored: boolean;
        try {
          stored = project.putLabRun(record);
        } catch (e) {
          if (e instanceof ProjectError) throw new InputError(`${file}: could not store the run (${e.message.replaceAll(project.path, file)})`);
          throw e;
        }
        writeLine(
          io.stderr,
          stored ? `nqueens: stored in ${file} (lab run ${record.id})` : `nqueens: already stored in ${file} (lab run ${record.id}); kept the stored run`,
        );
      }
    },
  };
}

export const nqueensCommand: Command = createNqueensCommand();
