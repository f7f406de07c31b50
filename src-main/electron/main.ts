/**
 * The desktop app's main process: one window, a small menu, and the API served over IPC.
 * Security: contextIsolation, sandbox, no nodeIntegration, no new windows, no navigation or
 * redirect away from the app in any frame, no permission granted, no DevTools or reload
 * outside development, and every IPC call checked against the app's own URL
 * (src-main/window-policy.ts holds the rules, tested without Electron).
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, session, shell, type IpcMainInvokeEvent, type MenuItemConstructorOptions } from 'electron';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { API_CALL_NAMES, callChannel, eventChannel, type MenuCommand } from '../../src-shared/api.ts';
import { createApi } from '../api/implementation.ts';
import { dispatchCall } from '../api/dispatch.ts';
import { ApiEventHub } from '../api/events.ts';
import { RunService } from '../api/runs.ts';
import { ProjectService } from '../api/projects.ts';
import { desktopPaths, type ProjectPaths } from '../app/project-paths.ts';
import { droppedProjectFile, fileMenu, windowTitle, type MenuSpec } from '../desktop-shell.ts';
import { SolverHost } from '../host/pool.ts';
import { electronSpawner } from './solver-spawner.ts';
import { developerMenuRoles, isAppUrl as isAppUrlAt, isDevelopment, navigationAllowed, permissionGranted } from '../window-policy.ts';

const PRELOAD = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
const RENDERER_HTML = fileURLToPath(new URL('../renderer/index.html', import.meta.url));
// electron-vite dev sets this to the Vite dev server; otherwise the built files are loaded.
const DEV_URL = process.env.ELECTRON_RENDERER_URL;
const APP_URL = DEV_URL ?? pathToFileURL(RENDERER_HTML).href;

const LOCATION = { devUrl: DEV_URL, appUrl: APP_URL };
// DevTools and reloading only while developing (not in a packaged app).
const DEVELOPMENT = isDevelopment(app, DEV_URL);

function isAppUrl(url: string | undefined): boolean {
  return isAppUrlAt(url, LOCATION);
}

const events = new ApiEventHub();
const disposers: (() => void)[] = [];
// Created once the app is ready: utility processes cannot be forked before.
let api: ReturnType<typeof createApi>;
let projects: ProjectService;
let paths: ProjectPaths;
let mainWindow: BrowserWindow | null = null;

function createServices(): void {
  const host = new SolverHost({ spawn: electronSpawner() });
  const runs = new RunService(host, events);
  // The recent list lives in the app's data folder (userData/recent-projects.json).
  paths = desktopPaths(join(app.getPath('userData'), 'recent-projects.json'));
  projects = new ProjectService(runs, events, paths, host.parallelism, printPdf);
  api = createApi({ name: app.getName(), version: app.getVersion(), platform: process.platform, runtime: 'electron' }, { runs, projects, pickProjectFile });
  disposers.push(() => projects.dispose(), () => runs.dispose(), () => host.dispose());
  // The title names the open project; the menu's Close, Export and recent list follow it.
  const detach = events.attach(({ event }) => {
    if (event !== 'onProjectChanged') return;
    mainWindow?.setTitle(windowTitle(projects.summary()));
    Menu.setApplicationMenu(buildMenu());
  });
  disposers.push(detach);
}

/** The report's page printed by Electron itself: a hidden window, no scripts, A4 with backgrounds. */
async function printPdf(html: string): Promise<Buffer> {
  const win = new BrowserWindow({ show: false, webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false } });
  try {
    await win.loadURL(`data:text/html;base64,${Buffer.from(html).toString('base64')}`);
    return await win.webContents.printToPDF({ printBackground: true, pageSize: 'A4', margins: { top: 0.55, bottom: 0.55, left: 0.47, right: 0.47 } });
  } finally {
    win.destroy();
  }
}

/** The API's pickProjectFile: a native dialog, the chosen path or null. */
async function pickProjectFile(purpose: 'open' | 'create'): Promise<string | null> {
  if (!mainWindow) return null;
  const filters = [{ name: 'Saikoro project', extensions: ['saikoro'] }];
  if (purpose === 'create') {
    const chosen = await dialog.showSaveDialog(mainWindow, { title: 'New project', defaultPath: 'study.saikoro', filters });
    if (chosen.canceled || !chosen.filePath) return null;
    return chosen.filePath.endsWith('.saikoro') ? chosen.filePath : `${chosen.filePath}.saikoro`;
  }
  const chosen = await dialog.showOpenDialog(mainWindow, { title: 'Open project', properties: ['openFile'], filters });
  return chosen.canceled || chosen.filePaths.length === 0 ? null : chosen.filePaths[0];
}

