// A remote entrant that sends requests and never reads their answers (issue 29's floods): the
// server stops reading a WebSocket whose answers its client does not take, so what it holds for
// it stays small whatever the client sends, and the heartbeat then closes it. The server here is
// the competition's endpoints on a plain HTTP server (the app server's wiring, with what the
// endpoints hold in sight) and a rate that does not stop the client: each request asks 1,000
// evaluations, each answer is about 300 KB. (Before the server stopped reading such a client, this
// one made it hold 120 MB in 3 to 6 s, until the heartbeat closed it: a memory flood by one token.)
import http from 'node:http';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CompetitionService } from '../../../src-main/app/competition-service.ts';
import { competitionEndpoints, type CompetitionEndpoints } from '../../../src-main/server/competition-endpoints.ts';
import { waitFor } from '../processes.ts';
import { competitionCli, enterRemote, sameSequence } from './remote-helpers.ts';

let cwd: string;
let service: CompetitionService;
let endpoints: CompetitionEndpoints;
let server: http.Server;
let port: number;
let token: string;

beforeAll(async () => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-competition-deaf-'));
  await competitionCli(
    cwd,
    'new',
    'd.saikoro',
    '--tracks',
    'so',
    '--n',
    '60',
    '--instances',
    '1',
    '--budget',
    '10000000',
    '--seeds',
    '1',
    '--secret',
    'deaf-test-secret',
  );
  token = await enterRemote(cwd, 'd.saikoro', 'deaf');
  service = CompetitionService.open(path.join(cwd, 'd.saikoro'), {
    normaliser: () => Promise.reject(new Error('one objective: no normalisation')),
    limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 },
  });
  endpoints = competitionEndpoints(service, { heartbeatSeconds: 3 });
  server = http.createServer((req, res) => void endpoints.handleHttp(req, res, new URL(req.url!, 'http://127.0.0.1'), { organiser: false }));
  server.on('upgrade', (req, socket, head) => endpoints.handleUpgrade(req, socket, head, new URL(req.url!, 'http://127.0.0.1'), { organiser: false }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
}, 60_000);

afterAll(async () => {
  endpoints?.close();
  await new Promise((resolve) => server?.close(resolve));
  await service?.close();
  fs.rmSync(cwd, { recursive: true, force: true });
});

it('a client that never reads its answers stops being read: the server holds little for it, and the heartbeat closes it', async () => {
  const raw = net.connect(port, '127.0.0.1');
  raw.on('error', () => {});
  await new Promise((resolve) => raw.once('connect', resolve));
  raw.write(
    `GET /api/competition/so-n60-i1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${token}\r\n\r\n`,
  );
  let head = '';
  const onData = (d: Buffer) => (head += d.toString('latin1'));
  raw.on('data', onData);
  await waitFor('the handshake', () => head.includes('\r\n\r\n'));
  expect(head).toMatch(/^HTTP\/1\.1 101/);
  // From here on the client reads nothing, and sends 1,000 requests of 1,000 sequences.
  raw.off('data', onData);
  raw.pause();
  const payload = Buffer.from(JSON.stringify({ evaluate: Array<string>(1000).fill(sameSequence(60)) }));
  // A masked text frame (the mask 0: the payload as it is), its length in 16 bits.
  const frame = Buffer.concat([Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff, 0, 0, 0, 0]), payload]);
  for (let k = 0; k < 1000; k++) raw.write(frame);
  let held = 0;
  await waitFor(
    'the heartbeat to close the deaf connection',
    () => {
      held = Math.max(held, endpoints.heldBytes());
      return service.connectionsOf('deaf') === 0;
    },
    { withinMs: 60_000, intervalMs: 5 },
  );
  raw.destroy();
  // It held about 1 MiB at most and read some 20 of the 1,000 requests here (before it stopped
  // reading, it read them all and held 120 MB).
  expect(held).toBeGreaterThan(0);
  expect(held).toBeLessThan(8 * 2 ** 20);
  const evaluated = service.entrantView('deaf').problems[0].runs[0].evaluations;
  expect(evaluated).toBeGreaterThan(0);
  expect(evaluated).toBeLessThan(100_000);
}, 90_000);
