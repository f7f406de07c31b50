import { formatBytes, STDIN_LIMIT_BYTES, type CommandHelp } from '../command.ts';

/** `saikoro eval --help`, and the options it parses (see CommandHelp). */
export const evalHelp = {
  usage: `Usage: saikoro eval [--json] < cases.jsonl

Evaluates dice sequences in batches. Reads JSON lines
  {"id"?: any, "x": "3155...", "config"?: {alpha, beta, gamma, objectives, constraints, lowerBounds, upperBounds}}
(every config field optional, with the spec's defaults; N is the length of x) and writes, per line,
  {"id", "features", "errors", "objectives", "constraints", "chi", "bounds", "feasible"}
where chi holds chi_d and bounds [q(p_d), q(P_d)] per constrained d (null = infinite).
A bad line yields {"id", "error": "..."} and the rest go on; the exit status is then 1.
The id comes back exactly as written (12345678901234567890 is not rounded). A line nested
deeper than 64 levels is an error line like any other.
Blank lines are skipped. Output is always JSON lines (--json is accepted for uniformity).
Lines are streamed: memory does not grow with the number of lines, nor with the number of
distinct configs (the last 64 evaluators are kept). A line longer than ${formatBytes(STDIN_LIMIT_BYTES)} is an error line.`,
  options: { json: { type: 'boolean' } },
  positionals: false,
} satisfies CommandHelp;