/** Runs a project action from the menu or a drop; a failure is shown in a dialog, nothing else changes. */
async function projectAction(what: string, action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
    sendMenuCommand({ kind: 'navigate', view: 'project' });
  } catch (e) {
    if (mainWindow) await dialog.showMessageBox(mainWindow, { type: 'error', message: `Could not ${what}`, detail: (e as Error).message });
  }
}

async function newProject(): Promise<void> {
  const file = await pickProjectFile('create');
  if (file) await projectAction('create the project', () => projects.create(file));
}

async function openProject(file?: string): Promise<void> {
  const path = file ?? (await pickProjectFile('open'));
  if (path) await projectAction('open the project', () => projects.open(path));
}

function registerIpc(): void {
  for (const name of API_CALL_NAMES) {
    const channel = callChannel(name);
    ipcMain.handle(channel, (event: IpcMainInvokeEvent, ...args: unknown[]) => {
      // Only our own page, in the top frame, may call the API.
      const frame = event.senderFrame;
      if (!frame || frame.parent !== null || !isAppUrl(frame.url)) {
        return { ok: false, error: { name: 'Forbidden', message: `API call from an unexpected frame: ${frame?.url ?? 'unknown'}` } };
      }
      return dispatchCall(api, name, args);
    });
    disposers.push(() => ipcMain.removeHandler(channel));
  }
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1360,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    title: 'Saikoro',
    show: false,
    backgroundColor: '#f7f8fa',
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      spellcheck: false,
      devTools: DEVELOPMENT,
    },
  });
  win.once('ready-to-show', () => win.show());

  // No new windows: links with target=_blank go to the system browser if they are http(s).
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (isAppUrl(url)) return;
    event.preventDefault();
    // A project file dropped onto the window: open it.
    const dropped = droppedProjectFile(url);
    if (dropped) void openProject(dropped);
  });
  // A redirect is a navigation too (a server answering 302 to somewhere else), and so is a
  // navigation inside a frame: only the app's own page, in the top frame.
  win.webContents.on('will-redirect', (event) => {
    if (!navigationAllowed(event.url, event.isMainFrame, LOCATION)) event.preventDefault();
  });
  win.webContents.on('will-frame-navigate', (event) => {
    if (!navigationAllowed(event.url, event.isMainFrame, LOCATION)) event.preventDefault();
  });
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());

  const detach = events.attach(({ event, payload }) => {
    if (!win.isDestroyed()) win.webContents.send(eventChannel(event), payload);
  });
  win.on('closed', () => {
    detach();
    if (mainWindow === win) mainWindow = null;
  });
  mainWindow = win;

  if (DEV_URL) void win.loadURL(DEV_URL);
  else void win.loadFile(RENDERER_HTML);
  return win;
}

function sendMenuCommand(command: MenuCommand): void {
  events.emit('onMenuCommand', command);
}

/** Electron's menu item from the plain one (src-main/desktop-shell.ts). */
function menuItem(spec: MenuSpec): MenuItemConstructorOptions {
  return { ...spec, submenu: spec.submenu?.map(menuItem) } as MenuItemConstructorOptions;
}

function buildMenu(): Menu {
  const isMac = process.platform === 'darwin';
  const file = fileMenu(
    {
      newProject: () => void newProject(),
      openProject: () => void openProject(),
      openRecent: (path) => void openProject(path),
      closeProject: () => void projectAction('close the project', () => projects.close()),
      exportReport: () => sendMenuCommand({ kind: 'export' }),
      quit: () => app.quit(),
    },
    paths ? paths.list() : [],
    Boolean(projects?.summary()),
    isMac,
  );
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    menuItem(file),
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        // The renderer binds the digit keys itself; the menu only offers the same jumps.
        { label: 'Project', click: () => sendMenuCommand({ kind: 'navigate', view: 'project' }) },
        { label: 'Dice evaluator', click: () => sendMenuCommand({ kind: 'navigate', view: 'dice' }) },
        { label: 'Solve', click: () => sendMenuCommand({ kind: 'navigate', view: 'solve' }) },
        { type: 'separator' },
        // Reload and DevTools only while developing: a packaged app has neither.
        ...developerMenuRoles(DEVELOPMENT).map((role): MenuItemConstructorOptions => ({ role })),
        ...(DEVELOPMENT ? [{ type: 'separator' as const }] : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ label: 'Keyboard shortcuts', accelerator: 'F1', click: () => sendMenuCommand({ kind: 'showShortcuts' }) }],
    },
  ];
  return Menu.buildFromTemplate(template);
}

app.enableSandbox();
app.whenReady().then(() => {
  // The app needs no permission (camera, notifications, clipboard reads, ...): deny them all.
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(permissionGranted(permission)));
  session.defaultSession.setPermissionCheckHandler((_contents, permission) => permissionGranted(permission));
  createServices();
  registerIpc();
  Menu.setApplicationMenu(buildMenu());
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
app.on('will-quit', () => {
  for (const dispose of disposers.splice(0)) dispose();
});
