import type { CommandHelp } from '../command.ts';

/** `saikoro compare --help`, and the options it parses (see CommandHelp). */
export const compareHelp = {
  usage: [
    'Usage: saikoro compare FILE EXPERIMENT --metric hv|igd+|epsilon|spacing|feasibility|best [--json]',
    '',
    'Compares the solvers of an experiment on one metric (saikoro help stats):',
    '  per instance   median, IQR, mean, sd and count per solver; pairwise Mann-Whitney U',
    '                 (exact for small samples without ties, else normal with tie correction),',
    '                 Holm-corrected, with the Vargha-Delaney A12 effect size',
    '  across         Friedman test on the per-instance medians (means for feasibility),',
    '                 Iman-Davenport F, average ranks and Holm-corrected post-hoc comparisons',
    '                 (Demsar 2006)',
    '',
    'Metrics (one value per run; MO = instances with at least 2 objectives):',
    '  hv           normalised hypervolume of the feasible front (MO, higher is better;',
    '               empty front 0)',
    '  igd+         IGD+ against R = the non-dominated union of all fronts of the instance',
    '               (MO, lower is better)',
    '  epsilon      additive epsilon indicator against the same R (MO, lower is better;',
    '               0 when the front contains all of R)',
    "  spacing      Schott's spacing of the front (MO, lower is better; 0 = even spacing;",
    '               no value for fronts with fewer than 2 points)',
    '  feasibility  1 if the run found a feasible solution, else 0 (SO and MO, higher is',
    '               better; the mean column is the share of runs)',
    '  best         best feasible objective value (SO, lower is better)',
    'hv, igd+, epsilon and spacing use normalised objectives; the normalisation (ideal, nadir,',
    'reference point 1.1) of each instance is printed with it. Runs with no value (no feasible',
    'solution, empty or too small front) are counted in the "no value" column.',
  ].join('\n'),
  options: { metric: { type: 'string' }, json: { type: 'boolean' } },
  positionals: true,
} satisfies CommandHelp;
