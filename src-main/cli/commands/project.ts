import fs from 'node:fs';
import path from 'node:path';
import { InputError, numberOption, parseCommandArgs, UsageError, visibleControls, writeLine, type CliIo, type Command } from '../command.ts';
import { parseShard } from '../../../src-shared/experiments/grid.ts';
import { projectHelp } from './project.help.ts';
import { ProjectError } from '../../project/errors.ts';
import { type OpenOptions, Project } from '../../project/store.ts';
import { experimentStatus } from '../../experiments/runner.ts';
import { SpecError } from '../../../src-shared/experiments/spec.ts';
import { programLines, storedPrograms } from '../programs.ts';

/**
 * The one place where the store's errors become the CLI's: a ProjectError (a refused, damaged,
 * read-only or full file, from opening it or from any read or write later) is bad input, exit
 * status 1, with the message naming the file as the user wrote it (absolute paths under the
 * working directory are shown relative to it). main() calls this for whatever a command lets
 * through, so commands need not catch store errors themselves.
 */
export function projectInputError(e: ProjectError, io: CliIo, given?: string): InputError {
  let message = e.message;
  if (given !== undefined && e.file !== undefined) message = message.replaceAll(e.file, given);
  message = message.replaceAll(io.cwd.endsWith(path.sep) ? io.cwd : io.cwd + path.sep, '');
  return new InputError(message);
}

/** What recovery kept aside beside a project, on stderr (paths relative to the working folder). */
export function recoveryNotice(io: CliIo): (message: string) => void {
  return (message) => writeLine(io.stderr, `saikoro: ${visibleControls(message.replaceAll(io.cwd.endsWith(path.sep) ? io.cwd : io.cwd + path.sep, ''))}`);
}

/** Opens a project for a command, turning refusals into InputError (exit 1). */
export function openProject(file: string, io: CliIo, options: OpenOptions = {}): Project {
  try {
    return Project.open(path.resolve(io.cwd, file), { onRecovery: recoveryNotice(io), ...options });
  } catch (e) {
    if (e instanceof ProjectError) throw projectInputError(e, io, file);
    throw e;
  }
}

export function createProject(file: string, io: CliIo): Project {
  try {
    return Project.create(path.resolve(io.cwd, file));
  } catch (e) {
    if (e instanceof ProjectError) throw projectInputError(e, io, file);
    throw e;
  }
}

/** Whether two paths name one file (the same inode, through links too), or the same path when neither exists. */
function sameFile(a: string, b: string): boolean {
  const stat = (f: string) => fs.statSync(f, { throwIfNoEntry: false });
  const sa = stat(a);
  const sb = stat(b);
  if (sa && sb) return sa.dev === sb.dev && sa.ino === sb.ino;
  return a === b;
}

/**
 * The options `experiment run` and `competition run` share: --jobs (one worker per core by
 * default), --memory-limit MB (left out: undefined, each worker the host's default share of
 * the machine, never no limit) and --shard K/N [--out RESULTS] (the shard and its results file).
 */
export function runOptions(
  file: string,
  values: Record<string, unknown>,
  defaultJobs: number,
): { jobs: number; memoryLimitMb: number | undefined; shard: { k: number; n: number } | undefined; shardOut: string } {
  const jobs = numberOption('jobs', values.jobs as string | undefined, defaultJobs, { integer: true, min: 1, max: 256 });
  const memoryLimitMb =
    values['memory-limit'] === undefined
      ? undefined
      : numberOption('memory-limit', values['memory-limit'] as string, 0, { integer: true, min: 64, max: 1_048_576 });
  if (values.shard === undefined) {
    if (values.out !== undefined) throw new UsageError('--out goes with --shard');
    return { jobs, memoryLimitMb, shard: undefined, shardOut: '' };
  }
  let shard: { k: number; n: number };
  try {
    shard = parseShard(values.shard as string);
  } catch (e) {
    throw new UsageError(`--shard: ${(e as Error).message}`);
  }
  return { jobs, memoryLimitMb, shard, shardOut: shardResultsName(file, shard, values.out as string | undefined) };
}

/**
 * The name of a shard's results file (`--shard K/N [--out RESULTS]` of experiment run and
 * competition run): RESULTS, or FILE.shard-K-of-N.saikoro beside FILE. It is a project of its
 * own, so its name ends in .saikoro (a usage error, before anything runs, otherwise).
 */
