import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError, numberOption, UsageError, parseCommandArgs, type CliIo, type Command } from '../command.ts';
import { serveHelp } from './serve.help.ts';


export const DEFAULT_PORT = 5178;

function openInBrowser(url: string): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

export interface ServeDependencies {
  /** Resolves when the server should stop (default: SIGINT or SIGTERM); tests stop it once it has started. */
  stopped?: (server: { url: string }) => Promise<void>;
}

/** Resolves on the first SIGINT or SIGTERM: how a person stops the server. */
function untilSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export function createServeCommand(deps: ServeDependencies = {}): Command {
  return {
    name: 'serve',
    async run(argv: string[], io: CliIo): Promise<number> {
      const { values } = parseCommandArgs(argv, serveHelp);
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
        if ((e as Error).name === 'RendererSourcesMissingError') throw new InputError(`${values.rebuild ? '--rebuild: ' : ''}${(e as Error).message}`);
        if (code === 'EACCES') throw new InputError(`not allowed to listen on port ${port} (ports below 1024 need privileges); pick another with --port P`);
        throw e;
      }
      if (!loopback)
        io.stderr.write(
          `warning: --host ${host} makes Saikoro reachable from your network; anyone who learns the token can run and stop runs and read and write projects in ${workspace}. Host names other than the ones it was started with are refused.\n`,
        );
      if (values['allow-commands'] === true)
        io.stderr.write(
          'warning: --allow-commands lets anyone who has the token run any program on this machine, with your permissions (solver programs of startRun, addExperiment and runExperiment); serve it only to people you trust.\n',
        );
      io.stderr.write(`Saikoro is serving ${workspace} on ${server.url}\n`);
      if (values.open) openInBrowser(server.url);
      await (deps.stopped ? deps.stopped(server) : untilSignal());
      await server.close();
      return 0;
    },
  };
}

export const serveCommand: Command = createServeCommand();
