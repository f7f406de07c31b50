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
