import path from 'node:path';
import { InputError, numberOption, parseCommandArgs, readAll, UsageError, writeLine, type CliIo, type Command } from '../command.ts';
import { competitionHelp } from './competition.help.ts';
import { formatCommand } from '../../../src-shared/solvers/program/protocol.ts';
import { openProject, openShardResults, projectInputError, runOptions } from './project.ts';
import { buildCompetitionReport } from '../../report/competition.ts';
import { renderEcdfCsv, renderStandingsCsv, renderStandingsHtml, renderStandingsLatex, standingsText } from '../../report/competition-render.ts';
import { refusalToWrite } from '../../report/output-target.ts';
import { writeFilesAtomically, WriteFilesError } from '../../report/write-files.ts';
import { checkInterpreters, competitionRunPlan, extractEntrants, isolationSummary, sandboxRefusal, type ExtractedEntrants } from '../../app/competition-run.ts';
import { hostExecutor, type Admission } from '../../app/experiment-executor.ts';
import { commandLineGate } from '../../app/program-gate.ts';
import { defaultParallelism } from '../../host/pool.ts';
import { defaultMemoryLimitMb } from '../../host/memory-limit.ts';
import { addExperiment } from '../../experiments/add.ts';
import { plannedRuns, runExperiment, runThatCannotFit, type Executor, type ProgressEvent } from '../../experiments/runner.ts';
import type { Project } from '../../project/store.ts';
import { TRACK_NAMES, type TrackName } from '../../../src-shared/problems/dice/config.ts';
import {
  CompetitionError,
  MAX_COMPETITION_EVALUATIONS,
  MAX_COMPETITION_SEEDS,
  type CompetitionDefinition,
} from '../../../src-shared/competition/competition.ts';
import { MAX_INSTANCES, SuiteError } from '../../../src-shared/competition/suite.ts';
import {
  checkRevealSecret,
  competitionOf,
  createCompetitionFile,
  enterBuiltIn,
  enterProgram,
  enterRemote,
  issueEntrantToken,
  listProblems,
  revealCompetition,
  revokeEntrantTokens,
} from '../../app/competition.ts';
import { endRemoteRuns } from '../../app/competition-service.ts';
import { RemoteLogError } from '../../project/remote-log.ts';
import { boundedHvNormaliser } from '../../app/dice.ts';
import { Launcher } from '../../app/launcher.ts';
import { nodeSpawner } from '../../host/spawner.ts';
import { ProjectError } from '../../project/errors.ts';

type Values = Record<string, string | boolean | undefined>;

const ACTIONS = ['new', 'enter', 'run', 'standings', 'problems', 'reveal', 'token'] as const;

/** The competition's own errors are bad input (exit 1), with the file as the user wrote it. */
function asInput(e: unknown, io: CliIo, file: string): unknown {
  if (e instanceof ProjectError) return projectInputError(e, io, file);
  if (e instanceof CompetitionError || e instanceof SuiteError) return new InputError(e.message.replaceAll(path.resolve(io.cwd, file), file));
  return e;
}

function allowed(action: string, values: Values, names: readonly string[]): void {
  for (const [key, value] of Object.entries(values))
    if (value !== undefined && !names.includes(key)) throw new UsageError(`competition ${action}: --${key} does not go with ${action}`);
}

/** A comma-separated list option, each item through `each`. */
function listOption<T>(name: string, value: string | boolean | undefined, each: (item: string) => T): T[] {
  if (typeof value !== 'string') throw new UsageError(`competition new: missing --${name}`);
  const items = value.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw new UsageError(`--${name}: expected a comma-separated list, got "${value}"`);
  return items.map(each);
}

/** --secret TEXT, or `-`: the first line of stdin. */
async function secretOption(action: string, values: Values, io: CliIo): Promise<string> {
  if (typeof values.secret !== 'string') throw new UsageError(`competition ${action}: missing --secret TEXT`);
  if (values.secret !== '-') return values.secret;
  const text = await readAll(io.stdin, { limitBytes: 64 * 1024 });
  return text.split(/\r?\n/)[0];
}

