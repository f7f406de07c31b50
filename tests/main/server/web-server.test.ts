import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { createApi } from '../../../src-main/api/implementation.ts';
import { ApiEventHub } from '../../../src-main/app/events.ts';
import { allowedHostNames, startWebServer, type WebServer } from '../../../src-main/server/web-server.ts';
import { startAppServer } from '../../../src-main/server/app-server.ts';
import { createHttpApi } from '../../../src-renderer/api/http-client.ts';
import { ApiError, callPath } from '../../../src-shared/api.ts';
import { runCli } from '../cli/io.ts';
import { waitFor } from '../processes.ts';

const SAMPLE = '31552264665432613134314646226624645162511461153216';

let root: string;
let dir: string;
let server: WebServer;
let events: ApiEventHub;

/** A raw request, so that headers (Host, Origin, Content-Type) can be set freely. */
function raw(
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const post = (name: string, body: string, headers: Record<string, string> = {}) =>
  raw(`/api/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'saikoro-web-'));
  dir = join(root, 'renderer');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(root, 'secret.txt'), 'secret');
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>fake renderer</title>');
  writeFileSync(join(dir, 'assets', 'app-123.js'), 'console.log(1)');
  events = new ApiEventHub();
  // No token here: these tests are about the other layers (a block below is about the token).
  server = await startWebServer({
    rendererDir: dir,
    api: createApi({ name: 'saikoro', version: '1.2.3', platform: 'test', runtime: 'web' }),
    events,
    port: 0,
    token: null,
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('web server: static files', () => {
  it('serves index.html at / with a CSP, and hashed assets as immutable', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    const index = await raw('/');
    expect(index.status).toBe(200);
    expect(index.body).toContain('fake renderer');
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(String(index.headers['content-security-policy'])).toContain("script-src 'self'");
    const asset = await raw('/assets/app-123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('answers 404 for missing files and refuses paths out of the renderer directory', async () => {
    expect((await raw('/nope.js')).status).toBe(404);
    expect((await raw('/assets')).status).toBe(404);
    // Dot segments are resolved by the URL parser and stay inside the directory ...
    expect((await raw('/../secret.txt')).status).toBe(404);
    expect((await raw('/%2e%2e/secret.txt')).status).toBe(404);
    // ... and so do encoded separators that would climb out.
    for (const path of ['/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt']) {
      const res = await raw(path);
      expect(res.status).toBe(404);
      expect(res.body).not.toContain('secret');
    }
    expect((await raw('/', { method: 'DELETE' })).status).toBe(405);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const res = await raw('/', { headers: { Host: 'evil.example:80' } });
    expect(res.status).toBe(421);
    expect((await raw('/', { headers: { Host: `localhost:${server.port}` } })).status).toBe(200);
  });
});

describe('web server: API calls over HTTP', () => {
  it('evaluates the reference sample: objective 76.8, 12 constraints at 0', async () => {
    const res = await post('evaluateDice', JSON.stringify([{ x: SAMPLE }]));
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = JSON.parse(res.body);
    expect(body.ok).toBe(true);
    expect(body.value.objectives[0]).toBeCloseTo(76.8, 9);
    expect(body.value.constraints).toEqual(Array(12).fill(0));
    expect(body.value.feasible).toBe(true);
  });

  it('answers error envelopes with status 400 and the error fields', async () => {
    const bad = await post('evaluateDice', JSON.stringify([{ x: SAMPLE.slice(0, 9) + 'x' + SAMPLE.slice(10) }]));
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({
      ok: false,
      error: { name: 'SequenceError', message: 'character "x" at position 10 is not a die face 1-6', position: 9 },
    });
    const notJson = await post('evaluateDice', '[{');
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.name).toBe('BadRequest');
    const unknown = await post('launchMissiles', '[]');
    expect(JSON.parse(unknown.body).error).toEqual({ name: 'UnknownCall', message: 'no API call named "launchMissiles"' });
  });

  it('refuses GET, non-JSON bodies and cross-origin callers', async () => {
    expect((await raw(callPath('getAppInfo'))).status).toBe(405);
    expect((await post('getAppInfo', '[]', { 'Content-Type': 'text/plain' })).status).toBe(415);
    const cross = await post('getAppInfo', '[]', { Origin: 'http://evil.example' });
    expect(cross.status).toBe(403);
    const same = await post('getAppInfo', '[]', { Origin: `http://127.0.0.1:${server.port}` });
    expect(JSON.parse(same.body)).toEqual({ ok: true, value: { name: 'saikoro', version: '1.2.3', platform: 'test', runtime: 'web' } });
    expect((await raw('/api/not/a/call')).status).toBe(404);
  });

  it('the renderer HTTP client speaks the same protocol (typed calls, ApiError on failure)', async () => {
    const client = createHttpApi(server.url, { fetch: globalThis.fetch.bind(globalThis), WebSocket: WebSocket as unknown as typeof globalThis.WebSocket });
    expect(await client.getAppInfo()).toEqual({ name: 'saikoro', version: '1.2.3', platform: 'test', runtime: 'web' });
    expect(await client.randomSequence(12, 7)).toMatch(/^[1-6]{12}$/);
    expect(await client.randomSequence(12, 7)).toBe(await client.randomSequence(12, 7));
    const err = await client.evaluateDice({ x: '1', config: { n: 2 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).name).toBe('SequenceError');
    expect((err as ApiError).message).toBe('the sequence has 1 characters, expected N = 2');
    client.dispose();
  });
});

