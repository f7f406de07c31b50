// The real main side in-process for renderer tests: the API implementation with a solver host
// (worker processes), runs and a project service on a temporary workspace, behind the same
// bridge the desktop preload gives (envelopes unwrapped, events forwarded), and what its IPC
// does to a call: the arguments structured-cloned, then checked as the main process checks them
// (checkCallArguments, in dispatchCall), so every call a view makes is proven to pass the desktop's IPC layer.
// No mocks: views are tested against what the app really answers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  apiFromBridge,
  API_CALL_NAMES,
  API_EVENT_NAMES,
  type ApiEventName,
  type ExperimentSession,
  type MenuCommand,
  type SaikoroApi,
  type SaikoroBridge,
} from '../../src-shared/api.ts';
import type { ProgramPolicy } from '../../src-main/app/program-policy.ts';
import { dispatchCall } from '../../src-main/api/dispatch.ts';
import type { ApiEventHub } from '../../src-main/app/events.ts';
import { createAppCore } from '../../src-main/api/core.ts';
import type { RunService } from '../../src-main/app/run-service.ts';
import type { ProjectService, PdfPrinter } from '../../src-main/app/project-service.ts';
import { workspacePaths } from '../../src-main/app/project-paths.ts';
import { nodeSpawner } from '../../src-main/host/spawner.ts';

export interface RealApp {
  api: SaikoroApi;
  events: ApiEventHub;
  workspace: string;
  projects: ProjectService;
  runs: RunService;
  /** Sends a desktop menu command to the page. */
  menu(command: MenuCommand): void;
  dispose(): void;
}

/**
 * `printPdf`: how exportReport prints a PDF (none by default: PDF is then refused, as without a
 * printer). `programs`: whether solver programs may run (by default refused, as by a web server
 * started without --allow-commands).
 */
export function realApp(options: { parallelism?: number; printPdf?: PdfPrinter; programs?: ProgramPolicy } = {}): RealApp {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-ui-'));
  // The app wired as the desktop and the web server wire it.
  const core = createAppCore({
    appInfo: { name: 'saikoro', version: '0.0.0-test', platform: 'test', runtime: 'web' },
    spawn: nodeSpawner(),
    parallelism: options.parallelism ?? 2,
    paths: workspacePaths(workspace),
    printPdf: options.printPdf ?? null,
    ...(options.programs ? { programs: options.programs } : {}),
  });
  const { events, runs, api: impl } = core;
  const projects = core.projects!;
  const bridge: Record<string, unknown> = {};
  for (const name of API_CALL_NAMES)
    bridge[name] = async (...args: unknown[]) => {
      // ipcRenderer.invoke clones the arguments (a reactive proxy it cannot clone is an error there too).
      // dispatchCall checks the arguments, as the desktop's IPC handler and the web server do.
      return dispatchCall(impl, name, structuredClone(args));
    };
  for (const name of API_EVENT_NAMES)
    bridge[name] = (listener: (payload: unknown) => void) =>
      events.attach((m) => {
        if (m.event === (name as ApiEventName)) listener(m.payload);
      });
  return {
    api: apiFromBridge(bridge as unknown as SaikoroBridge),
    events,
    workspace,
    projects,
    runs,
    menu: (command) => events.emit('onMenuCommand', command),
    dispose() {
      core.dispose();
      fs.rmSync(workspace, { recursive: true, force: true });
    },
  };
}

/** Runs the experiment `name` of the open project (2 jobs) and answers its session once it ended: done, failed or cancelled. */
export async function runExperimentToEnd(api: SaikoroApi, name: string): Promise<ExperimentSession> {
  const ended = new Promise<ExperimentSession>((resolve) => {
    const detach = api.onExperimentSession((s) => {
      if (s.experiment === name && (s.status === 'done' || s.status === 'failed' || s.status === 'cancelled')) {
        detach();
        resolve(s);
      }
    });
  });
  await api.runExperiment(name, { jobs: 2 });
  return ended;
}