async function newAction(file: string, values: Values, io: CliIo): Promise<number> {
  allowed('new', values, ['tracks', 'n', 'instances', 'with-public', 'budget', 'seeds', 'secret']);
  const tracks = listOption('tracks', values.tracks, (t) => {
    if (!(TRACK_NAMES as readonly string[]).includes(t)) throw new UsageError(`--tracks: unknown track "${t}" (known: ${TRACK_NAMES.join(', ')})`);
    return t as TrackName;
  });
  const ns = listOption('n', values.n, (n) => numberOption('n', n, 0, { integer: true, min: 1, max: 10_000_000 }));
  for (const [name, v] of [
    ['instances', values.instances],
    ['budget', values.budget],
    ['seeds', values.seeds],
  ] as const)
    if (v === undefined) throw new UsageError(`competition new: missing --${name}`);
  const definition: CompetitionDefinition = {
    tracks,
    ns,
    instances: numberOption('instances', values.instances as string, 0, { integer: true, min: 0, max: MAX_INSTANCES }),
    withPublic: values['with-public'] === true,
    evaluations: numberOption('budget', values.budget as string, 0, { integer: true, min: 1, max: MAX_COMPETITION_EVALUATIONS }),
    seeds: numberOption('seeds', values.seeds as string, 0, { integer: true, min: 1, max: MAX_COMPETITION_SEEDS }),
  };
  const secret = await secretOption('new', values, io);
  let launcher: Launcher | null = null;
  const normalise = boundedHvNormaliser(() => (launcher ??= new Launcher({ spawn: nodeSpawner(), parallelism: 1 })));
  try {
    const competition = await createCompetitionFile(path.resolve(io.cwd, file), definition, secret, normalise);
    const hidden = competition.problems.filter((p) => p.hidden).length;
    writeLine(
      io.stdout,
      `created competition ${file}: ${competition.problems.length} problem(s) (${hidden} hidden), ${definition.evaluations} evaluations x ${definition.seeds} seed(s) per problem and entrant`,
    );
    writeLine(io.stderr, 'keep the secret until the reveal: the file holds only a commitment to it');
    return 0;
  } catch (e) {
    throw asInput(e, io, file);
  } finally {
    (launcher as Launcher | null)?.dispose();
  }
}

async function enterAction(file: string, values: Values, io: CliIo): Promise<number> {
  allowed('enter', values, ['name', 'solver', 'remote', 'dir', 'command']);
  if (values.name === undefined) throw new UsageError('competition enter: missing --name NAME');
  const kinds = [
    values.solver !== undefined && '--solver',
    values.remote && '--remote',
    (values.dir !== undefined || values.command !== undefined) && '--dir/--command',
  ].filter(Boolean);
  if (kinds.length > 1)
    throw new UsageError(`competition enter: ${kinds.join(' and ')} contradict each other (an entrant is a built-in solver, a program, or remote)`);
  if (kinds.length === 0) throw new UsageError('competition enter: give --solver BUILTIN (or default), --dir DIR --command "CMD ARGS", or --remote');
  if ((values.dir === undefined) !== (values.command === undefined))
    throw new UsageError(
      `competition enter: ${values.dir === undefined ? '--command needs --dir DIR (the folder it runs in)' : '--dir needs --command "CMD ARGS" (what runs in it)'}`,
    );
  const project = openProject(file, io);
  try {
    if (values.remote) {
      const entrant = enterRemote(project, values.name);
      writeLine(
        io.stdout,
        `entered ${entrant.name}: remote (it plays over the network against saikoro serve --competition; give it a token: saikoro competition token ${file} --entrant ${entrant.name})`,
      );
      return 0;
    }
    if (values.dir !== undefined) {
      const entrant = enterProgram(project, values.name, path.resolve(io.cwd, values.dir as string), values.command as string, { shown: values.dir as string });
      if (entrant.entry.kind !== 'program') return 1;
      const { folder, interpreter } = entrant.entry;
      writeLine(
        io.stdout,
        `entered ${entrant.name}: program ${formatCommand(entrant.entry.command)}, blind, in a copy of ${values.dir} (${folder.files} file(s), ${folder.bytes} bytes, sha256 ${folder.sha256.slice(0, 16)}...)${interpreter ? `; ${interpreter.command} is ${interpreter.path}${interpreter.version ? ` (${interpreter.version})` : ''}` : ''}`,
      );
      return 0;
    }
    const entrant = enterBuiltIn(project, values.name, values.solver);
    writeLine(io.stdout, `entered ${entrant.name}: built-in solver ${values.solver}, blind`);
    return 0;
  } catch (e) {
    throw asInput(e, io, file);
  } finally {
    project.close();
  }
}

/**
 * A remote entrant's token, alone on stdout (printed once: the file keeps only its sha256), or
 * with --revoke no token: its valid one is revoked.
 */
