// A call whose client has gone before its answer is not carried out (issue 21): the web server
// aborts the call's request signal when the connection closes (src-main/app/request-context.ts),
// and the service launches nothing; calls
// from other clients are answered meanwhile. The call is held by the test, not timed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunStarted } from '../../../src-shared/api.ts';
import { createApi } from '../../../src-main/api/implementation.ts';
import { ApiEventHub } from '../../../src-main/app/events.ts';
import { requestSignal } from '../../../src-main/app/request-context.ts';
import { startWebServer, type WebServer } from '../../../src-main/server/web-server.ts';

let root: string;
let server: WebServer;
/** What the held startRun saw: its signal, and whether it went on to launch. */
const held = { signal: null as AbortSignal | null, launched: 0, entered: null as (() => void) | null, gate: Promise.resolve() };

function post(name: string, args: unknown[]): { req: ClientRequest; answer: Promise<{ status: number; body: string }> } {
  const body = JSON.stringify(args);
  let req!: ClientRequest;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: `/api/${name}`,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: `http://127.0.0.1:${server.port}`, 'Content-Length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  return { req, answer };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'saikoro-web-gone-'));
  const dir = join(root, 'renderer');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>fake renderer</title>');
  const api = {
    ...createApi({ name: 'saikoro', version: '1.2.3', platform: 'test', runtime: 'web' }),
    async startRun() {
      held.signal = requestSignal() ?? null;
      held.entered?.();
      await held.gate;
      // What RunService.start does before it launches anything.
      held.signal?.throwIfAborted();
      held.launched++;
      return { runId: 'run-x-1' } as RunStarted;
    },
  } as ReturnType<typeof createApi>;
  server = await startWebServer({ rendererDir: dir, api, events: new ApiEventHub(), port: 0, token: null });
});
afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a call whose client has gone', () => {
  it('has its request signal aborted, launches nothing, and other calls are answered meanwhile', async () => {
    let release!: () => void;
    held.gate = new Promise<void>((resolve) => (release = resolve));
    const entered = new Promise<void>((resolve) => (held.entered = resolve));
    const call = post('startRun', [{ config: { n: 30 }, seed: 1, evaluations: 10 }]);
    call.answer.catch(() => {});
    await entered;
    expect(held.signal?.aborted).toBe(false);
    // Another client is answered while the call is held.
    const info = await post('getAppInfo', []).answer;
    expect([info.status, JSON.parse(info.body).value.name]).toEqual([200, 'saikoro']);
    const aborted = new Promise((resolve) => held.signal!.addEventListener('abort', resolve, { once: true }));
    call.req.destroy();
    await aborted;
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(held.launched).toBe(0);
  });

  it('a client that stays gets its answer, and the call is carried out', async () => {
    held.gate = Promise.resolve();
    held.entered = null;
    const before = held.launched;
    const { answer } = post('startRun', [{ config: { n: 30 }, seed: 1, evaluations: 10 }]);
    const got = await answer;
    expect([got.status, JSON.parse(got.body)]).toEqual([200, { ok: true, value: { runId: 'run-x-1' } }]);
    expect(held.launched).toBe(before + 1);
  });
});
