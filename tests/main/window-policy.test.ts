import { describe, expect, it } from 'vitest';
import { developerMenuRoles, GRANTED_PERMISSIONS, isAppUrl, isDevelopment, navigationAllowed, permissionGranted } from '../../src-main/window-policy.ts';

const built = { appUrl: 'file:///opt/Saikoro/resources/app/out/renderer/index.html' };
const dev = { devUrl: 'http://localhost:5173', appUrl: 'http://localhost:5173' };

describe('desktop window policy', () => {
  it('knows the app page: the built index.html (hash routes too), or the dev server origin', () => {
    expect(isAppUrl(`${built.appUrl}#/solve`, built)).toBe(true);
    expect(isAppUrl('file:///etc/passwd', built)).toBe(false);
    expect(isAppUrl(`${built.appUrl}?x=1`, built)).toBe(false);
    expect(isAppUrl('http://localhost:5173/src/x.ts', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false);
    // A malformed URL is simply not the app (it threw inside the event handler before).
    expect(isAppUrl('not a url', dev)).toBe(false);
    expect(isAppUrl(undefined, built)).toBe(false);
  });

  it('allows navigation and redirects only to the app page in the top frame, and only an inline page in a frame', () => {
    expect(navigationAllowed(`${built.appUrl}#/dice`, true, built)).toBe(true);
    expect(navigationAllowed('https://example.com/', true, built)).toBe(false);
    // A frame may not even load the app page; only the Export preview's srcdoc page.
    expect(navigationAllowed(built.appUrl, false, built)).toBe(false);
    expect(navigationAllowed('https://example.com/', false, dev)).toBe(false);
    expect(navigationAllowed('about:srcdoc', false, built)).toBe(true);
    expect(navigationAllowed('about:srcdoc#setup', false, built)).toBe(true);
    expect(navigationAllowed('about:srcdoc', true, built)).toBe(false);
    expect(navigationAllowed('about:blank', false, built)).toBe(false);
    expect(navigationAllowed('blob:file:///x', false, built)).toBe(false);
    expect(navigationAllowed(undefined, false, built)).toBe(false);
  });

  it('grants no permission', () => {
    expect(GRANTED_PERMISSIONS.size).toBe(0);
    for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read', 'clipboard-sanitized-write', 'openExternal', 'fullscreen', 'hid', 'usb', 'serial', 'unknown']) expect(permissionGranted(p)).toBe(false);
  });

  it('offers Reload and DevTools only in development', () => {
    expect(isDevelopment({ isPackaged: true }, undefined)).toBe(false);
    expect(isDevelopment({ isPackaged: false }, undefined)).toBe(true);
    expect(isDevelopment({ isPackaged: true }, 'http://localhost:5173')).toBe(true);
    expect(developerMenuRoles(false)).toEqual([]);
    expect(developerMenuRoles(true)).toEqual(['reload', 'forceReload', 'toggleDevTools']);
  });
});
