/**
 * The desktop app's main process: one window, a small menu, and the API served over IPC.
 * Security: contextIsolation, sandbox, no nodeIntegration, no new windows (a link to the
 * project's documentation opens in the system browser, any other web link only if the user
 * says so), no navigation or redirect away from the app in any frame, no permission granted,
 * no DevTools or reload outside development, every IPC call checked against the app's own URL
 * and its arguments checked (src-main/api/call-arguments.ts, in dispatchCall as for HTTP), and projects opened from the page
 * only when the user picked or dropped them. The rules are plain modules tested without
 * Electron: src-main/window-policy.ts, src-main/desktop-shell.ts, src-main/print-file.ts,
 * src-main/app/project-paths.ts.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, session, shell, type IpcMainInvokeEvent, type MenuItemConstructorOptions, type Session } from 'electron';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { API_CALL_NAMES, callChannel, eventChannel, type MenuCommand } from '../../src-shared/api.ts';
import { askOncePerProject, programQuestion } from '../app/program-policy.ts';
import { dispatchCall } from '../api/dispatch.ts';
import { createAppCore, type AppCore } from '../api/core.ts';
import type { ProjectService } from '../app/project-service.ts';
import { desktopPaths, type DesktopPaths } from '../app/project-paths.ts';
import { approvingPicker, downloadRefusal, droppedProjectFile, fileMenu, windowTitle, type MenuSpec } from '../desktop-shell.ts';
import { PrintFiles } from '../print-file.ts';
import { electronSpawner } from './solver-spawner.ts';
import { developerMenuRoles, isAppUrl as isAppUrlAt, isDevelopment, linkOpener, navigationAllowed, permissionGranted } from '../window-policy.ts';

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

const disposers: (() => void)[] = [];
// Created once the app is ready: utility processes cannot be forked before.
let core: AppCore;
let projects: ProjectService;
let paths: DesktopPaths;
let mainWindow: BrowserWindow | null = null;

function createServices(): void {
  // The recent list lives in the app's data folder (userData/recent-projects.json).
  paths = desktopPaths(join(app.getPath('userData'), 'recent-projects.json'));
  core = createAppCore({
    appInfo: { name: app.getName(), version: app.getVersion(), platform: process.platform, runtime: 'electron' },
    spawn: electronSpawner(),
    paths,
    printPdf,
    pickProjectFile,
    programs: askOncePerProject(confirmProgram),
  });
  projects = core.projects!;
  disposers.push(() => core.dispose());
  const events = core.events;
  // The title names the open project; the menu's Close, Export and recent list follow it.
  const detach = events.attach(({ event }) => {
    if (event !== 'onProjectChanged') return;
    mainWindow?.setTitle(windowTitle(projects.summary()));
    Menu.setApplicationMenu(buildMenu());
  });
  disposers.push(detach);
}

const printFiles = new PrintFiles();
const PRINT_PARTITION = 'saikoro-print';
let printSession: Session | null = null;

/** The print windows' own session (in memory): it loads only the page being printed and data: images, and grants nothing. */
function printSessionOnce(): Session {
  if (printSession) return printSession;
  printSession = session.fromPartition(PRINT_PARTITION);
  printSession.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !printFiles.requestAllowed(details.url) }));
  printSession.setPermissionRequestHandler((_contents, permission, callback) => callback(permissionGranted(permission)));
  printSession.setPermissionCheckHandler((_contents, permission) => permissionGranted(permission));
  return printSession;
}

/**
 * The report's page printed by Electron itself: a hidden window, no scripts, A4 with
 * backgrounds, loaded from a temporary file (a data: URL over 2 MB is refused) that is removed
 * afterwards, with the same guards as the main window.
 */
async function printPdf(html: string): Promise<Buffer> {
  return printFiles.print(html, async (fileUrl) => {
    const win = new BrowserWindow({
      show: false,
      webPreferences: {
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
        javascript: false,
        webviewTag: false,
        devTools: false,
        session: printSessionOnce(),
      },
    });
    guardNavigation(win, (url, isMainFrame) => printFiles.navigationAllowed(url, isMainFrame));
    try {
      await win.loadURL(fileUrl);
      return await win.webContents.printToPDF({ printBackground: true, pageSize: 'A4', margins: { top: 0.55, bottom: 0.55, left: 0.47, right: 0.47 } });
    } finally {
      win.destroy();
    }
  });
}

