/**
 * The competition's endpoints on the web server (docs/competition.md, "Running it as a
 * service"), over a CompetitionService (src-main/app/competition-service.ts):
 *
 *   GET  /api/competition                  the caller's own history (an entrant), or every remote entrant's (the organiser)
 *   GET  /api/competition/standings        the standings and runtime ECDFs (public or the organiser's: --public-leaderboard)
 *   GET  /api/competition/<problem>        the hello of the run a POST plays (then POST one batch at a time)
 *   POST /api/competition/<problem>        one request {"evaluate": [...]}, its answer {"results": [...], "remaining": R}
 *   WS   /api/competition/<problem>        the hello, then requests and answers as on a program's pipe
 *   GET  /competition                      the leaderboard page
 *
 * `?seed=K` names the run of a problem (default: the first whose budget is not used). An
 * entrant's token comes as `Authorization: Bearer` or `?token=`; the server's own token (the
 * organiser's) reaches everything, and on the entrant endpoints names the entrant with
 * `?entrant=NAME`. The web server checks Host (and Origin, for POSTs and WebSockets) first.
 * No answer names a path: refusals are the service's messages, internal errors say only that.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { RemoteRefusal } from '../../src-shared/competition/remote.ts';
import type { CompetitionService, RunHandle } from '../app/competition-service.ts';
import { renderLeaderboard } from './leaderboard-page.ts';

export interface CompetitionEndpointsOptions {
  /** The leaderboard (page and standings) without a token; by default only the organiser's token reaches it. */
  publicLeaderboard?: boolean;
  /** Seconds between pings of an open WebSocket; one without a pong by the next is closed (default 30). */
  heartbeatSeconds?: number;
  /** Told of an internal error (its message may name files: it goes to the server's stderr, never to a client). */
  onError?: (message: string) => void;
}

/** What the web server knows of a request before the competition's endpoints take it. */
export interface CompetitionRequest {
  /** It carries the server's own token (header, cookie or query). */
  organiser: boolean;
}

export interface CompetitionEndpoints {
  handles(pathname: string): boolean;
  handleHttp(req: IncomingMessage, res: ServerResponse, url: URL, request: CompetitionRequest): Promise<void>;
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL, request: CompetitionRequest): void;
  /** Bytes of answers the open WebSockets hold, not yet taken by their clients. */
  heldBytes(): number;
  close(): void;
}

const API = '/api/competition';
const PAGE = '/competition';
const PROBLEM_PATH = /^\/api\/competition\/([A-Za-z0-9][A-Za-z0-9._-]{0,127})$/;
/** Messages waiting on one WebSocket before it stops reading (its client is told nothing: TCP backs up). */
const MAX_QUEUED = 16;
/** Bytes of answers a WebSocket holds, its client not taking them, before it stops reading too. */
const MAX_HELD_BYTES = 1 << 20;

const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...SECURITY_HEADERS, ...headers });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

