import type { CommandHelp } from '../command.ts';

/** `saikoro serve --help`, and the options it parses (see CommandHelp). */
export const serveHelp = {
  usage: `Usage: saikoro serve [--workspace DIR] [--port P] [--host H] [--open] [--rebuild | --no-build] [--renderer-dir DIR]
                     [--allow-commands]

Serves the Saikoro UI to a browser, with the same API the desktop app uses
(POST /api/<call>, events on the WebSocket /api/events). Builds the renderer into
out/renderer first when it is missing or older than its sources. Prints the URL on
stderr and runs until interrupted (Ctrl+C).

Every request needs a token, new at every start and printed in the URL
(http://127.0.0.1:PORT/?token=...): the page's first load sets a cookie from it;
scripts send "Authorization: Bearer <token>". Without it the server answers 401.

Options:
  --workspace DIR
               the folder projects are opened and created in (default: the current
               directory); every project path is relative to it and stays inside it
  --port P     port to listen on (default 5178; 0 picks a free one)
  --host H     address to bind (default 127.0.0.1; anything but loopback exposes the
               API to your network)
  --open       open the URL in the default browser
  --rebuild    rebuild the renderer even when it looks current
  --no-build   never build: serve the renderer directory as it is
  --renderer-dir DIR
               serve (and build into) DIR instead of out/renderer
  --allow-commands
               let the app run solver programs (experiments and runs whose solver is a
               "command", saikoro help protocol) on this machine, with the server's
               permissions, for anyone who holds the token (a warning at start says so).
               Without it they are refused.
`,
  options: {
    port: { type: 'string' }, host: { type: 'string' }, open: { type: 'boolean' }, rebuild: { type: 'boolean' },
    'no-build': { type: 'boolean' }, 'renderer-dir': { type: 'string' }, workspace: { type: 'string' },
    'allow-commands': { type: 'boolean' },
  },
  positionals: false,
} satisfies CommandHelp;