/** Asks the person, naming the program, before a solver program first runs for a project (program-policy.ts). */
async function confirmProgram(question: Parameters<typeof programQuestion>[0]): Promise<boolean> {
  const { message, detail } = programQuestion(question);
  const options = { type: 'warning' as const, message, detail, buttons: ['Run it', 'Cancel'], defaultId: 1, cancelId: 1, noLink: true };
  const answer = mainWindow ? await dialog.showMessageBox(mainWindow, options) : await dialog.showMessageBox(options);
  return answer.response === 0;
}

/** The API's pickProjectFile: a native dialog, the chosen path (approved for the page to open) or null. */
const pickProjectFile = (purpose: 'open' | 'create') => approvingPicker(paths, showProjectDialog)(purpose);

/** A native dialog: the chosen path or null. */
async function showProjectDialog(purpose: 'open' | 'create'): Promise<string | null> {
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
      // Plain data of the right shapes and sizes only, before the API sees it (dispatchCall checks, as for HTTP).
      return dispatchCall(core.api, name, args);
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

  guardNavigation(
    win,
    (url, isMainFrame) => navigationAllowed(url, isMainFrame, LOCATION),
    (url) => {
      // A project file dropped onto the window: the user chose it, open it.
      const dropped = droppedProjectFile(url);
      if (dropped) {
        paths.approve(dropped);
        void openProject(dropped);
      }
    },
  );

  const detach = core.events.attach(({ event, payload }) => {
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

/**
 * The guards every window gets: no new window (a link opened in one goes to the system
 * browser when it is the project's documentation, after a question when it is another web
 * link, never otherwise), and no navigation, redirect or frame navigation that `allowed`
 * refuses; `refused` hears of a top-level navigation that was stopped (a dropped file).
 */
function guardNavigation(win: BrowserWindow, allowed: (url: string | undefined, isMainFrame: boolean) => boolean, refused?: (url: string) => void): void {
  win.webContents.setWindowOpenHandler(({ url }) => {
    void openLink(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (allowed(url, true)) return;
    event.preventDefault();
    refused?.(url);
  });
  // A redirect is a navigation too (a server answering 302 to somewhere else), and so is a
  // navigation inside a frame.
  win.webContents.on('will-redirect', (event) => {
    if (!allowed(event.url, event.isMainFrame)) event.preventDefault();
  });
  win.webContents.on('will-frame-navigate', (event) => {
    if (!allowed(event.url, event.isMainFrame)) event.preventDefault();
  });
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());
}

/** A link the page opened in a new window: documentation opens, any other web link only after a yes (src-main/window-policy.ts). */
const openLink = linkOpener({
  async ask(question) {
    const options = {
      type: 'question' as const,
      message: question.message,
      detail: question.detail,
      buttons: question.buttons,
      defaultId: question.defaultId,
      cancelId: question.cancelId,
      noLink: true,
    };
    const answer = mainWindow ? await dialog.showMessageBox(mainWindow, options) : await dialog.showMessageBox(options);
    return answer.response;
  },
  openExternal: (url) => shell.openExternal(url),
});

function sendMenuCommand(command: MenuCommand): void {
  core.events.emit('onMenuCommand', command);
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
  // A download from the page (an export) is saved where the user says, asking before it replaces
  // a file, and never over a project, a FIFO or a device (downloadRefusal).
  session.defaultSession.on('will-download', (_event, item) => {
    for (;;) {
      const options = {
        defaultPath: item.getFilename(),
        properties: ['showOverwriteConfirmation', 'createDirectory'] as ('showOverwriteConfirmation' | 'createDirectory')[],
      };
      const chosen = mainWindow ? dialog.showSaveDialogSync(mainWindow, options) : dialog.showSaveDialogSync(options);
      if (!chosen) {
        item.cancel();
        return;
      }
      const refusal = downloadRefusal(chosen);
      if (refusal === null) {
        item.setSavePath(chosen);
        return;
      }
      const message = { type: 'error' as const, message: `Not saved: ${chosen}`, detail: `${chosen} ${refusal}. Choose another name.` };
      if (mainWindow) dialog.showMessageBoxSync(mainWindow, message);
      else dialog.showMessageBoxSync(message);
    }
  });
  // Print folders a crash left behind (a report in each).
  void printFiles.removeStale();
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
