import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError, numberOption, UsageError, parseCommandArgs, type CliIo, type Command } from '../command.ts';
import { serveHelp } from './serve.help.ts';
import { projectInputError } from './project.ts';
import { ProjectError } from '../../project/errors.ts';
import { RemoteLogError } from '../../project/remote-log.ts';
import { CompetitionError } from '../../../src-shared/competition/competition.ts';
import { REMOTE_LIMIT_BOUNDS, type RemoteLimits } from '../../../src-shared/competition/remote.ts';

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
      const competition = competitionOptions(values, io);
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
          ...(competition ? { competition } : {}),
          onError: (message) => io.stderr.write(`${message}\n`),
        });
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE')
          throw new InputError(
            `port ${port} on ${host} is already in use (another saikoro serve?). Pick another with --port P, or --port 0 for any free port.`,
          );
        if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new InputError(`cannot listen on ${host}: no such local address`);
        if ((e as Error).name === 'RendererMissingError') throw new InputError((e as Error).message);
        if ((e as Error).name === 'RendererSourcesMissingError') throw new InputError(`${values.rebuild ? '--rebuild: ' : ''}${(e as Error).message}`);
        if (code === 'EACCES') throw new InputError(`not allowed to listen on port ${port} (ports below 1024 need privileges); pick another with --port P`);
        if (e instanceof ProjectError) throw projectInputError(e, io, values.competition as string);
        if (e instanceof RemoteLogError || e instanceof CompetitionError)
          throw new InputError(e.message.replaceAll(competition?.file ?? '\0', values.competition as string));
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
      if (server.competition) {
        const c = server.competition;
        const recovered = c.recovered;
        if (recovered.records)
          io.stderr.write(
            `resumed: ${recovered.records} answered request(s) a stopped server left in its log are in the file now${recovered.droppedBytes ? ` (${recovered.droppedBytes} bytes of a request that was never answered were dropped)` : ''}\n`,
          );
        io.stderr.write(
          `competition ${values.competition}: ${c.remoteEntrants().length} remote entrant(s); WebSocket or POST at ${server.origin}api/competition/<problem>, leaderboard at ${server.origin}competition${values['public-leaderboard'] ? ' (public)' : ' (with this token)'}\n`,
        );
      }
      if (values.open) openInBrowser(server.url);
      await (deps.stopped ? deps.stopped(server) : untilSignal());
      await server.close();
      return 0;
    },
  };
}

/** The --competition options, checked (null without --competition). */
function competitionOptions(
  values: Record<string, string | boolean | undefined>,
  io: CliIo,
): { file: string; publicLeaderboard: boolean; limits: Partial<RemoteLimits> } | null {
  const limitFlags = ['public-leaderboard', 'max-batch', 'rate', 'burst', 'max-connections', 'max-message'] as const;
  if (values.competition === undefined) {
    const stray = limitFlags.find((f) => values[f] !== undefined);
    if (stray) throw new UsageError(`--${stray} goes with --competition FILE`);
    return null;
  }
  const limits: Partial<RemoteLimits> = {};
  const integer = (flag: string, key: keyof RemoteLimits) => {
    const text = values[flag];
    if (text === undefined) return;
    const { min, max } = REMOTE_LIMIT_BOUNDS[key];
    limits[key] = numberOption(flag, text as string, 0, { integer: key !== 'requestsPerSecond', min, max });
  };
  integer('max-batch', 'maxBatch');
  integer('rate', 'requestsPerSecond');
  integer('burst', 'burst');
  integer('max-connections', 'maxConnections');
  integer('max-message', 'maxMessageBytes');
  return { file: resolve(io.cwd, values.competition as string), publicLeaderboard: values['public-leaderboard'] === true, limits };
}

export const serveCommand: Command = createServeCommand();
