import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { allowPrograms, refusePrograms } from '../app/program-policy.ts';
import { packageAppInfo } from '../api/app-info.ts';
import type { ApiEventHub } from '../app/events.ts';
import { createAppCore } from '../api/core.ts';
import type { RunService } from '../app/run-service.ts';
import type { ProjectService } from '../app/project-service.ts';
import { pathRedactor, workspacePaths } from '../app/project-paths.ts';
import { renderPdf } from '../report/pdf.ts';
import { nodeSpawner, type WorkerSpawner } from '../host/spawner.ts';
import { DEFAULT_RENDERER_OUT, ensureRendererBuilt, PROJECT_ROOT } from './renderer-dir.ts';
import { newToken, startWebServer, type WebServer } from './web-server.ts';
import { CompetitionService } from '../app/competition-service.ts';
import { boundedHvNormaliser } from '../app/dice.ts';
import { Launcher } from '../app/launcher.ts';
import type { RemoteLimits } from '../../src-shared/competition/remote.ts';
import { competitionEndpoints } from './competition-endpoints.ts';

export interface AppServerOptions {
  port?: number;
  host?: string;
  /** Where the built renderer lives (default out/renderer); built there when missing or stale. */
  rendererDir?: string;
  /** When to build the renderer first: when missing or older than its sources (default), always, or never. */
  build?: 'when-stale' | 'always' | 'never';
  /** Called before a (slow) renderer build starts. */
  onBuild?: (rendererDir: string) => void;
  /** How solver workers start (default: Node child processes, nodeSpawner). */
  spawn?: WorkerSpawner;
  /** Parallel solver runs (default: one per core). */
  parallelism?: number;
  /** The folder every project path is relative to and must stay inside (default: the current directory). */
  workspace?: string;
  /** The secret requests must carry (default: a new random one); null serves without (tests). */
  token?: string | null;
  /** Run solver programs (`saikoro serve --allow-commands`); refused by default (program-policy.ts). */
  allowCommands?: boolean;
  /**
   * Serve this competition file to its remote entrants (`saikoro serve --competition FILE`;
   * docs/competition.md, "Running it as a service"): absolute path, limits per token, and
   * whether the leaderboard needs no token.
   */
  competition?: { file: string; publicLeaderboard?: boolean; limits?: Partial<RemoteLimits>; heartbeatSeconds?: number };
  /** Told of what goes wrong in the background (the competition's log, a run that cannot resume). */
  onError?: (message: string) => void;
}

export class RendererMissingError extends Error {
  constructor(readonly rendererDir: string) {
    super(`no built renderer in ${rendererDir} (index.html is missing); run without --no-build to build it`);
    this.name = 'RendererMissingError';
  }
}

export interface AppServer extends WebServer {
  readonly events: ApiEventHub;
  /** The competition served (with `competition`), else null. */
  readonly competition: CompetitionService | null;
  readonly runs: RunService;
  readonly projects: ProjectService;
}

/** The whole browser-facing app: API implementation, event hub, built renderer and web server. */
export async function startAppServer(opts: AppServerOptions = {}): Promise<AppServer> {
  const rendererDir = opts.rendererDir ?? DEFAULT_RENDERER_OUT;
  const build = opts.build ?? 'when-stale';
  if (build !== 'never') await ensureRendererBuilt(rendererDir, { force: build === 'always', onBuild: opts.onBuild });
  else if (!existsSync(join(rendererDir, 'index.html'))) throw new RendererMissingError(rendererDir);
  // PDF reports are printed by the system's Chromium (playwright-core), as `saikoro report` does.
  const paths = workspacePaths(opts.workspace ?? process.cwd());
  const core = createAppCore({
    appInfo: packageAppInfo('web'),
    spawn: opts.spawn ?? nodeSpawner(),
    parallelism: opts.parallelism,
    paths,
    printPdf: (html) => renderPdf(html),
    programs: opts.allowCommands ? allowPrograms() : refusePrograms(),
  });
  // What the client reads names no absolute path of the server's: files in the workspace
  // relative to it, the app's own files (a crashed worker's last line) under <saikoro>/.
  const appFolder = pathRedactor([PROJECT_ROOT], '<saikoro>');
  const redact = (text: string) => appFolder(paths.redact(text));
  let server: WebServer;
  let service: CompetitionService | null = null;
  let launcher: Launcher | null = null;
  try {
    if (opts.competition) {
      const normaliser = boundedHvNormaliser(() => (launcher ??= new Launcher({ spawn: opts.spawn ?? nodeSpawner(), parallelism: 1 })));
      service = CompetitionService.open(opts.competition.file, {
        normaliser,
        ...(opts.competition.limits ? { limits: opts.competition.limits } : {}),
        onError: opts.onError,
      });
    }
    const competition = service
      ? competitionEndpoints(service, {
          publicLeaderboard: opts.competition?.publicLeaderboard,
          heartbeatSeconds: opts.competition?.heartbeatSeconds,
          onError: opts.onError,
        })
      : undefined;
    server = await startWebServer({
      rendererDir,
      api: core.api,
      events: core.events,
      port: opts.port,
      host: opts.host,
      token: opts.token === undefined ? newToken() : opts.token,
      redact,
      ...(competition ? { competition } : {}),
    });
  } catch (e) {
    await service?.close();
    (launcher as Launcher | null)?.dispose();
    core.dispose();
    throw e;
  }
  return {
    url: server.url,
    origin: server.origin,
    port: server.port,
    token: server.token,
    events: core.events,
    competition: service,
    runs: core.runs,
    projects: core.projects!,
    async close() {
      // Runs end with the server: stop the experiment sessions, cancel the runs, end the workers,
      // then close the project file.
      core.dispose();
      await server.close();
      await service?.close();
      (launcher as Launcher | null)?.dispose();
    },
  };
}
