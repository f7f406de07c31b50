import path from 'node:path';
import { InputError, parseCommandArgs, UsageError, writeLine, type Command } from '../command.ts';
import { ProjectError } from '../../project/store.ts';
import { mergeInto, type MergeSummary } from '../../experiments/merge.ts';
import { openProject } from './project.ts';

export const mergeCommand: Command = {
  name: 'merge',
  summary: 'Fold results files (e.g. experiment shards) into a project without duplicates',
  usage: [
    'Usage: saikoro merge PROJECT RESULTS... [--json]',
    '',
    'Copies the experiments and runs of each RESULTS file (written by',
    '`saikoro experiment run --shard K/N`, or any project) into PROJECT. Runs are identified by',
    'their content hash, so a run PROJECT already has done is skipped and merging twice changes',
    'nothing. An experiment whose spec differs from the one of the same name in PROJECT is refused.',
  ].join('\n'),
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean' } }, true);
    const [file, ...sources] = positionals;
    if (!file) throw new UsageError('missing PROJECT');
    if (sources.length === 0) throw new UsageError('missing RESULTS file(s) to merge');
    const project = openProject(file, io);
    try {
      const summaries: MergeSummary[] = [];
      for (const source of sources) {
        if (path.resolve(io.cwd, source) === project.path) throw new InputError(`${source}: is the project itself`);
        try {
          const summary = mergeInto(project, path.resolve(io.cwd, source));
          summaries.push({ ...summary, file: source });
          if (!values.json) writeLine(io.stdout, `${source}: ${summary.runsAdded} run(s) added, ${summary.runsSkipped} already present, ${summary.experimentsAdded} experiment(s) added`);
        } catch (e) {
          if (e instanceof ProjectError) throw new InputError(e.message.replaceAll(path.resolve(io.cwd, source), source));
          throw e;
        }
      }
      if (values.json) writeLine(io.stdout, JSON.stringify(summaries));
      return 0;
    } finally {
      project.close();
    }
  },
};
