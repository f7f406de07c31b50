import type { CommandHelp } from '../command.ts';
import { DEFAULT_N } from '../../../src-shared/problems/dice/config.ts';

/** `saikoro rngbias --help`, and the options it parses (see CommandHelp). */
export const rngbiasHelp = {
  usage: `Usage: saikoro rngbias [options] < solution.json

A drop-in for the EC-Comp 2020 reference evaluator (rngbias.py). Reads one JSON string of
N digits 1-6 from stdin and prints {"objective": ..., "constraint": ..., "error": null}:
a number when there is one value, a list when there are several, null when there are none.
Bad input prints {"objective": null, "constraint": null, "error": "..."} and exits 1.

Options (each also read from RNGBIAS_<KEY> and from the YAML config file's <key>):
  -x, --variables N          sequence length N (key variables; default ${DEFAULT_N})
  -o, --objectives JSON      feature groups, e.g. [[1,2,3],[4,5]] (default [[1..15]])
  -s, --constraints JSON     constrained block lengths d (default [1..12])
  -l, --lower-bounds JSON    lower percent points p_d (key lower_bounds; default 0.1 each)
  -u, --upper-bounds JSON    upper percent points P_d (key upper_bounds; default 0.9 each)
  -a, --bias_alpha JSON      15 lower band edges alpha_i
  -b, --bias_beta JSON       15 upper band edges beta_i
  -g, --bias_gamma JSON      15 weights gamma_i
  -c, --config FILE          YAML config file (default: config.yml, if it exists)

Precedence: command line > environment > config file > defaults.
Example: echo '"31552264665432613134314646226624645162511461153216"' | saikoro rngbias`,
  options: {
    variables: { type: 'string', short: 'x' },
    objectives: { type: 'string', short: 'o' },
    constraints: { type: 'string', short: 's' },
    'lower-bounds': { type: 'string', short: 'l' },
    'upper-bounds': { type: 'string', short: 'u' },
    bias_alpha: { type: 'string', short: 'a' },
    bias_beta: { type: 'string', short: 'b' },
    bias_gamma: { type: 'string', short: 'g' },
    config: { type: 'string', short: 'c' },
  },
  positionals: false,
} satisfies CommandHelp;