async function tokenAction(file: string, values: Values, io: CliIo): Promise<number> {
  allowed('token', values, ['entrant', 'revoke']);
  if (values.entrant === undefined) throw new UsageError('competition token: missing --entrant NAME');
  const project = openProject(file, io);
  try {
    if (values.revoke) {
      const revoked = revokeEntrantTokens(project, values.entrant);
      writeLine(io.stderr, revoked ? `revoked ${values.entrant}'s token: a running server refuses it within a second` : `${values.entrant} had no valid token`);
      return 0;
    }
    const { entrant, token } = issueEntrantToken(project, values.entrant);
    writeLine(io.stdout, token);
    writeLine(
      io.stderr,
      `the token of ${entrant}, printed this once (the file keeps only its sha256; an earlier token of ${entrant} no longer works). Revoke it with saikoro competition token ${file} --entrant ${entrant} --revoke`,
    );
    return 0;
  } catch (e) {
    throw asInput(e, io, file);
  } finally {
    project.close();
  }
}

function seconds(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`;
}

/**
 * Runs the competition's runs that are missing (failed ones too with --retry-failed): its
 * experiments through the executor `experiment run` uses, each run stored as it ends, so it
 * resumes after any interruption; --shard K/N into a results file for `saikoro merge`.
 */
async function runAction(file: string, values: Values, io: CliIo): Promise<number> {
  allowed('run', values, ['shard', 'out', 'jobs', 'memory-limit', 'retry-failed', 'json']);
  // Left out, --memory-limit gives each worker the host's default share, as experiment run does.
  const { jobs, memoryLimitMb, shard, shardOut } = runOptions(file, values, defaultParallelism());
  const project = openProject(file, io, shard ? { readOnly: true } : {});
  let target: Project = project;
  let extracted: ExtractedEntrants | null = null;
  let executor: Executor | null = null;
  let stop = false;
  const onSignal = () => {
    stop = true;
    writeLine(io.stderr, 'stopping after the runs in flight (Ctrl-C again to abort them)...');
    process.once('SIGINT', () => {
      executor?.dispose();
      extracted?.dispose();
      process.exit(130);
    });
  };
  process.once('SIGINT', onSignal);
  try {
    let plan;
    try {
      plan = competitionRunPlan(project);
    } catch (e) {
      throw asInput(e, io, file);
    }
    for (const spec of plan.specs) {
      const tooBig = runThatCannotFit(plannedRuns(spec), memoryLimitMb ?? defaultMemoryLimitMb(jobs));
      if (tooBig) throw new InputError(`track ${spec.name}: ${tooBig}`);
    }
    const folders = new Map<string, string>();
    if (plan.programs.length) {
      const refusal = sandboxRefusal();
      if (refusal)
        throw new InputError(`${file}: has ${plan.programs.length} program entrant(s) (${plan.programs.map((e) => e.name).join(', ')}) and ${refusal}`);
      writeLine(io.stderr, isolationSummary());
      try {
        extracted = extractEntrants(project, plan.programs);
        checkInterpreters(plan.programs, extracted.folders);
      } catch (e) {
        throw asInput(e, io, file);
      }
      for (const [name, folder] of extracted.folders) folders.set(name, folder);
    }
    const admission: Admission = { gate: commandLineGate(), context: { project: project.path, action: 'competition run', programFolders: folders } };
    executor = hostExecutor({ jobs, memoryLimitMb, admission });
    if (shard) {
      const out = shardOut;
      target = openShardResults(out, file, io);
      for (const spec of plan.specs) {
        try {
          addExperiment(target, spec);
        } catch (e) {
          throw asInput(e, io, out);
        }
      }
      writeLine(io.stderr, `shard ${shard.k}/${shard.n}: results go to ${out}`);
    }
    const retry = values['retry-failed'] === true;
    const summaries = [];
    let failed = 0;
    let interrupted = false;
    for (const spec of plan.specs) {
      if (stop) break;
      const summary = await runExperiment(plannedRuns(spec, shard), {
        executor,
        jobs,
        target,
        alsoDoneIn: shard ? [project] : [],
        failedAreFinal: !retry,
        shouldStop: () => stop,
        onProgress: (e: ProgressEvent) =>
          writeLine(
            io.stderr,
            `[${spec.name} ${e.finished}/${e.todo}] ${e.status === 'done' ? 'done  ' : 'FAILED'} ${e.run.instance} ${e.run.label} seed ${e.run.seed} in ${seconds(e.elapsedMs)}${e.error ? `: ${e.error}` : ''}`,
          ),
      });
      failed += summary.failed;
      // A run the program gate refused (an entrant's file changed) stops the track, stored as nothing.
      if (summary.refused !== null) writeLine(io.stderr, `${spec.name} stopped: ${summary.refused}; nothing was stored for its runs not run`);
      interrupted ||= summary.remaining > 0;
      summaries.push({ track: spec.name, ...summary });
      if (!values.json)
        writeLine(
          io.stdout,
          `${spec.name}: ${summary.total} runs${shard ? ` in shard ${shard.k}/${shard.n}` : ''}: ${summary.skipped} finished before, ${summary.done} done now, ${summary.failed} failed, ${summary.remaining} not run${summary.remote ? `, ${summary.remote} remote (played against saikoro serve --competition)` : ''}`,
        );
    }
    if (values.json) writeLine(io.stdout, JSON.stringify(summaries));
    if (failed) writeLine(io.stderr, `${failed} run(s) failed: each is scored on what it evaluated; --retry-failed runs them again`);
    if (interrupted) writeLine(io.stderr, 'interrupted: every finished run is stored; run the same command again to resume');
    return interrupted ? 1 : 0;
  } finally {
    process.removeListener('SIGINT', onSignal);
    executor?.dispose();
    extracted?.dispose();
    if (target !== project) target.close();
    project.close();
  }
}

/** The endings `standings --out` takes, and what each writes. */
const STANDINGS_OUTPUTS: Record<string, 'html' | 'csv' | 'latex' | 'json'> = {
  '.html': 'html',
  '.htm': 'html',
  '.csv': 'csv',
  '.tex': 'latex',
  '.json': 'json',
};

/** A file `standings` may write: a known ending (for --out), and nothing Saikoro must not replace. */
function outputPath(option: string, given: string, io: CliIo, force: boolean, endings: readonly string[]): string {
  const ending = path.extname(given).toLowerCase();
  if (!endings.includes(ending)) throw new UsageError(`--${option} ${given}: the ending must be one of ${endings.join(', ')}`);
  const full = path.resolve(io.cwd, given);
  const refusal = refusalToWrite(full, { force });
  if (refusal) throw new InputError(`--${option} ${given}: ${refusal}`);
  return full;
}

/**
 * The standings: every stored run scored again from its sequences with the exact evaluator,
 * ranked per problem, averaged over the suite, with Friedman and Holm; a table on stdout,
 * --json (the whole report), --out (HTML with the ECDF charts, CSV, LaTeX, JSON), --ecdf (CSV).
 */
async function standingsAction(file: string, values: Values, io: CliIo): Promise<number> {
  allowed('standings', values, ['json', 'out', 'ecdf', 'force']);
  const force = values.force === true;
  const out = typeof values.out === 'string' ? outputPath('out', values.out, io, force, Object.keys(STANDINGS_OUTPUTS)) : null;
  const ecdf = typeof values.ecdf === 'string' ? outputPath('ecdf', values.ecdf, io, force, ['.csv']) : null;
  if (out !== null && out === ecdf) throw new UsageError('--out and --ecdf name the same file');
  const project = openProject(file, io, { readOnly: true });
  let report;
  try {
    report = buildCompetitionReport(project, competitionOf(project));
  } catch (e) {
    throw asInput(e, io, file);
  } finally {
    project.close();
  }
  if (report.standings.length === 0) throw new InputError(`${file}: nobody has entered yet: no standings`);
  const files: { path: string; content: string }[] = [];
  if (out !== null) {
    const format = STANDINGS_OUTPUTS[path.extname(out).toLowerCase()];
    const content =
      format === 'html'
        ? renderStandingsHtml(report)
        : format === 'csv'
          ? renderStandingsCsv(report)
          : format === 'latex'
            ? renderStandingsLatex(report, { standalone: true })
            : `${JSON.stringify(report, null, 2)}\n`;
    files.push({ path: out, content });
  }
  if (ecdf !== null) files.push({ path: ecdf, content: renderEcdfCsv(report) });
  if (files.length) {
    try {
      writeFilesAtomically(files);
    } catch (e) {
      if (e instanceof WriteFilesError) throw new InputError(`${path.relative(io.cwd, files[e.index].path) || files[e.index].path}: ${e.message}`);
      throw e;
    }
    for (const f of files) writeLine(io.stderr, `wrote ${path.relative(io.cwd, f.path)}`);
  }
  if (values.json) writeLine(io.stdout, JSON.stringify(report));
  else io.stdout.write(standingsText(report));
  if (!report.complete) writeLine(io.stderr, `${report.runs.missing} run(s) not run yet count as runs that found nothing: saikoro competition run ${file}`);
  return 0;
}

async function problemsAction(file: string, values: Values, io: CliIo): Promise<number> {
  allowed('problems', values, ['json', 'reveal', 'secret']);
  if (values.reveal && values.secret === undefined) throw new UsageError('competition problems: --reveal needs --secret TEXT');
  if (!values.reveal && values.secret !== undefined) throw new UsageError('competition problems: --secret goes with --reveal');
  const secret = values.reveal ? await secretOption('problems', values, io) : null;
  const project = openProject(file, io, { readOnly: true });
  try {
    const { problems, shown } = listProblems(project, secret);
    if (values.json) {
      writeLine(io.stdout, JSON.stringify({ problems }));
      return 0;
    }
    for (const p of problems) {
      const bands = shown ? `  alpha [${p.alpha!.join(', ')}]  beta [${p.beta!.join(', ')}]  gamma [${p.gamma!.join(', ')}]` : '';
      writeLine(io.stdout, `${p.id.padEnd(18)} ${p.hidden ? (shown ? 'secret' : 'hidden') : 'public'}${bands}`);
    }
    return 0;
  } catch (e) {
    throw asInput(e, io, file);
  } finally {
    project.close();
  }
}

async function revealAction(file: string, values: Values, io: CliIo): Promise<number> {
  allowed('reveal', values, ['secret']);
  const secret = await secretOption('reveal', values, io);
  // The secret first: nothing changes for a wrong one. Then the remote runs end where they are.
  const checked = openProject(file, io, { readOnly: true });
  let remote = false;
  try {
    checkRevealSecret(checked, secret);
    remote = competitionOf(checked).secret === null && checked.entrants().some((e) => e.entry.kind === 'remote');
  } catch (e) {
    throw asInput(e, io, file);
  } finally {
    checked.close();
  }
  if (remote) {
    let launcher: Launcher | null = null;
    try {
      const ended = await endRemoteRuns(
        path.resolve(io.cwd, file),
        boundedHvNormaliser(() => (launcher ??= new Launcher({ spawn: nodeSpawner(), parallelism: 1 }))),
      );
      if (ended) writeLine(io.stderr, `${ended} remote run(s) that had not used their budget end where they were, scored on what they evaluated`);
    } catch (e) {
      if (e instanceof RemoteLogError)
        throw new InputError(`${e.message.replaceAll(path.resolve(io.cwd, file), file)}; a competition is revealed once its server has stopped`);
      throw asInput(e, io, file);
    } finally {
      (launcher as Launcher | null)?.dispose();
    }
  }
  const project = openProject(file, io);
  try {
    const reveal = revealCompetition(project, secret);
    writeLine(
      io.stdout,
      reveal.newlyRevealed
        ? `revealed ${file}: the secret matches the commitment and draws each of its ${reveal.hidden} hidden instance(s) again; their bands are shown from now on`
        : `${file} was revealed already (${reveal.revealedAt}); the secret matches`,
    );
    return 0;
  } catch (e) {
    throw asInput(e, io, file);
  } finally {
    project.close();
  }
}

export const competitionCommand: Command = {
  name: 'competition',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, competitionHelp);
    const [action, file, ...rest] = positionals;
    const actions = ACTIONS.join(', ');
    if (!action) throw new UsageError(`missing action: ${actions}`);
    if (!(ACTIONS as readonly string[]).includes(action)) throw new UsageError(`unknown action "${action}" (${actions})`);
    if (!file) throw new UsageError(`competition ${action}: missing FILE`);
    if (rest.length) throw new UsageError(`competition ${action}: unexpected argument "${rest[0]}"`);
    switch (action as (typeof ACTIONS)[number]) {
      case 'new':
        return newAction(file, values, io);
      case 'enter':
        return enterAction(file, values, io);
      case 'token':
        return tokenAction(file, values, io);
      case 'run':
        return runAction(file, values, io);
      case 'standings':
        return standingsAction(file, values, io);
      case 'problems':
        return problemsAction(file, values, io);
      case 'reveal':
        return revealAction(file, values, io);
    }
  },
};