describe('web server: events over the WebSocket', () => {
  it('streams every emitted event to each connected socket, and detaches on close', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api/events`);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const received = new Promise<unknown>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
    expect(events.sinkCount).toBe(1);
    events.emit('onMenuCommand', { kind: 'navigate', view: 'dice' });
    expect(await received).toEqual({ event: 'onMenuCommand', payload: { kind: 'navigate', view: 'dice' } });
    ws.close();
    await new Promise((resolve) => ws.once('close', resolve));
    // The server detaches on its own 'close' event, which may come after the client's.
    await waitFor('the server to detach the closed socket', () => events.sinkCount === 0);
    expect(events.sinkCount).toBe(0);
  });

  it('the HTTP client delivers events to listeners', async () => {
    const client = createHttpApi(server.url, { fetch: globalThis.fetch.bind(globalThis), WebSocket: WebSocket as unknown as typeof globalThis.WebSocket });
    const got = new Promise((resolve) => client.onMenuCommand(resolve));
    await waitFor("the client's event socket to connect", () => events.sinkCount === 1);
    events.emit('onMenuCommand', { kind: 'showShortcuts' });
    expect(await got).toEqual({ kind: 'showShortcuts' });
    client.dispose();
  });

  it('refuses sockets on other paths or from other origins', async () => {
    for (const [path, headers] of [
      ['/api/other', {}],
      ['/api/events', { Origin: 'http://evil.example' }],
    ] as const) {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}${path}`, { headers });
      const outcome = await new Promise<string>((resolve) => {
        ws.once('open', () => resolve('open'));
        ws.once('error', () => resolve('refused'));
        ws.once('unexpected-response', (_req, res) => resolve(`refused ${res.statusCode}`));
      });
      expect(outcome).toMatch(/^refused/);
      ws.terminate();
    }
  });
});

