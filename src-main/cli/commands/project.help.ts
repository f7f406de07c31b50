import type { CommandHelp } from '../command.ts';

/** `saikoro project --help`, and the options it parses (see CommandHelp). */
export const projectHelp = {
  usage: [
    'Usage: saikoro project new FILE',
    '       saikoro project info FILE [--json]',
    '       saikoro project note FILE TEXT [--experiment NAME]',
    '',
    'A project is one *.saikoro file (SQLite) holding experiments, their runs and results, and',
    'notes. See saikoro help projects.',
    '',
    '  new    create an empty project (refuses to overwrite a file)',
    '  info   schema version, creation, counts of experiments, runs, notes and lab runs, then per',
    '         experiment how many of its runs are done; migrates an older project',
    '  note   add a note (optionally about one experiment)',
  ].join('\n'),
  options: { json: { type: 'boolean' }, experiment: { type: 'string' } },
  positionals: true,
} satisfies CommandHelp;
