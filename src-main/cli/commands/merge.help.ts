import type { CommandHelp } from '../command.ts';

/** `saikoro merge --help`, and the options it parses (see CommandHelp). */
export const mergeHelp = {
  usage: [
    'Usage: saikoro merge PROJECT RESULTS... [--json]',
    '',
    'Copies the experiments and runs of each RESULTS file (written by',
    '`saikoro experiment run --shard K/N`, or any project) into PROJECT. Runs are identified by',
    'their content hash, so a run PROJECT already has done is skipped and merging twice changes',
    'nothing. An experiment whose spec differs from the one of the same name in PROJECT is refused.',
    '',
    'Every run is checked before it is stored: a run whose record or result is damaged, whose',
    'content does not hash to its id, that belongs to no experiment of its file, or whose',
    'stored best or front is not what its own sequences evaluate to is refused, nothing of it',
    'written, and reported on stderr (exit status 1); the others are merged. Afterwards, for each',
    'experiment of the RESULTS files, the runs PROJECT still lacks (missing or failed) are listed.',
    '',
    '--json prints {"files": [{file, experimentsAdded, runsAdded, runsSkipped, refused: [{id,',
    'instance, label, seed, reason}], experiments}], "experiments": [{name, total, done, failed,',
    'missing, notDone: [{id, instance, label, seed, status}]}]}.',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  positionals: true,
} satisfies CommandHelp;
