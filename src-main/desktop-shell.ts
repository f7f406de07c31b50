/**
 * The desktop window's project handling as plain functions (no electron import, so tests can
 * check them; src-main/electron/main.ts wires them to menus, dialogs and the window): the File
 * menu, the window title, and a project file dropped onto the window.
 */
import { fileURLToPath } from 'node:url';
import type { ProjectFileEntry, ProjectSummary } from '../src-shared/projects/project-api.ts';
import type { DesktopPaths } from './app/project-paths.ts';
import { refusalToWrite } from './report/output-target.ts';

export interface FileMenuActions {
  newProject(): void;
  openProject(): void;
  openRecent(path: string): void;
  closeProject(): void;
  exportReport(): void;
  quit(): void;
}

/** A menu item as Electron takes it, minus Electron's types. */
export interface MenuSpec {
  label?: string;
  accelerator?: string;
  enabled?: boolean;
  type?: 'separator';
  role?: 'close' | 'quit' | 'recentDocuments' | 'clearRecentDocuments';
  click?: () => void;
  submenu?: MenuSpec[];
}

/** File: New, Open, Open Recent, Close, Export, and Quit (Close Window on macOS). */
export function fileMenu(actions: FileMenuActions, recent: readonly ProjectFileEntry[], hasProject: boolean, isMac: boolean): MenuSpec {
  const recentItems: MenuSpec[] = recent.length
    ? recent.map((r) => ({ label: r.path, click: () => actions.openRecent(r.path) }))
    : [{ label: 'No recent projects', enabled: false }];
  return {
    label: 'File',
    submenu: [
      { label: 'New Project…', accelerator: 'CmdOrCtrl+N', click: actions.newProject },
      { label: 'Open Project…', accelerator: 'CmdOrCtrl+O', click: actions.openProject },
      { label: 'Open Recent', submenu: recentItems },
      { label: 'Close Project', accelerator: 'CmdOrCtrl+Shift+W', enabled: hasProject, click: actions.closeProject },
      { type: 'separator' },
      { label: 'Export Report…', accelerator: 'CmdOrCtrl+E', enabled: hasProject, click: actions.exportReport },
      { type: 'separator' },
      isMac ? { role: 'close' } : { label: 'Quit', accelerator: 'CmdOrCtrl+Q', click: actions.quit },
    ],
  };
}

/** "study — Saikoro" (read-only marked), or "Saikoro" with no project. */
export function windowTitle(project: Pick<ProjectSummary, 'name' | 'path' | 'readOnly'> | null): string {
  if (!project) return 'Saikoro';
  return `${project.name}${project.readOnly ? ' (read-only)' : ''} — Saikoro`;
}

/**
 * A file dropped onto the window makes Chromium navigate to it: the project file it is, or
 * null (any other navigation is refused as before).
 */
export function droppedProjectFile(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'file:' || !u.pathname.endsWith('.saikoro')) return null;
  try {
    return fileURLToPath(u);
  } catch {
    return null;
  }
}

/**
 * The API's pickProjectFile on the desktop: the native dialog (`dialog`), and the path the user
 * chose approved, so that the page may then open or create that file and no other
 * (src-main/app/project-paths.ts, desktopPaths).
 */
export function approvingPicker(
  paths: Pick<DesktopPaths, 'approve'>,
  dialog: (purpose: 'open' | 'create') => Promise<string | null>,
): (purpose: 'open' | 'create') => Promise<string | null> {
  return async (purpose) => {
    const chosen = await dialog(purpose);
    if (chosen !== null) paths.approve(chosen);
    return chosen;
  };
}

/**
 * Why a file the page downloads (an exported report, a selection, a chart) may not be saved at
 * the path chosen in the save dialog, or null when it may. The dialog has asked before
 * replacing a file (the user's yes is --force), so only what no answer allows is refused: a
 * project, a FIFO or a device, a directory (output-target.ts, the rule `saikoro report --out`
 * follows).
 */
export function downloadRefusal(chosen: string): string | null {
  return refusalToWrite(chosen, { force: true });
}