/** A WebSocket the test opens, drops and sends on by hand. */
class FakeSocket {
  static made: FakeSocket[] = [];
  onopen: ((e: unknown) => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: unknown) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  closedByClient = false;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  open() {
    this.onopen?.({});
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  /** The connection is lost (server gone, network down): the browser reports error, then close. */
  drop() {
    this.onerror?.({});
    this.onclose?.({});
  }
  /** Like a browser's: the close event follows, asynchronously. */
  close() {
    this.closedByClient = true;
    setTimeout(() => this.onclose?.({}), 0);
  }
}

describe("the HTTP client's event socket (a fake WebSocket)", () => {
  const RECONNECT_MS = 500;
  const fakeClient = () =>
    createHttpApi('http://saikoro.test:5178/', {
      fetch: () => Promise.reject(new Error('no calls in these tests')),
      WebSocket: FakeSocket as unknown as typeof globalThis.WebSocket,
      reconnectDelay: RECONNECT_MS,
    });
  const latest = () => FakeSocket.made[FakeSocket.made.length - 1];

  beforeAll(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    FakeSocket.made = [];
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  it('onReconnect fires when the socket opens again after a drop, not on the first open', () => {
    const client = fakeClient();
    let reconnects = 0;
    const stop = client.onReconnect(() => reconnects++);
    const commands: unknown[] = [];
    client.onMenuCommand((c) => commands.push(c));
    expect(FakeSocket.made).toHaveLength(1);
    expect(latest().url).toBe('ws://saikoro.test:5178/api/events');
    latest().open();
    expect(reconnects).toBe(0);
    latest().receive({ event: 'onMenuCommand', payload: { kind: 'showShortcuts' } });
    expect(commands).toEqual([{ kind: 'showShortcuts' }]);

    latest().drop();
    vi.advanceTimersByTime(RECONNECT_MS - 1);
    expect(FakeSocket.made).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.made).toHaveLength(2);
    expect(reconnects).toBe(0); // not yet open
    latest().open();
    expect(reconnects).toBe(1);
    latest().receive({ event: 'onMenuCommand', payload: { kind: 'navigate', view: 'dice' } });
    expect(commands).toHaveLength(2);

    // A retry that fails before opening is no reconnect; the one that opens is, once.
    latest().drop();
    vi.advanceTimersByTime(RECONNECT_MS);
    latest().drop();
    vi.advanceTimersByTime(RECONNECT_MS);
    expect(FakeSocket.made).toHaveLength(4);
    latest().open();
    expect(reconnects).toBe(2);

    stop();
    latest().drop();
    vi.advanceTimersByTime(RECONNECT_MS);
    latest().open();
    expect(reconnects).toBe(2);
    client.dispose();
  });

  it('the first open after failed attempts is not a reconnect', () => {
    const client = fakeClient();
    let reconnects = 0;
    client.onReconnect(() => reconnects++);
    client.onRunFinished(() => {});
    latest().drop(); // the server is not up yet
    vi.advanceTimersByTime(RECONNECT_MS);
    expect(FakeSocket.made).toHaveLength(2);
    latest().open();
    expect(reconnects).toBe(0);
    client.dispose();
  });

  it('closes the socket with the last listener and does not reconnect it; dispose closes and stops retrying', () => {
    const client = fakeClient();
    const offA = client.onMenuCommand(() => {});
    const offB = client.onRunSnapshot(() => {});
    expect(FakeSocket.made).toHaveLength(1);
    latest().open();
    offA();
    offA();
    expect(latest().closedByClient).toBe(false);
    offB();
    expect(latest().closedByClient).toBe(true);
    vi.advanceTimersByTime(RECONNECT_MS * 4);
    expect(FakeSocket.made).toHaveLength(1);

    // Closed on purpose, so the next socket's open is no reconnect.
    let reconnects = 0;
    client.onReconnect(() => reconnects++);
    const offC = client.onMenuCommand(() => {});
    expect(FakeSocket.made).toHaveLength(2);
    latest().open();
    expect(reconnects).toBe(0);

    // The last listener leaves while a reconnect is pending: the retry is cancelled.
    latest().drop();
    offC();
    vi.advanceTimersByTime(RECONNECT_MS * 4);
    expect(FakeSocket.made).toHaveLength(2);

    // A drop with a retry pending: dispose cancels the retry and no socket opens again.
    client.onMenuCommand(() => {});
    expect(FakeSocket.made).toHaveLength(3);
    latest().open();
    expect(reconnects).toBe(1);
    latest().drop();
    client.dispose();
    vi.advanceTimersByTime(RECONNECT_MS * 4);
    expect(FakeSocket.made).toHaveLength(3);
    client.onMenuCommand(() => {});
    expect(FakeSocket.made).toHaveLength(3);

    // Dispose closes an open socket and drops its listeners.
    const other = fakeClient();
    const heard: unknown[] = [];
    other.onMenuCommand((c) => heard.push(c));
    const socket = latest();
    socket.open();
    other.dispose();
    expect(socket.closedByClient).toBe(true);
    socket.receive({ event: 'onMenuCommand', payload: { kind: 'showShortcuts' } });
    expect(heard).toEqual([]);
    vi.advanceTimersByTime(RECONNECT_MS * 4);
    expect(FakeSocket.made).toHaveLength(4);
  });
});

describe('saikoro serve', () => {
  it('--help prints the usage with every flag', async () => {
    const r = await runCli(['serve', '--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--port', '--host', '--open', '--rebuild', '--no-build']) expect(r.stdout).toContain(flag);
  });

  it('a taken port is a clear bad-input error (exit 1)', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const r = await runCli(['serve', '--port', String(port), '--no-build', '--renderer-dir', dir]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(r.stderr).toContain('--port');
    } finally {
      blocker.close();
    }
  });

  it('rejects bad flags with a usage error (exit 2) and a missing renderer with exit 1', async () => {
    const badPort = await runCli(['serve', '--port', '70000']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--port: must be at most 65535, got 70000');
    expect((await runCli(['serve', '--rebuild', '--no-build'])).code).toBe(2);
    const missing = await runCli(['serve', '--port', '0', '--no-build', '--renderer-dir', join(dir, 'absent')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('index.html is missing');
  });

  it('startAppServer wires the API and events to the web server, behind a new token', async () => {
    const app = await startAppServer({ port: 0, rendererDir: dir, build: 'never' });
    try {
      expect(app.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(app.url).toBe(`${app.origin}?token=${app.token}`);
      const denied = await fetch(new URL(callPath('getAppInfo'), app.origin), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '[]' });
      expect(denied.status).toBe(401);
      const res = await fetch(new URL(callPath('getAppInfo'), app.origin), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${app.token}` },
        body: '[]',
      });
      const body = (await res.json()) as { ok: boolean; value: { name: string; runtime: string } };
      expect(body).toMatchObject({ ok: true, value: { name: 'saikoro', runtime: 'web' } });
      expect(app.events.sinkCount).toBe(0);
    } finally {
      await app.close();
    }
  });
});

describe('web server: the token', () => {
  const TOKEN = 'k1P9wVq0S3cR7mJ2xL8bZ5nT4hY6dF0gA1eU3oI9rW2';
  let guarded: WebServer;
  const at = (path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: guarded.port, path, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      req.end(opts.body);
    });
  const call = (headers: Record<string, string> = {}, query = '') =>
    at(`/api/getAppInfo${query}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: '[]' });
  const socket = (url: string, headers: Record<string, string> = {}) =>
    new Promise<number>((resolve) => {
      const ws = new WebSocket(url, { headers });
      ws.on('open', () => {
        ws.close();
        resolve(101);
      });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => resolve(-1));
    });

  beforeAll(async () => {
    guarded = await startWebServer({
      rendererDir: dir,
      api: createApi({ name: 'saikoro', version: '1.2.3', platform: 'test', runtime: 'web' }),
      events: new ApiEventHub(),
      port: 0,
      token: TOKEN,
    });
  });
  afterAll(async () => {
    await guarded?.close();
  });

  it('without the token the page, every call and the socket get 401', async () => {
    expect(guarded.url).toBe(`http://127.0.0.1:${guarded.port}/?token=${TOKEN}`);
    const page = await at('/');
    expect(page.status).toBe(401);
    expect(page.body).toContain('Open Saikoro with the link it printed');
    expect(page.headers['www-authenticate']).toBe('Bearer');
    expect((await at('/assets/app-123.js')).status).toBe(401);
    expect((await call()).status).toBe(401);
    expect((await call({ Authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await call({ Authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    expect((await call({ Cookie: `saikoro_token_${guarded.port}=nope` })).status).toBe(401);
    // Another port's cookie is another server's.
    expect((await call({ Cookie: `saikoro_token_1=${TOKEN}` })).status).toBe(401);
    expect(await socket(`ws://127.0.0.1:${guarded.port}/api/events`)).toBe(401);
    expect(await socket(`ws://127.0.0.1:${guarded.port}/api/events?token=wrong`)).toBe(401);
  });

  it('the first load with ?token= sets an HttpOnly SameSite=Strict cookie and drops the token from the address; then everything works', async () => {
    const first = await at(`/?token=${TOKEN}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toBe(`saikoro_token_${guarded.port}=${TOKEN}; HttpOnly; SameSite=Strict; Path=/`);
    const jar = { Cookie: `saikoro_token_${guarded.port}=${TOKEN}` };
    expect((await at('/', { headers: jar })).status).toBe(200);
    expect((await at('/assets/app-123.js', { headers: jar })).status).toBe(200);
    expect((await call(jar)).status).toBe(200);
    expect((await call({ Authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect(await socket(`ws://127.0.0.1:${guarded.port}/api/events`, jar)).toBe(101);
    expect(await socket(`ws://127.0.0.1:${guarded.port}/api/events?token=${TOKEN}`)).toBe(101);
    // A script's client: the token as a Bearer header and on the socket's address.
    const client = createHttpApi(guarded.origin, {
      fetch: globalThis.fetch.bind(globalThis),
      WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
      token: TOKEN,
    });
    expect((await client.getAppInfo()).version).toBe('1.2.3');
    client.dispose();
  });

  it('answers to the host names it was started with only', () => {
    expect([...allowedHostNames('127.0.0.1')].sort()).toEqual(['127.0.0.1', '::1', '[::1]', 'localhost']);
    expect(allowedHostNames('192.168.1.20').has('192.168.1.20')).toBe(true);
    expect(allowedHostNames('192.168.1.20').has('evil.example')).toBe(false);
    // A wildcard address: the machine's own names and addresses, nothing else.
    const any = allowedHostNames('0.0.0.0');
    expect(any.has(hostname().toLowerCase())).toBe(true);
    expect(any.has('evil.example')).toBe(false);
  });
});
