/**
 * What the desktop window allows, as plain functions (no electron import, so tests can check
 * them; src-main/electron/main.ts wires them to Electron's handlers):
 * - navigation: only the app's own page, and only in the top frame (will-navigate,
 *   will-redirect, will-frame-navigate); a frame only an inline page (about:srcdoc: the
 *   Export view's sandboxed preview of a report);
 * - permissions (camera, notifications, clipboard reads, geolocation, ...): none is granted;
 *   the app needs none, so every request and every check is denied;
 * - the developer menu items (Reload, Force Reload, Toggle Developer Tools) and the DevTools
 *   themselves: only in development (not packaged, or running on the dev server).
 */

/** Where the app's page is: the dev server's origin, or the built index.html's file URL. */
export interface AppLocation {
  /** electron-vite's dev server (ELECTRON_RENDERER_URL), when running `npm run dev`. */
  devUrl?: string;
  /** The URL the window loads. */
  appUrl: string;
}

/** Whether `url` is the app's own page (any hash route); a malformed URL is not. */
export function isAppUrl(url: string | undefined, location: AppLocation): boolean {
  if (!url) return false;
  if (location.devUrl) {
    try {
      return new URL(url).origin === new URL(location.devUrl).origin;
    } catch {
      return false;
    }
  }
  // Built app: exactly our index.html (the renderer is a single page; hash routes allowed).
  return url.split('#')[0] === location.appUrl;
}

/**
 * The one document a frame may load: an inline page (`<iframe srcdoc sandbox="">`, the Export
 * view's preview of a report), which brings its content with it and, sandboxed, runs nothing.
 */
const isInlineFrame = (url: string | undefined): boolean => url?.split('#')[0] === 'about:srcdoc';

/** Whether a navigation (or redirect) of a frame to `url` may go ahead. */
export function navigationAllowed(url: string | undefined, isMainFrame: boolean, location: AppLocation): boolean {
  return isMainFrame ? isAppUrl(url, location) : isInlineFrame(url);
}

/** Permissions the app's page is granted: none. */
export const GRANTED_PERMISSIONS: ReadonlySet<string> = new Set<string>();

/** The answer to a permission request or check: denied unless listed above. */
export function permissionGranted(permission: string): boolean {
  return GRANTED_PERMISSIONS.has(permission);
}

/** Development: not packaged, or on the dev server. Only then DevTools and reloading. */
export function isDevelopment(app: { isPackaged: boolean }, devUrl: string | undefined): boolean {
  return !app.isPackaged || devUrl !== undefined;
}

/** The View menu's developer items (menu roles), present only in development. */
export function developerMenuRoles(development: boolean): ('reload' | 'forceReload' | 'toggleDevTools')[] {
  return development ? ['reload', 'forceReload', 'toggleDevTools'] : [];
}

/** Where the project's documentation is published: an https origin and a folder under it. */
export interface DocumentationLink {
  /** e.g. "https://docs.example.org" (scheme, host and port only). */
  origin: string;
  /** The folder of the documentation, starting and ending with "/". */
  pathPrefix: string;
}

/**
 * The project's own documentation on the web, the only links the app hands to the system
 * browser without asking. The documentation lives in the repository (docs/*.md), and
 * package.json names no homepage or repository where it could be read on the web, so the list
 * is empty and every web link is asked about first (linkOpener). When package.json gets a
 * `homepage` or `repository`, its docs folder goes here (e.g. `{ origin: 'https://github.com',
 * pathPrefix: '/OWNER/saikoro/blob/main/docs/' }`); tests/main/window-policy.test.ts fails until
 * it does.
 */
export const DOCUMENTATION_LINKS: readonly DocumentationLink[] = [];

/** Addresses longer than this are not handed to the system browser. */
export const MAX_EXTERNAL_URL_LENGTH = 2048;

/**
 * What to do with a link the page opens in a new window (setWindowOpenHandler; the window
 * itself is always denied): `open` the documentation in the system browser; `ask` the user
 * about any other http(s) link (the address shown whole); `deny` every other scheme (file:,
 * javascript:, custom protocol handlers), an address with a user name or password in it (which
 * hides the real host), a malformed or overlong one.
 */
export function externalLinkAction(url: string, documentation: readonly DocumentationLink[] = DOCUMENTATION_LINKS): 'open' | 'ask' | 'deny' {
  if (url.length > MAX_EXTERNAL_URL_LENGTH) return 'deny';
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'deny';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'deny';
  if (u.username !== '' || u.password !== '') return 'deny';
  // The URL parser has resolved dot segments (also %2e%2e) and lower-cased the host.
  const documented = u.protocol === 'https:' && documentation.some((d) => u.origin === d.origin && u.pathname.startsWith(d.pathPrefix));
  return documented ? 'open' : 'ask';
}

/** The question asked before a link outside the documentation opens (a message box; Cancel is the default). */
export function externalLinkQuestion(url: string): { message: string; detail: string; buttons: string[]; defaultId: number; cancelId: number; openId: number } {
  return {
    message: 'Open this link in your browser?',
    detail: `${url}\n\nIt is not part of Saikoro's documentation.`,
    buttons: ['Cancel', 'Open in browser'],
    defaultId: 0,
    cancelId: 0,
    openId: 1,
  };
}

/** What a linkOpener needs of the shell (Electron's message box and shell.openExternal; a fake in tests). */
export interface LinkShell {
  /** Shows the question (a message box) and resolves with the index of the button pressed. */
  ask(question: ReturnType<typeof externalLinkQuestion>): Promise<number>;
  /** Hands the address to the system browser. */
  openExternal(url: string): Promise<void>;
}

/** What became of a link: opened at once (documentation), opened after a yes, declined, refused, or dropped while another question was on screen. */
export type LinkOutcome = 'opened' | 'confirmed' | 'declined' | 'denied' | 'dropped';

/**
 * The window's handler for links the page opens in a new window (setWindowOpenHandler; the
 * window itself is always denied): externalLinkAction decides; `open` goes to the system browser;
 * `ask` opens only after the person says yes in the question (Cancel is the default), and
 * links opened while a question is on screen are dropped, not queued, so a page cannot stack
 * questions; `deny` opens nothing and asks nothing.
 */
export function linkOpener(shell: LinkShell, documentation: readonly DocumentationLink[] = DOCUMENTATION_LINKS): (url: string) => Promise<LinkOutcome> {
  let asking = false;
  return async (url) => {
    const action = externalLinkAction(url, documentation);
    if (action === 'deny') return 'denied';
    if (action === 'open') {
      await shell.openExternal(url);
      return 'opened';
    }
    if (asking) return 'dropped';
    asking = true;
    let answer: number;
    try {
      const question = externalLinkQuestion(url);
      answer = await shell.ask(question);
      if (answer !== question.openId) return 'declined';
    } finally {
      asking = false;
    }
    await shell.openExternal(url);
    return 'confirmed';
  };
}
