import type { CommandHelp } from '../command.ts';

/** `saikoro serve --help`, and the options it parses (see CommandHelp). */
export const serveHelp = {
  usage: `Usage: saikoro serve [--workspace DIR] [--port P] [--host H] [--open] [--rebuild | --no-build] [--renderer-dir DIR]
                     [--allow-commands]
                     [--competition FILE [--public-leaderboard] [--max-batch K] [--rate R]
                      [--burst B] [--max-connections C] [--max-message BYTES]]

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

A competition as a service (docs/competition.md, "Running it as a service"):
  --competition FILE
               also serve the competition file FILE to its remote entrants (saikoro
               competition enter FILE --name NAME --remote; saikoro competition token
               FILE --entrant NAME): the protocol's messages over a WebSocket at
               /api/competition/<problem> (or one POST per batch), each entrant with its own
               token and budget; the leaderboard at /competition. The server's own token
               reaches everything. One server per file; kill it any time: a restart
               resumes every run where it was
  --public-leaderboard
               the leaderboard (/competition, /api/competition/standings) needs no token
               (default: the organiser's token only)
  Limits per entrant token (a refusal says which and costs no evaluation):
  --max-batch K        sequences per request (default 1000)
  --rate R             requests per second, sustained (default 500)
  --burst B            requests at once above the rate (default 1000)
  --max-connections C  WebSockets and POSTs at once (default 4)
  --max-message BYTES  bytes of one message (default 8388608, 8 MiB)
`,
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    open: { type: 'boolean' },
    rebuild: { type: 'boolean' },
    'no-build': { type: 'boolean' },
    'renderer-dir': { type: 'string' },
    workspace: { type: 'string' },
    'allow-commands': { type: 'boolean' },
    competition: { type: 'string' },
    'public-leaderboard': { type: 'boolean' },
    'max-batch': { type: 'string' },
    rate: { type: 'string' },
    burst: { type: 'string' },
    'max-connections': { type: 'string' },
    'max-message': { type: 'string' },
  },
  positionals: false,
} satisfies CommandHelp;
