import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  developerMenuRoles,
  DOCUMENTATION_LINKS,
  externalLinkAction,
  externalLinkQuestion,
  GRANTED_PERMISSIONS,
  isAppUrl,
  isDevelopment,
  linkOpener,
  MAX_EXTERNAL_URL_LENGTH,
  navigationAllowed,
  permissionGranted,
  type LinkShell,
} from '../../src-main/window-policy.ts';

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
    for (const p of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'clipboard-sanitized-write',
      'openExternal',
      'fullscreen',
      'hid',
      'usb',
      'serial',
      'unknown',
    ])
      expect(permissionGranted(p)).toBe(false);
  });

  it('offers Reload and DevTools only in development', () => {
    expect(isDevelopment({ isPackaged: true }, undefined)).toBe(false);
    expect(isDevelopment({ isPackaged: false }, undefined)).toBe(true);
    expect(isDevelopment({ isPackaged: true }, 'http://localhost:5173')).toBe(true);
    expect(developerMenuRoles(false)).toEqual([]);
    expect(developerMenuRoles(true)).toEqual(['reload', 'forceReload', 'toggleDevTools']);
  });
});

describe('links the page opens in a new window', () => {
  const docs = [{ origin: 'https://saikoro.example', pathPrefix: '/docs/' }];

  it("opens the project's documentation links in the system browser", () => {
    expect(externalLinkAction('https://saikoro.example/docs/app.md', docs)).toBe('open');
    expect(externalLinkAction('https://saikoro.example/docs/projects.md#specs', docs)).toBe('open');
    expect(externalLinkAction('https://SAIKORO.example:443/docs/x?y=1', docs)).toBe('open');
  });

  it('asks about any other http(s) link, lookalikes of the documentation included', () => {
    for (const url of [
      'https://example.com/',
      'http://saikoro.example/docs/app.md', // not https
      'https://saikoro.example/admin',
      'https://saikoro.example/docs', // the folder's prefix without its slash
      'https://saikoro.example/docs/../admin', // normalised to /admin
      'https://saikoro.example/docs/%2e%2e/admin',
      'https://saikoro.example.evil.test/docs/app.md',
      'https://saikoro.example:8443/docs/app.md',
    ])
      expect(externalLinkAction(url, docs), url).toBe('ask');
  });

  it('denies every other scheme, credentials in the address, malformed and overlong addresses', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>1</script>',
      'smb://server/share',
      'ms-settings:',
      'mailto:a@b.c',
      'https://saikoro.example@evil.test/docs/app.md',
      'https://user:pw@saikoro.example/docs/app.md',
      'not a url',
      '',
      `https://saikoro.example/docs/${'a'.repeat(MAX_EXTERNAL_URL_LENGTH)}`,
    ])
      expect(externalLinkAction(url, docs), url).toBe('deny');
  });

  it('the app list holds https documentation prefixes only; the question shows the whole address, Cancel first', () => {
    for (const link of DOCUMENTATION_LINKS) {
      expect(new URL(link.origin).protocol).toBe('https:');
      expect(new URL(link.origin).origin).toBe(link.origin);
      expect(link.pathPrefix.startsWith('/') && link.pathPrefix.endsWith('/')).toBe(true);
    }
    const prompt = externalLinkQuestion('https://example.com/a?b=1');
    expect(prompt.detail).toContain('https://example.com/a?b=1');
    expect(prompt.buttons[prompt.defaultId]).toBe('Cancel');
    expect(prompt.cancelId).toBe(prompt.defaultId);
    expect(prompt.buttons[prompt.openId]).toBe('Open in browser');
  });
});

/** The shell as a fake: the questions asked, the answers given (by button index, held until the test answers), the addresses opened. */
function fakeShell() {
  const asked: ReturnType<typeof externalLinkQuestion>[] = [];
  const answers: ((button: number) => void)[] = [];
  const opened: string[] = [];
  const shell: LinkShell = {
    ask: (question) => new Promise<number>((resolve) => (asked.push(question), answers.push(resolve))),
    openExternal: async (url) => void opened.push(url),
  };
  const answer = (button: number) => answers.shift()!(button);
  return { shell, asked, opened, answer };
}

describe("the window's link handler (linkOpener, with a fake shell)", () => {
  const docs = [{ origin: 'https://saikoro.example', pathPrefix: '/docs/' }];

  it('opens a link outside the documentation only after the person says yes', async () => {
    const fake = fakeShell();
    const open = linkOpener(fake.shell, docs);
    const yes = open('https://example.com/paper.pdf');
    await Promise.resolve();
    // Asked, with the whole address, and nothing opened while the question is on screen.
    expect(fake.asked.map((q) => q.detail)).toEqual([expect.stringContaining('https://example.com/paper.pdf')]);
    expect(fake.opened).toEqual([]);
    fake.answer(fake.asked[0].openId);
    expect(await yes).toBe('confirmed');
    expect(fake.opened).toEqual(['https://example.com/paper.pdf']);

    const no = open('https://example.com/other');
    await Promise.resolve();
    fake.answer(fake.asked[1].cancelId);
    expect(await no).toBe('declined');
    expect(fake.opened).toEqual(['https://example.com/paper.pdf']);
  });

  it('opens the documentation without asking, and refuses other schemes without asking', async () => {
    const fake = fakeShell();
    const open = linkOpener(fake.shell, docs);
    expect(await open('https://saikoro.example/docs/app.md')).toBe('opened');
    expect(await open('file:///etc/passwd')).toBe('denied');
    expect(await open('javascript:alert(1)')).toBe('denied');
    expect([fake.asked, fake.opened]).toEqual([[], ['https://saikoro.example/docs/app.md']]);
  });

  it('drops links opened while a question is on screen, so a page cannot stack questions', async () => {
    const fake = fakeShell();
    const open = linkOpener(fake.shell, docs);
    const first = open('https://example.com/1');
    await Promise.resolve();
    const more = await Promise.all([open('https://example.com/2'), open('https://example.com/3')]);
    expect(more).toEqual(['dropped', 'dropped']);
    expect(fake.asked).toHaveLength(1);
    fake.answer(fake.asked[0].cancelId);
    expect(await first).toBe('declined');
    // Once answered, the next link is asked about again.
    const next = open('https://example.com/4');
    await Promise.resolve();
    expect(fake.asked).toHaveLength(2);
    fake.answer(fake.asked[1].openId);
    expect(await next).toBe('confirmed');
    expect(fake.opened).toEqual(['https://example.com/4']);
  });

  it("with the app's own list, every web link is asked about: package.json names no homepage or repository to allow", async () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { homepage?: unknown; repository?: unknown };
    // When package.json names where the docs are published, DOCUMENTATION_LINKS must allow them (window-policy.ts).
    expect(DOCUMENTATION_LINKS.length > 0).toBe(pkg.homepage !== undefined || pkg.repository !== undefined);
    const fake = fakeShell();
    const open = linkOpener(fake.shell);
    const asked = open('https://github.com/');
    await Promise.resolve();
    expect(fake.asked).toHaveLength(1);
    fake.answer(fake.asked[0].cancelId);
    expect([await asked, fake.opened]).toEqual(['declined', []]);
  });
});
