import type { CommandHelp } from '../command.ts';

/** `saikoro client --help`, and the options it parses (see CommandHelp). */
export const clientHelp = {
  usage: `Usage: saikoro client [--path]

The Python client for solver programs (saikoro_client.py: standard library only, Python 3.9+),
shipped with Saikoro as a Python package folder. It turns the external-solver protocol into an
ask/tell loop (saikoro help clients; the protocol: saikoro help protocol).

  pip install "$(saikoro client --path)"     installs it; it needs nothing from a package
                                             index, so pip's --no-index works offline

or copy saikoro_client.py next to your program. Without --path: where it is, and the
example solvers.

Options:
  --path   print the client's folder only (for pip install "$(saikoro client --path)")`,
  options: { path: { type: 'boolean' } },
  positionals: false,
} satisfies CommandHelp;
