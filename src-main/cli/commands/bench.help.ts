import type { CommandHelp } from '../command.ts';
import { suites } from '../../bench/registry.ts';

/** `saikoro bench --help`, and the options it parses (see CommandHelp). */
export const benchHelp = {
  usage: [
    'Usage: saikoro bench [SUITE ...] [--json] [--quick] [--points N] [--reference rngbias.py]',
    '',
    'Runs the named benchmark suites, or every default suite when none is named, in this',
    'process, and prints Markdown tables of measured figures (stdout). Progress goes to stderr.',
    '',
    'Suites:',
    ...suites.map((s) => `  ${s.name.padEnd(10)} ${s.summary}${s.byDefault ? '' : ' (only when named)'}`),
    '',
    'Options:',
    '  --json    print the figures as JSON: one suite prints its own object, several print {suite: object}',
    '  --quick   small sizes, for a smoke test; not figures to publish',
    '  --points N  how many points the suites that draw them use (pareto: default 100000)',
    '  --reference FILE  the reference evaluator rngbias.py, which startup times beside rngbias',
    '                    (needs python3 with scipy, click and yaml)',
  ].join('\n'),
  options: {
    json: { type: 'boolean' },
    quick: { type: 'boolean' },
    points: { type: 'string' },
    reference: { type: 'string' },
  },
  positionals: true,
} satisfies CommandHelp;
