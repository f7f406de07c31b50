import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError, numberOption, UsageError, parseCommandArgs, type CliIo, type Command } from '../command.ts';

const usage = `Usage: saikoro serve [--workspace DIR] [--port P] [--host H] [--open] [--rebuild | --no-build] [--renderer-dir DIR]
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
               "command", docs/external-solvers.md) on this machine, with the server's
               permissions, for anyone who holds the token. Without it they are refused.
`;

export const DEFAULT_PORT = 5178;

function openInBrowser(url: string): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

export const serveCommand: Command = {
  name: 'serve',
  usage,
  async run(argv: string[], io: CliIo): Promise<number> {
    const { values } = parseCommandArgs(argv, {
      port: { type: 'string' },
      host: { type: 'string' },
      open: { type: 'boolean' },
      rebuild: { type: 'boolean' },
      'no-build': { type: 'boolean' },
      'renderer-dir': { type: 'string' },
      workspace: { type: 'string' },
      'allow-commands': { type: 'boolean' },
    });
    const port = numberOption('port', values.port, DEFAULT_PORT, { integer: true, min: 0, max: 65535 });
    const host = values.host ?? '127.0.0.1';
    if (host.trim() === '') throw new UsageError('--host: expected an address, got ""');
    if (values.rebuild && values['no-build']) throw new UsageError('--rebuild and --no-build contradict each other');
    const workspace = resolve(io.cwd, values.workspace ?? '.');
    let isFolder = false;
    try {
      isFolder = statSync(workspace).isDirectory();
    } catch {
      // refused below
    }
    if (!isFolder) throw new InputError(`--workspace: ${values.workspace ?? workspace} is not a folder`);
    const loopback = ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host);
    // Loaded here, not at the top, so other commands do not pay for Vite and the API.
    const { startAppServer } = await import('../../server/app-server.ts');
    let server: Awaited<ReturnType<typeof startAppServer>>;
    try {
      server = await startAppServer({
        port,
        host,
        build: values['no-build'] ? 'never' : values.rebuild ? 'always' : 'when-stale',
        rendererDir: values['renderer-dir'] === undefined ? undefined : resolve(io.cwd, values['renderer-dir']),
        onBuild: (dir) => io.stderr.write(`building the renderer into ${dir} ...\n`),
        workspace,
        allowCommands: values['allow-commands'] === true,
      });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new InputError(`port ${port} on ${host} is already in use (another saikoro serve?). Pick another with --port P, or --port 0 for any free port.`);
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new InputError(`cannot listen on ${host}: no such local address`);
      if ((e as Error).name === 'RendererMissingError') throw new InputError((e as Error).message);
      if (code === 'EACCES') throw new InputError(`not allowed to listen on port ${port} (ports below 1024 need privileges); pick another with --port P`);
      throw e;
    }
    if (!loopback)
      io.stderr.write(
        `warning: --host ${host} makes Saikoro reachable from your network; anyone who learns the token can run and stop runs and read and write projects in ${workspace}. Host names other than the ones it was started with are refused.\n`,
      );
    io.stderr.write(`Saikoro is serving ${workspace} on ${server.url}\n`);
    if (values.open) openInBrowser(server.url);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await server.close();
    return 0;
  },
};