function sendRefusal(res: ServerResponse, refusal: RemoteRefusal): void {
  sendJson(
    res,
    refusal.status,
    refusal.toJSON(),
    refusal.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : refusal.retry !== null ? { 'Retry-After': String(Math.max(1, Math.ceil(refusal.retry))) } : {},
  );
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** A refused upgrade: an HTTP answer on the raw socket, with the refusal as JSON. */
function refuseUpgrade(socket: Duplex, refusal: RemoteRefusal): void {
  const body = JSON.stringify(refusal.toJSON());
  const extra = refusal.status === 401 ? 'WWW-Authenticate: Bearer\r\n' : '';
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_TEXT[refusal.status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
}

function bearerOf(req: IncomingMessage, url: URL): string | null {
  const bearer = /^Bearer[ \t]+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  return bearer ?? url.searchParams.get('token');
}

function isStop(answer: string): boolean {
  return /,"stop":"[a-z]+"\}\n?$/.test(answer);
}

export function competitionEndpoints(service: CompetitionService, options: CompetitionEndpointsOptions = {}): CompetitionEndpoints {
  const wss = new WebSocketServer({ noServer: true, maxPayload: service.limits.maxMessageBytes });
  const sockets = new Set<WebSocket>();
  const heartbeatMs = (options.heartbeatSeconds ?? 30) * 1000;
  const internal = (e: unknown): RemoteRefusal => {
    if (e instanceof RemoteRefusal) return e;
    options.onError?.(`competition endpoint: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return new RemoteRefusal(500, "internal error (the organiser sees it in the server's log)");
  };

  /** Who asks: the organiser, an entrant by its token, or nobody (no token). An unknown token is refused. */
  function callerOf(req: IncomingMessage, url: URL, request: CompetitionRequest): { kind: 'organiser' } | { kind: 'entrant'; entrant: string } | null {
    if (request.organiser) return { kind: 'organiser' };
    const token = bearerOf(req, url);
    if (token === null) return null;
    const entrant = service.entrantOf(token);
    if (entrant === null)
      throw new RemoteRefusal(401, "this token is not valid here (revoked, replaced by a newer one, or not this competition's); ask the organiser for a token");
    return { kind: 'entrant', entrant };
  }

  /** The entrant an entrant endpoint acts for: the token's, or for the organiser the one `?entrant=` names. */
  function entrantFor(req: IncomingMessage, url: URL, request: CompetitionRequest): { entrant: string; token: string | null } {
    const caller = callerOf(req, url, request);
    if (caller === null) throw new RemoteRefusal(401, "this endpoint needs an entrant's token (Authorization: Bearer <token>, or ?token=)");
    if (caller.kind === 'entrant') return { entrant: caller.entrant, token: bearerOf(req, url) };
    const named = url.searchParams.get('entrant');
    if (named === null) throw new RemoteRefusal(400, 'the organiser names the entrant to act for: ?entrant=NAME');
    if (!service.remoteEntrants().includes(named)) throw new RemoteRefusal(404, `no remote entrant named ${JSON.stringify(named)}`);
    return { entrant: named, token: null };
  }

  function seedOf(url: URL): number | null {
    const text = url.searchParams.get('seed');
    if (text === null) return null;
    if (!/^[1-9][0-9]{0,6}$/.test(text)) throw new RemoteRefusal(400, `?seed= must be a run's seed, a whole number from 1, got ${JSON.stringify(text)}`);
    return Number(text);
  }

  function leaderboardAllowed(req: IncomingMessage, url: URL, request: CompetitionRequest): void {
    if (options.publicLeaderboard) return;
    const caller = callerOf(req, url, request);
    if (caller?.kind !== 'organiser')
      throw new RemoteRefusal(caller === null ? 401 : 403, "the leaderboard is the organiser's on this server (it was started without --public-leaderboard)");
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const limit = service.limits.maxMessageBytes;
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit)
      throw new RemoteRefusal(413, `the request is ${declared} bytes; at most ${limit} bytes per message on this server; nothing was evaluated`);
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const timer = setTimeout(() => reject(new RemoteRefusal(400, "the request's body did not arrive within 30 s; nothing was evaluated")), 30_000);
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          clearTimeout(timer);
          req.removeAllListeners('data');
          reject(new RemoteRefusal(413, `the request is more than ${limit} bytes, the most per message on this server; nothing was evaluated`));
          return;
        }
        chunks.push(chunk);
      });
      req.on('end', () => {
        clearTimeout(timer);
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
      req.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
  }

  async function handleProblem(problem: string, req: IncomingMessage, res: ServerResponse, url: URL, request: CompetitionRequest): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST')
      throw new RemoteRefusal(405 as number, 'use GET (the hello), POST (one request) or a WebSocket');
    const { entrant, token } = entrantFor(req, url, request);
    const seed = seedOf(url);
    const release = service.acquireConnection(entrant);
    try {
      if (req.method !== 'POST') {
        service.takeRequest(entrant);
        const handle = await service.openRun(entrant, problem, seed, token);
        return sendJson(res, 200, service.hello(handle));
      }
      const type = req.headers['content-type'] ?? '';
      if (!/^application\/json\s*(;|$)/i.test(type)) throw new RemoteRefusal(415 as number, 'a request is JSON: send Content-Type: application/json');
      const text = await readBody(req);
      const handle = await service.openRun(entrant, problem, seed, token);
      const answer = await service.evaluate(handle, text);
      if (answer === null) {
        res.writeHead(204, SECURITY_HEADERS);
        res.end();
        return;
      }
      sendJson(res, 200, answer.trimEnd());
    } finally {
      release();
    }
  }

  async function handleHttp(req: IncomingMessage, res: ServerResponse, url: URL, request: CompetitionRequest): Promise<void> {
    try {
      if (url.pathname === PAGE || url.pathname === `${PAGE}/`) {
        if (req.method !== 'GET' && req.method !== 'HEAD') throw new RemoteRefusal(405 as number, 'the leaderboard is read with GET');
        const caller = request.organiser ? null : callerOf(req, url, request);
        const own = caller?.kind === 'entrant' ? service.entrantView(caller.entrant) : null;
        // An entrant sees its own runs on the page whatever the leaderboard's setting; the standings only when public.
        if (own === null) leaderboardAllowed(req, url, request);
        const table = options.publicLeaderboard || request.organiser ? service.standings() : null;
        const html = renderLeaderboard(service.competition, table, { own, refreshSeconds: 10, at: new Date() });
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(html), ...SECURITY_HEADERS });
        res.end(req.method === 'HEAD' ? undefined : html);
        return;
      }
      if (url.pathname === API || url.pathname === `${API}/`) {
        if (req.method !== 'GET' && req.method !== 'HEAD') throw new RemoteRefusal(405 as number, 'GET /api/competition reads your runs');
        const caller = callerOf(req, url, request);
        if (caller === null) throw new RemoteRefusal(401, 'this endpoint needs a token (Authorization: Bearer <token>, or ?token=)');
        if (caller.kind === 'entrant') return sendJson(res, 200, service.entrantView(caller.entrant));
        return sendJson(res, 200, { entrants: service.remoteEntrants().map((e) => service.entrantView(e)) });
      }
      if (url.pathname === `${API}/standings`) {
        if (req.method !== 'GET' && req.method !== 'HEAD') throw new RemoteRefusal(405 as number, 'the standings are read with GET');
        leaderboardAllowed(req, url, request);
        // `competition standings --json`'s report, live, with each entrant's progress.
        const { report, progress } = service.standings();
        return sendJson(res, 200, { ...report, progress });
      }
      const problem = PROBLEM_PATH.exec(url.pathname);
      if (problem) return await handleProblem(problem[1], req, res, url, request);
      throw new RemoteRefusal(404, 'no such competition endpoint');
    } catch (e) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendRefusal(res, internal(e));
    }
  }

  function play(ws: WebSocket, handle: RunHandle, release: () => void): void {
    sockets.add(ws);
    let chain = Promise.resolve();
    let queued = 0;
    let alive = true;
    const heartbeat = setInterval(() => {
      if (!alive) return ws.terminate();
      alive = false;
      ws.ping();
    }, heartbeatMs);
    heartbeat.unref();
    ws.on('pong', () => (alive = true));
    // Reads while its requests are answered and its client takes the answers; else waits (TCP backs up).
    const flow = () => {
      if (queued >= MAX_QUEUED || ws.bufferedAmount > MAX_HELD_BYTES) ws.pause();
      else if (ws.isPaused && queued < MAX_QUEUED / 2 && ws.bufferedAmount <= MAX_HELD_BYTES / 2) ws.resume();
    };
    const send = (text: string) => {
      if (ws.readyState === ws.OPEN) ws.send(text, flow);
    };
    send(JSON.stringify(service.hello(handle)));
    const onMessage = async (data: RawData, isBinary: boolean): Promise<void> => {
      if (ws.readyState !== ws.OPEN) return;
      if (isBinary) return send(JSON.stringify(new RemoteRefusal(400, 'send each request as a text message of JSON; nothing was evaluated').toJSON()));
      const text = Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.isBuffer(data)
          ? data.toString('utf8')
          : Buffer.from(data).toString('utf8');
      try {
        const answer = await service.evaluate(handle, text);
        if (answer === null) return;
        send(answer.trimEnd());
        if (isStop(answer)) ws.close(1000, 'the run has stopped');
      } catch (e) {
        send(JSON.stringify(internal(e).toJSON()));
      }
    };
    ws.on('message', (data, isBinary) => {
      queued++;
      flow();
      chain = chain
        .then(() => onMessage(data, isBinary))
        .finally(() => {
          queued--;
          flow();
        });
    });
    ws.on('close', () => {
      clearInterval(heartbeat);
      sockets.delete(ws);
      release();
    });
    ws.on('error', () => ws.terminate());
  }

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL, request: CompetitionRequest): void {
    const problem = PROBLEM_PATH.exec(url.pathname);
    if (!problem) return refuseUpgrade(socket, new RemoteRefusal(404, 'a WebSocket of the competition opens on /api/competition/<problem>'));
    let release: (() => void) | null = null;
    void (async () => {
      try {
        const { entrant, token } = entrantFor(req, url, request);
        const seed = seedOf(url);
        release = service.acquireConnection(entrant);
        service.takeRequest(entrant);
        const handle = await service.openRun(entrant, problem[1], seed, token);
        if (socket.destroyed) throw new RemoteRefusal(400, 'the client has gone');
        const hold = release;
        release = null;
        wss.handleUpgrade(req, socket, head, (ws) => play(ws, handle, hold));
      } catch (e) {
        release?.();
        if (!socket.destroyed) refuseUpgrade(socket, internal(e));
      }
    })();
  }

  return {
    handles: (pathname) => pathname === API || pathname.startsWith(`${API}/`) || pathname === PAGE || pathname === `${PAGE}/`,
    handleHttp,
    handleUpgrade,
    heldBytes: () => [...sockets].reduce((sum, ws) => sum + ws.bufferedAmount, 0),
    close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
    },
  };
}
