import type { CommandHelp } from '../command.ts';
import { defaultMemoryLimitMb } from '../../host/memory-limit.ts';

/** `saikoro experiment --help`, and the options it parses (see CommandHelp). */
export const experimentHelp = {
  usage: [
    'Usage: saikoro experiment add FILE --spec SPEC.json',
    '       saikoro experiment run FILE [EXPERIMENT ...] [--jobs K] [--memory-limit MB] [--run-timeout S] [--shard K/N [--out RESULTS]] [--inline]',
    '       saikoro experiment status FILE [EXPERIMENT ...] [--json]',
    '       saikoro experiment verify FILE [EXPERIMENT ...] [--sample K | --all] [--json]',
    '',
    'An experiment is a grid of instances x solvers x seeds with an evaluation budget (spec',
    'format: saikoro help spec). Each run is stored in the project the moment it ends.',
    '',
    '  add     validate SPEC.json (solvers and parameters included) and store it',
    '  run     run every missing or failed run of the named experiments (default: all);',
    '          interrupting and running again loses nothing but the runs in flight',
    '  status  done / failed / missing runs per experiment, instance and solver',
    '  verify  re-run a sample of stored runs in this process and check that the results',
    '          are identical (wall times aside); exit 1 on any difference',
    '',
    'Options:',
    '  --jobs K      runs in parallel, each in its own worker process (default: one per core)',
    '  --memory-limit MB',
    '                each worker\'s memory limit: runs estimated to need more are refused before any',
    '                starts, and a worker that grows past it fails its run, the others go on',
    `                (default: half of this machine\'s memory shared by the K workers: ${defaultMemoryLimitMb(1).toLocaleString('en-US')} MB / K here)`,
    '  --run-timeout S',
    '                fail a run that takes longer than S seconds of wall time (its worker is killed;',
    '                default: none). A worker stopped with kill -STOP fails its run after 30 s either way',
    '  --shard K/N   run only shard K of N (every N-th run of the grid) into a separate',
    '                results file, to fold back with saikoro merge (Slurm job arrays)',
    '  --out FILE    the shard results file (default: FILE.shard-K-of-N.saikoro beside FILE)',
    '  --inline      run in this process instead of worker processes',
    '  --sample K    runs to verify (default 5); --all verifies every done run',
    '  --json        machine-readable output on stdout',
  ].join('\n'),
  options: {
    spec: { type: 'string' }, jobs: { type: 'string' }, 'memory-limit': { type: 'string' },
    'run-timeout': { type: 'string' }, shard: { type: 'string' }, out: { type: 'string' },
    inline: { type: 'boolean' }, sample: { type: 'string' }, all: { type: 'boolean' }, json: { type: 'boolean' },
  },
  positionals: true,
} satisfies CommandHelp;
