/**
 * The app wired once, for every shell that serves the API: the desktop (src-main/electron/
 * main.ts), the web server (src-main/server/app-server.ts) and the test harnesses
 * (tests/main/api/harness.ts, tests/renderer/real-app.ts, tests/renderer/app.test.ts). One event hub, one launcher (the
 * solver host's only owner), the RunService over it, the ProjectService over both, and the
 * API implementation; the shell adds only what is its own (how workers start, where project
 * paths may go, how a PDF is printed, a native file dialog).
 *
 * Ownership: the core owns all of them; dispose() stops the experiment sessions, cancels the
 * runs, ends the workers, and then closes the project file.
 */
import type { AppInfo } from '../../src-shared/api.ts';
import type { Disposable } from '../../src-shared/base/disposable.ts';
import { ApiEventHub } from '../app/events.ts';
import { createApi, type ApiDependencies } from './implementation.ts';
import type { WorkerSpawner } from '../host/spawner.ts';
import { Launcher } from '../app/launcher.ts';
import type { ProjectPaths } from '../app/project-paths.ts';
import { ProjectService, type PdfPrinter } from '../app/project-service.ts';
import { RunService } from '../app/run-service.ts';
import { ProgramGate } from '../app/program-gate.ts';
import { refusePrograms, type ProgramPolicy } from '../app/program-policy.ts';

export interface AppCoreOptions {
  appInfo: AppInfo;
  /** How solver workers start: utility processes on the desktop, Node child processes elsewhere. */
  spawn: WorkerSpawner;
  /** Parallel runs (default: one per core). */
  parallelism?: number;
  /** Each worker's memory limit in MB (default: the host's share of this machine's memory; null: none). */
  memoryLimitMb?: number | null;
  /** Where project files may be (null: no project calls, as a viewer without projects). */
  paths: ProjectPaths | null;
  /** How a report's page is printed to PDF (null: PDF export is refused). */
  printPdf?: PdfPrinter | null;
  /** A native file dialog (the desktop). */
  pickProjectFile?: ApiDependencies['pickProjectFile'];
  /** Whether solver programs may run (src-main/app/program-policy.ts; default: none). The app's program gate asks it. */
  programs?: ProgramPolicy;
}

export interface AppCore extends Disposable {
  readonly events: ApiEventHub;
  /** Where every run of this app starts (planners use it too: the HV normalisation is computed in a worker). */
  readonly launcher: Launcher;
  readonly runs: RunService;
  /** Null without project paths. */
  readonly projects: ProjectService | null;
  readonly api: ReturnType<typeof createApi>;
}

export function createAppCore(options: AppCoreOptions): AppCore {
  const events = new ApiEventHub();
  const launcher = new Launcher({
    spawn: options.spawn,
    parallelism: options.parallelism,
    ...(options.memoryLimitMb !== undefined ? { memoryLimitMb: options.memoryLimitMb } : {}),
  });
  // One gate for every program of this app, whichever call starts it; without a policy, none runs.
  let projects: ProjectService | null = null;
  const gate = new ProgramGate({
    policy: options.programs ?? refusePrograms('this app instance does not run programs'),
    currentProject: () => projects?.openFile() ?? null,
  });
  const runs = new RunService(launcher, events, gate);
  projects = options.paths ? new ProjectService(runs, events, options.paths, launcher.parallelism, gate, options.printPdf ?? null) : null;
  const api = createApi(options.appInfo, {
    runs,
    ...(projects ? { projects } : {}),
    ...(options.pickProjectFile ? { pickProjectFile: options.pickProjectFile } : {}),
  });
  return {
    events,
    launcher,
    runs,
    projects,
    api,
    dispose() {
      projects?.dispose();
      runs.dispose();
      launcher.dispose();
    },
  };
}
