// The web server's reading of request headers, strictly and as the RFCs say: the
// Authorization scheme in any case (RFC 7235), the Host header's name AND port (against DNS
// rebinding), the Content-Type parsed as a media type (RFC 9110 §8.3.1); and its answers never
// give the client the server's absolute paths (they are relative to the workspace).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { createApi } from '../../../src-main/api/implementation.ts';
import { ApiEventHub } from '../../../src-main/app/events.ts';
import { acceptsJsonMediaType, allowedHostNames, parseHostHeader, startWebServer, type WebServer } from '../../../src-main/server/web-server.ts';
import { startAppServer, type AppServer } from '../../../src-main/server/app-server.ts';
import { PROJECT_ROOT } from '../../../src-main/server/renderer-dir.ts';
import { pathRedactor, workspacePaths } from '../../../src-main/app/project-paths.ts';

const TOKEN = 'k1P9wVq0S3cR7mJ2xL8bZ5nT4hY6dF0gA1eU3oI9rW2';
let root: string;
let rendererDir: string;
let server: WebServer;

type Answer = { status: number; headers: Record<string, unknown>; body: string };
function at(port: number, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}
const call = (headers: Record<string, string>, body = '[]') =>
  at(server.port, '/api/getAppInfo', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}`, ...headers }, body });

function socketStatus(port: number, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/events?token=${TOKEN}`, { headers });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('error', () => resolve(-1));
  });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'saikoro-web-headers-'));
  rendererDir = join(root, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>fake renderer</title>');
  server = await startWebServer({
    rendererDir,
    api: createApi({ name: 'saikoro', version: '1.2.3', platform: 'test', runtime: 'web' }),
    events: new ApiEventHub(),
    port: 0,
    token: TOKEN,
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('Authorization: the scheme is case-insensitive (RFC 7235 §2.1)', () => {
  it('accepts bearer, Bearer and BEARER with the token; refuses other schemes, no token or a wrong one', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) expect((await call({ Authorization: `${scheme} ${TOKEN}` })).status, scheme).toBe(200);
    expect((await call({ Authorization: `Basic ${TOKEN}` })).status).toBe(401);
    expect((await call({ Authorization: 'bearer' })).status).toBe(401);
    expect((await call({ Authorization: `bearer ${TOKEN}x` })).status).toBe(401);
    expect((await call({ Authorization: `Bearertoken ${TOKEN}` })).status).toBe(401);
  });
});

describe('Host: the server answers to its own names on its own port only', () => {
  it('parses a Host header into a lower-case name and a port (80 when absent); a malformed one is null', () => {
    expect(parseHostHeader('localhost:5178')).toEqual({ name: 'localhost', port: 5178 });
    expect(parseHostHeader('LocalHost:5178')).toEqual({ name: 'localhost', port: 5178 });
    expect(parseHostHeader('127.0.0.1')).toEqual({ name: '127.0.0.1', port: 80 });
    expect(parseHostHeader('[::1]:8080')).toEqual({ name: '[::1]', port: 8080 });
    expect(parseHostHeader('[::1]')).toEqual({ name: '[::1]', port: 80 });
    for (const bad of [
      undefined,
      '',
      'localhost:',
      'localhost:x',
      'localhost:5178x',
      'localhost:99999',
      'a:1:2',
      '[::1',
      '[::1]x',
      'local host:1',
      'user@localhost:1',
    ])
      expect(parseHostHeader(bad), String(bad)).toBeNull();
  });

  it('the names it answers to are lower case, as a parsed Host is (a machine named DESKTOP-A1 is reached as desktop-a1 too)', () => {
    expect(allowedHostNames('My-Box.Example').has('my-box.example')).toBe(true);
    expect(allowedHostNames('FE80::1').has('[fe80::1]')).toBe(true);
    for (const name of allowedHostNames('0.0.0.0')) expect(name).toBe(name.toLowerCase());
  });

  it('refuses the right name on another port, no port (80), and a malformed Host; the page, the API and the socket alike', async () => {
    const port = server.port;
    const page = (host: string) => at(port, `/?token=${TOKEN}`, { headers: { Host: host } });
    expect((await page(`localhost:${port}`)).status).toBe(303);
    expect((await page(`LOCALHOST:${port}`)).status).toBe(303);
    expect((await page(`[::1]:${port}`)).status).toBe(303);
    for (const host of [`localhost:${port + 1}`, 'localhost', '127.0.0.1', `127.0.0.1:${port}0`, `localhost:${port}:1`, `evil.example:${port}`]) {
      expect((await page(host)).status, host).toBe(421);
      expect((await call({ Host: host })).status, host).toBe(421);
    }
    expect(await socketStatus(port, { Host: `127.0.0.1:${port}` })).toBe(101);
    expect(await socketStatus(port, { Host: `127.0.0.1:${port + 1}` })).toBe(403);
  });
});

describe('Content-Type: application/json, parsed as a media type', () => {
  it('accepts application/json in any case, with parameters; charset only utf-8', () => {
    for (const ok of [
      'application/json',
      'Application/JSON',
      'application/json; charset=utf-8',
      'application/json;charset="UTF-8"',
      'application/json ; charset=utf8',
      'application/json; foo=bar; charset=utf-8',
      'application/json;',
    ])
      expect(acceptsJsonMediaType(ok), ok).toBe(true);
    for (const bad of [
      undefined,
      '',
      'application/jsonfoo',
      'application/json-patch+json',
      'application/json5',
      'application/jsonp; charset=utf-8',
      'text/plain',
      'application/json; charset=latin1',
      'application/json, text/plain',
      'application/json x',
      'application/json; =x',
      'application/json; charset',
      'application/json; charset="utf-8',
      'application /json',
      'application/ json',
    ])
      expect(acceptsJsonMediaType(bad), String(bad)).toBe(false);
  });

  it('the server answers 415 to application/jsonfoo and 200 to application/json; charset=UTF-8', async () => {
    const foo = await call({ 'Content-Type': 'application/jsonfoo' });
    expect(foo.status).toBe(415);
    expect(foo.body).toBe('API calls take application/json (charset utf-8, when given)');
    expect((await call({ 'Content-Type': 'application/json; charset=latin1' })).status).toBe(415);
    expect((await call({ 'Content-Type': 'application/json; charset=UTF-8' })).status).toBe(200);
  });
});

describe('answers name files relative to the workspace, never by their absolute path', () => {
  let app: AppServer;
  let realWorkspace: string;
  let givenWorkspace: string;
  beforeAll(async () => {
    realWorkspace = join(root, 'real-workspace');
    mkdirSync(realWorkspace);
    realWorkspace = realpathSync(realWorkspace);
    // The workspace is given through a symbolic link, so two spellings of it exist.
    givenWorkspace = join(root, 'workspace-link');
    symlinkSync(realWorkspace, givenWorkspace);
    writeFileSync(join(realWorkspace, 'garbage.saikoro'), 'this is not an SQLite database at all');
    mkdirSync(join(realWorkspace, 'dir.saikoro'));
    app = await startAppServer({ port: 0, rendererDir, build: 'never', workspace: givenWorkspace, token: null, parallelism: 1 });
  });
  afterAll(async () => {
    await app?.close();
  });
  const appCall = (name: string, args: unknown[]) =>
    at(app.port, `/api/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(args) });

  it('project errors name the file as the client gave it', async () => {
    const cases: [string, string, string][] = [
      ['openProject', 'garbage.saikoro', 'garbage.saikoro: not a Saikoro project (not an SQLite database)'],
      ['openProject', 'missing.saikoro', 'missing.saikoro: no such file (create one with: saikoro project new missing.saikoro)'],
      ['openProject', 'dir.saikoro', 'dir.saikoro: is a directory, not a project file'],
      ['createProject', 'garbage.saikoro', 'garbage.saikoro: already exists; not overwriting it'],
      ['createProject', 'no/such/folder/x.saikoro', 'no/such/folder/x.saikoro: cannot create (no such file or folder)'],
      ['createProject', `${realWorkspace}/absent/x.saikoro`, 'absent/x.saikoro: cannot create (no such file or folder)'],
    ];
    for (const [name, path, message] of cases) {
      const answer = await appCall(name, [path]);
      expect(answer.status, path).toBe(400);
      expect(answer.body).not.toContain(realWorkspace);
      expect(answer.body).not.toContain(givenWorkspace);
      expect(answer.body).not.toContain(root);
      expect(JSON.parse(answer.body).error, path).toMatchObject({ name: 'ProjectError', message });
    }
  });

  it('events carry relative paths too', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${app.port}/api/events`);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const received = new Promise<string>((resolve) => ws.once('message', (data) => resolve(String(data))));
    app.events.emit('onExperimentSession', {
      experiment: 'e',
      status: 'failed',
      jobs: 1,
      todo: 0,
      finished: 0,
      failed: 0,
      running: [],
      paused: 0,
      progress: 0,
      etaMs: null,
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: null,
      error: `${realWorkspace}/study/p.saikoro: database is locked (in ${givenWorkspace})`,
    });
    const text = await received;
    ws.close();
    expect(text).not.toContain(root);
    expect(JSON.parse(text).payload.error).toBe('study/p.saikoro: database is locked (in .)');
  });

  it("the app's own install folder (in a crashed worker's last line, say) is shown as <saikoro>", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${app.port}/api/events`);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const received = new Promise<string>((resolve) => ws.once('message', (data) => resolve(String(data))));
    app.events.emit('onRunFinished', {
      runId: 'r1',
      kind: 'dice',
      status: 'failed',
      result: null,
      reason: `the worker crashed (exit code 1): at run (${PROJECT_ROOT}/src-shared/solvers/ga.ts:12:3)`,
    } as never);
    const text = await received;
    ws.close();
    expect(text).not.toContain(PROJECT_ROOT);
    expect(JSON.parse(text).payload.reason).toBe('the worker crashed (exit code 1): at run (<saikoro>/src-shared/solvers/ga.ts:12:3)');
  });

  it('the workspace redactor: both spellings, the root alone as ".", a sibling folder untouched, JSON-escaped text too', () => {
    const paths = workspacePaths(givenWorkspace);
    expect(paths.redact(`${realWorkspace}/a/b.saikoro and ${givenWorkspace}/c.saikoro`)).toBe('a/b.saikoro and c.saikoro');
    expect(paths.redact(`in ${realWorkspace}: full`)).toBe('in .: full');
    expect(paths.redact(`'${realWorkspace}'`)).toBe("'.'");
    expect(paths.redact(realWorkspace)).toBe('.');
    // A sibling whose name starts with the workspace's is another folder.
    expect(paths.redact(`${realWorkspace}-old/x.saikoro and ${realWorkspace}2`)).toBe(`${realWorkspace}-old/x.saikoro and ${realWorkspace}2`);
    expect(paths.redact('nothing to hide')).toBe('nothing to hide');
    // A sentence that ends with the workspace.
    expect(paths.redact(`the workspace is ${realWorkspace}. Done`)).toBe('the workspace is .. Done');
    // Backslashes (Windows): the plain text, and the JSON text where each one is doubled.
    const windows = pathRedactor(['C:\\Users\\me\\ws']);
    expect(windows('C:\\Users\\me\\ws\\a\\b.saikoro: locked')).toBe('a\\b.saikoro: locked');
    expect(windows(JSON.stringify({ message: 'C:\\Users\\me\\ws\\b.saikoro: locked', in: 'C:\\Users\\me\\ws' }))).toBe(
      '{"message":"b.saikoro: locked","in":"."}',
    );
    expect(windows('C:\\Users\\me\\ws2\\b.saikoro')).toBe('C:\\Users\\me\\ws2\\b.saikoro');
  });
});
