// Hostile requests to the web server: odd paths answer 404/400 without naming the server's
// files, bodies are bounded in size, in number at once and in nesting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApi } from '../../../src-main/api/implementation.ts';
import { ApiEventHub } from '../../../src-main/app/events.ts';
import { MAX_BODIES_IN_FLIGHT, MAX_BODY_BYTES, startWebServer, type WebServer } from '../../../src-main/server/web-server.ts';
import { checkEvaluateDiceRequest, MAX_EVALUATE_DICE_LENGTH } from '../../../src-shared/problems/dice/call-limits.ts';
import { waitFor } from '../processes.ts';

let root: string;
let server: WebServer;

function raw(
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** A request written by hand (a path Node's client would not send as is). */
function rawLine(line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(`${line}\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (d) => (text += d.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'saikoro-web-limits-'));
  const dir = join(root, 'renderer');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>fake renderer</title>');
  server = await startWebServer({
    rendererDir: dir,
    api: createApi({ name: 'saikoro', version: '1.2.3', platform: 'test', runtime: 'web' }),
    events: new ApiEventHub(),
    port: 0,
    token: null,
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('paths that name no file', () => {
  it.each([
    ['/index.html/', 404],
    ['/index.html/x', 404],
    ['/assets/' + 'a'.repeat(300), 404],
    ['/%00', 400],
    ['/index.html%00.js', 400],
    ['/%0a', 400],
  ])('GET %s answers %i without the server path', async (path, status) => {
    const r = await raw(path);
    expect(r.status).toBe(status);
    expect(r.body).not.toContain(root);
    expect(r.body).not.toMatch(/ENOTDIR|ERR_|internal error/);
  });

  it('a raw NUL byte in the request line is no 500 either', async () => {
    const text = await rawLine('GET /%00%00/../x HTTP/1.1');
    expect(text).toMatch(/^HTTP\/1\.1 (400|403|404) /);
    expect(text).not.toContain(root);
  });
});

describe('request bodies', () => {
  const call = (body: string | Buffer, headers: Record<string, string> = {}) =>
    raw('/api/evaluateDice', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });

  it(`answers 413 to a body over ${MAX_BODY_BYTES} bytes, declared or not`, async () => {
    expect(MAX_BODY_BYTES).toBe(1024 * 1024);
    const big = JSON.stringify([{ x: '1'.repeat(MAX_BODY_BYTES) }]);
    expect(await call(big)).toMatchObject({ status: 413, body: `request body larger than ${MAX_BODY_BYTES} bytes` });
    expect(await call(big, { 'Transfer-Encoding': 'chunked' })).toMatchObject({ status: 413 });
    // Just under the limit is an ordinary call (here a bad sequence: a 400 envelope).
    const under = await call(JSON.stringify([{ x: '7'.repeat(1000), config: { n: 1000 } }]));
    expect(under.status).toBe(400);
    expect(JSON.parse(under.body).error.message).toContain('not a die face');
  });

  it('refuses JSON nested 6,000 deep with an envelope, not a crash', async () => {
    const r = await call('['.repeat(6000) + ']'.repeat(6000));
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toEqual({ ok: false, error: { name: 'BadRequest', message: 'request body is nested deeper than 64 levels' } });
  });

  it(`reads at most ${MAX_BODIES_IN_FLIGHT} bodies at once: the next caller gets 503 until one finishes`, async () => {
    // Clients that send headers and the start of a body, then stall.
    const stalled = Array.from({ length: MAX_BODIES_IN_FLIGHT }, () => {
      const req = request({
        host: '127.0.0.1',
        port: server.port,
        path: '/api/evaluateDice',
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': '100000' },
      });
      req.on('error', () => {});
      req.write('[');
      return req;
    });
    try {
      const refused = await waitFor('the server to be full', async () => {
        const r = await call(JSON.stringify([{ x: '3155', config: { n: 4 } }]));
        return r.status === 503 ? r : null;
      });
      expect(refused.body).toBe('too many requests at once; try again');
    } finally {
      for (const req of stalled) req.destroy();
    }
    const ok = await waitFor('a slot to free', async () => {
      const r = await call(JSON.stringify([{ x: '3155', config: { n: 4 } }]));
      return r.status === 200 ? r : null;
    });
    expect(JSON.parse(ok.body).ok).toBe(true);
  });
});

describe('sequence length per evaluateDice call (shared check for the API)', () => {
  it(`allows ${MAX_EVALUATE_DICE_LENGTH} rolls and refuses one more, naming the field`, () => {
    expect(() => checkEvaluateDiceRequest({ x: '1'.repeat(MAX_EVALUATE_DICE_LENGTH) })).not.toThrow();
    expect(() => checkEvaluateDiceRequest({ x: '1'.repeat(MAX_EVALUATE_DICE_LENGTH + 1) })).toThrow(
      `evaluateDice: request.x has ${MAX_EVALUATE_DICE_LENGTH + 1} rolls; one call evaluates at most ${MAX_EVALUATE_DICE_LENGTH} (use saikoro eval for longer sequences)`,
    );
    expect(() => checkEvaluateDiceRequest({ x: 5 })).toThrow(TypeError);
    expect(() => checkEvaluateDiceRequest(null)).toThrow(/request\.x must be a string/);
  });
});