export function shardResultsName(file: string, shard: { k: number; n: number }, out: string | undefined): string {
  if (out !== undefined && path.extname(out) !== '.saikoro')
    throw new UsageError(`--out ${out}: a shard's results file is a project: its name ends in .saikoro`);
  return out ?? `${file.replace(/\.saikoro$/, '')}.shard-${shard.k}-of-${shard.n}.saikoro`;
}

/**
 * Opens (a shard run again resumes) or creates a shard's results file. Never FILE itself, and
 * anything there that is not a project (a FIFO, another file) is refused by openProject, never
 * replaced: the output rule of issue 27 for shards.
 */
export function openShardResults(out: string, file: string, io: CliIo): Project {
  const full = path.resolve(io.cwd, out);
  if (sameFile(full, path.resolve(io.cwd, file)))
    throw new InputError(`--out ${out}: is ${file} itself; a shard's results go to a file of their own (saikoro merge folds them in)`);
  return fs.existsSync(full) ? openProject(out, io) : createProject(out, io);
}

export const projectCommand: Command = {
  name: 'project',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, projectHelp);
    const [action, file, ...rest] = positionals;
    if (!action) throw new UsageError('missing action: new, info or note');
    if (!file) throw new UsageError(`project ${action}: missing FILE`);
    switch (action) {
      case 'new': {
        if (rest.length) throw new UsageError(`project new: unexpected argument "${rest[0]}"`);
        createProject(file, io).close();
        writeLine(io.stdout, `created ${file}`);
        return 0;
      }
      case 'info': {
        if (rest.length) throw new UsageError(`project info: unexpected argument "${rest[0]}"`);
        const project = openProject(file, io);
        try {
          const info = project.info();
          const statuses = project.runStatuses();
          const stored = project.experiments();
          const experiments = stored.map((e) => {
            let s: ReturnType<typeof experimentStatus>;
            try {
              s = experimentStatus(e.spec, statuses);
            } catch (err) {
              // A stored spec naming a solver or parameter this version does not know.
              if (err instanceof SpecError) throw new InputError(`${file}: experiment "${e.name}": ${err.message}`);
              throw err;
            }
            return {
              name: e.name,
              description: e.spec.description ?? null,
              createdAt: e.createdAt,
              runs: s.total,
              done: s.done,
              failed: s.failed,
              missing: s.missing,
              programs: storedPrograms(e.spec),
            };
          });
          if (values.json) {
            writeLine(io.stdout, JSON.stringify({ ...info, path: file, experiments: experiments, notes: project.notes() }));
            return 0;
          }
          writeLine(io.stdout, `${file}: Saikoro project, schema ${info.schemaVersion}, ${info.sizeBytes} bytes`);
          writeLine(io.stdout, `created ${info.createdAt ?? '?'} by ${info.createdBy ?? '?'}`);
          writeLine(io.stdout, `${info.experiments} experiment(s), ${info.runs.done} run(s) done, ${info.runs.failed} failed, ${info.notes} note(s)`);
          writeLine(io.stdout, `${info.labRuns.done} lab run(s) done, ${info.labRuns.failed} failed (saikoro nqueens --project)`);
          experiments.forEach((e, i) => {
            writeLine(
              io.stdout,
              `  ${e.name}: ${e.done}/${e.runs} done, ${e.failed} failed, ${e.missing} missing${e.description ? ` (${e.description})` : ''}`,
            );
            for (const line of programLines(stored[i].spec)) writeLine(io.stdout, line);
          });
          for (const n of project.notes()) writeLine(io.stdout, `  note ${n.id}${n.experiment ? ` [${n.experiment}]` : ''} ${n.createdAt}: ${n.text}`);
          return 0;
        } finally {
          project.close();
        }
      }
      case 'note': {
        const text = rest.join(' ');
        if (!text.trim()) throw new UsageError('project note: missing TEXT');
        const project = openProject(file, io);
        try {
          if (values.experiment !== undefined && !project.experiment(values.experiment))
            throw new InputError(`${file}: no experiment named "${values.experiment}"`);
          const id = project.addNote(text, values.experiment ?? null);
          writeLine(io.stdout, `note ${id} added`);
          return 0;
        } finally {
          project.close();
        }
      }
      default:
        throw new UsageError(`unknown action "${action}" (new, info or note)`);
    }
  },
};
