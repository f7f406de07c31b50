import path from 'node:path';
import { InputError, parseCommandArgs, UsageError, visibleControls, writeLine, type Command } from '../command.ts';
import { formatCommand } from '../../../src-shared/solvers/program/protocol.ts';
import { mergeHelp } from './merge.help.ts';
import { experimentProgress, mergeInto, type MergeSummary } from '../../experiments/merge.ts';
import { openProject, recoveryNotice } from './project.ts';

/** Runs listed by name on stdout before "... and N more" (--json lists them all). */
const LISTED = 20;

export const mergeCommand: Command = {
  name: 'merge',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, mergeHelp);
    const [file, ...sources] = positionals;
    if (!file) throw new UsageError('missing PROJECT');
    if (sources.length === 0) throw new UsageError('missing RESULTS file(s) to merge');
    const project = openProject(file, io);
    try {
      const summaries: MergeSummary[] = [];
      for (const source of sources) {
        if (path.resolve(io.cwd, source) === project.path) throw new InputError(`${source}: is the project itself`);
        // A refused or damaged RESULTS file is reported by main() with its name (exit 1).
        const summary = { ...mergeInto(project, path.resolve(io.cwd, source), { onRecovery: recoveryNotice(io) }), file: source };
        summaries.push(summary);
        for (const r of summary.refused)
          writeLine(io.stderr, `${source}: refused run ${r.id}${r.instance !== null ? ` (${r.instance} ${r.label} seed ${r.seed})` : ''}: ${r.reason}`);
        if (!values.json)
          writeLine(
            io.stdout,
            `${source}: ${summary.runsAdded} run(s) added, ${summary.runsSkipped} already present, ${summary.experimentsAdded} experiment(s) added${summary.refused.length ? `, ${summary.refused.length} refused (see stderr)` : ''}`,
          );
        // A received file's programs: named, since they run on this machine once approved.
        for (const name of new Set(summary.importedPrograms.map((p) => p.experiment))) {
          const programs = summary.importedPrograms.filter((p) => p.experiment === name);
          writeLine(
            io.stderr,
            visibleControls(
              `${source}: imported experiment ${name}, whose solver${programs.length > 1 ? 's are programs' : ' is a program'}: ${programs.map((p) => `${p.solver} (${formatCommand(p.command)})`).join(', ')}. Look at ${programs.length > 1 ? 'them' : 'it'} before running: saikoro experiment run ${file} ${name} names ${programs.length > 1 ? 'them' : 'it'} and runs ${programs.length > 1 ? 'them' : 'it'} only once approved on this machine (asked on a terminal; --yes in a script)`,
            ),
          );
        }
      }
      const names = [...new Set(summaries.flatMap((s) => s.experiments))];
      const progress = experimentProgress(project, names);
      if (values.json) writeLine(io.stdout, JSON.stringify({ files: summaries, experiments: progress }));
      else
        for (const p of progress) {
          if (p.notDone.length === 0) {
            writeLine(io.stdout, `${p.name}: all ${p.total} runs done`);
            continue;
          }
          const parts = [p.missing ? `${p.missing} missing` : '', p.failed ? `${p.failed} failed` : ''].filter(Boolean).join(', ');
          writeLine(io.stdout, `${p.name}: ${p.done}/${p.total} runs done; still to run: ${parts} (saikoro experiment run ${file} ${p.name}):`);
          for (const r of p.notDone.slice(0, LISTED))
            writeLine(io.stdout, `  ${r.status === 'failed' ? 'failed ' : 'missing'} ${r.instance} ${r.label} seed ${r.seed} (${r.id})`);
          if (p.notDone.length > LISTED) writeLine(io.stdout, `  ... and ${p.notDone.length - LISTED} more (--json lists them all)`);
        }
      const refused = summaries.reduce((n, s) => n + s.refused.length, 0);
      if (refused) writeLine(io.stderr, `saikoro merge: ${refused} run(s) refused; the other runs were merged`);
      return refused ? 1 : 0;
    } finally {
      project.close();
    }
  },
};
