import type { CommandHelp } from '../command.ts';

/** `saikoro solvers --help`, and the options it parses (see CommandHelp). */
export const solversHelp = {
  usage: `Usage: saikoro solvers [--track so|mo2|mo3|mo5|mo7] [--json]

Lists the solvers and their parameters (name, type, default, range). Pass parameters to
\`saikoro solve\` as --param NAME=VALUE.

Options:
  --track T   only the solvers that handle track T (so: one objective; moM: M objectives)
  --json      print [{"name","title","summary","objectives","baseline","defaultFor","params":[{"name",
              "type","default","defaultText","min","max","choices","description"}]}] on stdout`,
  options: { track: { type: 'string' }, json: { type: 'boolean' } },
  positionals: false,
} satisfies CommandHelp;
