import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createApi } from '../api/implementation.ts';
import { packageAppInfo } from '../api/app-info.ts';
import { ApiEventHub } from '../api/events.ts';
import { DEFAULT_RENDERER_OUT, ensureRendererBuilt } from './renderer-build.ts';
import { startWebServer, type WebServer } from './web-server.ts';

export interface AppServerOptions {
  port?: number;
  host?: string;
  /** Where the built renderer lives (default out/renderer); built there when missing or stale. */
  rendererDir?: string;
  /** When to build the renderer first: when missing or older than its sources (default), always, or never. */
  build?: 'when-stale' | 'always' | 'never';
  /** Called before a (slow) renderer build starts. */
  onBuild?: (rendererDir: string) => void;
}

export class RendererMissingError extends Error {
  constructor(readonly rendererDir: string) {
    super(`no built renderer in ${rendererDir} (index.html is missing); run without --no-build to build it`);
    this.name = 'RendererMissingError';
  }
}

export interface AppServer extends WebServer {
  readonly events: ApiEventHub;
}

/** The whole browser-facing app: API implementation, event hub, built renderer and web server. */
export async function startAppServer(opts: AppServerOptions = {}): Promise<AppServer> {
  const rendererDir = opts.rendererDir ?? DEFAULT_RENDERER_OUT;
  const build = opts.build ?? 'when-stale';
  if (build !== 'never') await ensureRendererBuilt(rendererDir, { force: build === 'always', onBuild: opts.onBuild });
  else if (!existsSync(join(rendererDir, 'index.html'))) throw new RendererMissingError(rendererDir);
  const events = new ApiEventHub();
  const server = await startWebServer({ rendererDir, api: createApi(packageAppInfo('web')), events, port: opts.port, host: opts.host });
  return Object.assign(server, { events });
}
