import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import os from 'node:os';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { EVENTS_PATH, type ApiCalls, type CallResult } from '../../src-shared/api.ts';
import { dispatchCall } from '../api/dispatch.ts';
import { withRequestSignal } from '../app/request-context.ts';
import type { ApiEventHub } from '../app/events.ts';
import { JsonInputError, parseJsonSafe } from '../../src-shared/json.ts';
import type { CompetitionEndpoints } from './competition-endpoints.ts';

export interface WebServerOptions {
  /** The built renderer (index.html and assets). */
  rendererDir: string;
  api: ApiCalls;
  events: ApiEventHub;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /**
   * The secret every request must carry (a random one per start, see newToken): the page's
   * first load as `?token=`, which sets a cookie; scripts as `Authorization: Bearer <token>`.
   * null serves without it (tests of other layers only).
   */
  token: string | null;
  /**
   * Applied to the JSON text of every call's answer and every event before it leaves: the
   * workspace's absolute paths made relative (ProjectPaths.redact), so that no message gives
   * the client the workspace's absolute path. None by default.
   */
  redact?: (text: string) => string;
  /**
   * A competition's endpoints (saikoro serve --competition; competition-endpoints.ts): they
   * check entrants' tokens themselves, after this server's Host check (and Origin check for
   * POSTs and WebSockets); the server's own token reaches them as the organiser's.
   */
  competition?: CompetitionEndpoints;
}

export interface WebServer {
  /** The address to open: with `?token=` when the server has a token. */
  readonly url: string;
  /** The address without the token. */
  readonly origin: string;
  readonly port: number;
  readonly token: string | null;
  close(): Promise<void>;
}

/** A fresh secret for a server start: 32 random bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Limits on what a caller can make the server hold. A call's arguments are small (the largest,
 * an evaluateDice sequence, is bounded by MAX_EVALUATE_DICE_LENGTH rolls): 1 MB per body, and at
 * most MAX_BODIES_IN_FLIGHT bodies being read at once (40 concurrent 15 MB bodies took the
 * server to 1 GB). Beyond them: 413 and 503, before anything is buffered.
 */
export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_BODIES_IN_FLIGHT = 8;
const BODY_TIMEOUT_MS = 30_000;
const CALL_PATH = /^\/api\/([A-Za-z][A-Za-z0-9]*)$/;

/** A request the server refuses with a status of its own (not a call's error envelope). */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

// Same policy as the desktop window; inline styles are needed by Vue style bindings and ECharts.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'";

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

// RFC 3986's host (an IP literal in brackets, or a reg-name: no "@", no ":", no space) and port.
const HOST_HEADER = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::([0-9]{1,5}))?$/;

/** A Host header as its lower-case name and its port (80 when it names none); null when malformed. */
export function parseHostHeader(hostHeader: string | undefined): { name: string; port: number } | null {
  const m = HOST_HEADER.exec(hostHeader ?? '');
  if (!m) return null;
  const port = m[2] === undefined ? 80 : Number(m[2]);
  return port <= 65535 ? { name: m[1].toLowerCase(), port } : null;
}

// RFC 9110 §5.6.2 token and §5.6.4 quoted-string, for the media type of §8.3.1.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
const MEDIA_TYPE = new RegExp(`^(${TOKEN})/(${TOKEN})((?:[ \\t]*;[ \\t]*(?:${TOKEN}=(?:${TOKEN}|${QUOTED}))?)*)[ \\t]*$`);
const PARAMETER = new RegExp(`(${TOKEN})=(${TOKEN}|${QUOTED})`, 'g');

/**
 * Whether a Content-Type is application/json (any case), with parameters if any, and a charset,
 * when one is given, of UTF-8 (the body is read as UTF-8). `application/jsonfoo`,
 * `application/json-patch+json` and a malformed value are not.
 */
export function acceptsJsonMediaType(contentType: string | undefined): boolean {
  const m = MEDIA_TYPE.exec(contentType ?? '');
  if (!m || m[1].toLowerCase() !== 'application' || m[2].toLowerCase() !== 'json') return false;
  for (const [, name, raw] of m[3].matchAll(PARAMETER)) {
    if (name.toLowerCase() !== 'charset') continue;
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    if (!['utf-8', 'utf8'].includes(value.toLowerCase())) return false;
  }
  return true;
}

/** The Host names a server started on `host` answers to: loopback, that address, and for a wildcard the machine's names. */
export function allowedHostNames(host: string): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  // Lower case, as parseHostHeader gives a Host's name (host names are case-insensitive).
  names.add((host.includes(':') && !host.startsWith('[') ? `[${host}]` : host).toLowerCase());
  if (host === '0.0.0.0' || host === '::' || host === '[::]') {
    names.add(os.hostname().toLowerCase());
    for (const list of Object.values(os.networkInterfaces()))
      for (const a of list ?? []) names.add((a.family === 'IPv6' ? `[${a.address}]` : a.address).toLowerCase());
  }
  return names;
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function sameSecret(given: string | undefined | null, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

const UNAUTHORIZED_PAGE = `<!doctype html><meta charset="utf-8"><title>Saikoro: open the link with its token</title>
<body style="font-family: system-ui, sans-serif; max-width: 40em; margin: 4em auto; line-height: 1.5">
<h1>Open Saikoro with the link it printed</h1>
<p>This server answers only requests that carry its token. Open the address that
<code>saikoro serve</code> printed when it started (it ends in <code>?token=...</code>); the
token is new at every start. Scripts send <code>Authorization: Bearer &lt;token&gt;</code>.</p>`;

/**
 * Serves the built renderer and the API: POST /api/<call> with a JSON array of arguments
 * answers a CallResult; a WebSocket on /api/events streams every API event.
 *
 * Every request needs the server's token (401 otherwise, for the page, the API and the
 * socket): the page's first load brings it as `?token=`, which sets an HttpOnly SameSite=Strict
 * cookie and redirects to the address without it; scripts send `Authorization: Bearer`. It
 * only accepts requests whose Host names it (loopback, the --host address) and its port (against
 * DNS rebinding), API calls whose content type is application/json and, when present, a
 * same-origin Origin (against cross-site requests from other pages in the user's browser).
 * With `redact`, no answer or event names the workspace's absolute path.
 */
export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const host = opts.host ?? '127.0.0.1';
  const hostNames = allowedHostNames(host);
  // Known once listening (port 0 picks one); no request comes before.
  let listeningPort = -1;
  // The Host must name this server: one of its names AND its port (a page of another origin
  // that a rebound DNS name points here names another port, or none).
  const hostAllowed = (req: IncomingMessage) => {
    const named = parseHostHeader(req.headers.host);
    return named !== null && hostNames.has(named.name) && named.port === listeningPort;
  };
  const token = opts.token;
  // One cookie per port: cookies are shared by every port of a host.
  let cookieName = 'saikoro_token';
  const authorized = (req: IncomingMessage, url: URL): boolean => {
    if (token === null) return true;
    // The scheme is case-insensitive (RFC 7235 §2.1): bearer, Bearer and BEARER alike.
    const bearer = /^Bearer[ \t]+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    return sameSecret(bearer, token) || sameSecret(cookieValue(req, cookieName), token) || sameSecret(url.searchParams.get('token'), token);
  };
  // No Origin (not a browser's cross-site request), or this very server (Host is checked first).
  const sameOrigin = (req: IncomingMessage) => {
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    const named = parseHostHeader(req.headers.host);
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    return (
      named !== null &&
      url.protocol === 'http:' &&
      url.origin === origin.toLowerCase() &&
      url.hostname === named.name &&
      (url.port === '' ? 80 : Number(url.port)) === named.port
    );
  };
  const redact = opts.redact ?? ((text: string) => text);

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      // Never the error's message: it may name the server's files.
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error');
      else res.destroy();
    });
  });
  let bodiesInFlight = 0;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (!hostAllowed(req)) return send(res, 421, 'text/plain; charset=utf-8', 'unexpected Host header');
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (opts.competition?.handles(url.pathname)) {
      if (req.method === 'POST' && !sameOrigin(req)) return send(res, 403, 'text/plain; charset=utf-8', 'cross-origin requests are refused');
      const organiser = token !== null && authorized(req, url);
      // The organiser's page load with ?token=: kept in the cookie, out of the address.
      if (organiser && url.searchParams.get('token') === token && (req.method === 'GET' || req.method === 'HEAD') && !url.pathname.startsWith('/api/')) {
        url.searchParams.delete('token');
        res.setHeader('Set-Cookie', `${cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/`);
        return send(res, 303, 'text/plain; charset=utf-8', 'see other', { Location: url.pathname + url.search, 'Cache-Control': 'no-store' });
      }
      return opts.competition.handleHttp(req, res, url, { organiser });
    }
    if (!authorized(req, url)) {
      if (url.pathname.startsWith('/api/'))
        return send(res, 401, 'text/plain; charset=utf-8', 'this server needs its token (Authorization: Bearer <token>)', { 'WWW-Authenticate': 'Bearer' });
      return send(res, 401, 'text/html; charset=utf-8', UNAUTHORIZED_PAGE, { 'WWW-Authenticate': 'Bearer' });
    }
    // The page's first load brings the token in the address: keep it in a cookie and take it
    // out of the address (and so out of the history and of what a screenshot shows).
    if (token !== null && url.searchParams.has('token') && (req.method === 'GET' || req.method === 'HEAD') && !url.pathname.startsWith('/api/')) {
      url.searchParams.delete('token');
      res.setHeader('Set-Cookie', `${cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/`);
      return send(res, 303, 'text/plain; charset=utf-8', 'see other', { Location: url.pathname + url.search, 'Cache-Control': 'no-store' });
    }
    const call = CALL_PATH.exec(url.pathname);
    if (call) return handleCall(call[1], req, res);
    if (url.pathname.startsWith('/api/')) return send(res, 404, 'text/plain; charset=utf-8', 'no such API path');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed');
    return serveStatic(url.pathname, res);
  }

  async function handleCall(name: string, req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'POST') return send(res, 405, 'text/plain; charset=utf-8', 'API calls use POST');
    if (!sameOrigin(req)) return send(res, 403, 'text/plain; charset=utf-8', 'cross-origin API calls are refused');
    if (!acceptsJsonMediaType(req.headers['content-type']))
      return send(res, 415, 'text/plain; charset=utf-8', 'API calls take application/json (charset utf-8, when given)');
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return refuseBody(req, res, 413, `request body larger than ${MAX_BODY_BYTES} bytes`);
    if (bodiesInFlight >= MAX_BODIES_IN_FLIGHT) return refuseBody(req, res, 503, 'too many requests at once; try again');
    let text: string;
    bodiesInFlight++;
    try {
      text = await readBody(req);
    } catch (e) {
      if (e instanceof HttpError) return refuseBody(req, res, e.status, e.message);
      throw e;
    } finally {
      bodiesInFlight--;
    }
    let args: unknown;
    try {
      args = parseJsonSafe(text);
    } catch (e) {
      if (!(e instanceof JsonInputError)) throw e;
      return sendResult(res, {
        ok: false,
        error: { name: 'BadRequest', message: `request body is ${e.message.startsWith('nested') ? e.message : `not JSON: ${e.message}`}` },
      });
    }
    // A client that goes before its answer (closed the tab, timed out) aborts the call's
    // request signal: a startRun or addExperiment not yet carried out then does nothing
    // (src-main/app/run-service.ts, project-service.ts).
    const gone = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) gone.abort(new Error('the client has gone'));
    };
    res.once('close', onClose);
    // Gone already, between the end of its body and here.
    if (req.socket.destroyed) onClose();
    const result = await withRequestSignal(gone.signal, () => dispatchCall(opts.api, name, args));
    res.off('close', onClose);
    if (gone.signal.aborted) return;
    sendResult(res, result, redact);
  }

  async function serveStatic(pathname: string, res: ServerResponse) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return send(res, 400, 'text/plain; charset=utf-8', 'bad path');
    }
    // A NUL byte or a control character names no file (Node would throw, with the path).
    if (/[\x00-\x1f]/.test(decoded)) return send(res, 400, 'text/plain; charset=utf-8', 'bad path');
    const rel = normalize(decoded).replace(/^([/\\])+/, '');
    if (rel.split(sep).includes('..')) return send(res, 403, 'text/plain; charset=utf-8', 'forbidden');
    const file = join(opts.rendererDir, rel === '' ? 'index.html' : rel);
    if (!resolve(file).startsWith(resolve(opts.rendererDir) + sep)) return send(res, 403, 'text/plain; charset=utf-8', 'forbidden');
    try {
      const body = await readFile(file);
      const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
      const cache = rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
      send(res, 200, type, body, { 'Cache-Control': cache });
    } catch (e) {
      // /index.html/ is ENOTDIR, a 300-character segment ENAMETOOLONG: all "not found", and the
      // answer never carries the error's message (it names the server's files).
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR' || code === 'ENAMETOOLONG' || code === 'ELOOP' || code === 'EINVAL')
        return send(res, 404, 'text/plain; charset=utf-8', 'not found');
      if (code === 'EACCES' || code === 'EPERM') return send(res, 403, 'text/plain; charset=utf-8', 'forbidden');
      throw e;
    }
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const sockets = new Set<WebSocket>();
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (opts.competition?.handles(url.pathname)) {
      if (!hostAllowed(req) || !sameOrigin(req)) {
        socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
        return;
      }
      return opts.competition.handleUpgrade(req, socket, head, url, { organiser: token !== null && authorized(req, url) });
    }
    if (url.pathname !== EVENTS_PATH || !hostAllowed(req) || !sameOrigin(req)) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    if (!authorized(req, url)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      const detach = opts.events.attach((message) => {
        if (ws.readyState === ws.OPEN) ws.send(redact(JSON.stringify(message)));
      });
      ws.on('close', () => {
        detach();
        sockets.delete(ws);
      });
      ws.on('error', () => ws.terminate());
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  listeningPort = port;
  cookieName = `saikoro_token_${port}`;
  const urlHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  const origin = `http://${urlHost}:${port}/`;

  return {
    url: token === null ? origin : `${origin}?token=${token}`,
    origin,
    port,
    token,
    async close() {
      opts.competition?.close();
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Content-Security-Policy': CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    ...headers,
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function sendResult(res: ServerResponse, result: CallResult, redact: (text: string) => string = (text) => text) {
  send(res, result.ok ? 200 : 400, 'application/json; charset=utf-8', redact(JSON.stringify(result)), { 'Cache-Control': 'no-store' });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    // A body trickled in byte by byte would hold one of the MAX_BODIES_IN_FLIGHT slots forever.
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      chunks.length = 0;
      reject(new HttpError(408, `request body not received within ${BODY_TIMEOUT_MS / 1000} s`));
    }, BODY_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        done = true;
        clearTimeout(timer);
        chunks.length = 0;
        req.off('data', onData);
        reject(new HttpError(413, `request body larger than ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => {
      clearTimeout(timer);
      if (!done) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (e) => {
      clearTimeout(timer);
      if (!done) reject(e);
    });
  });
}

/** Answers with `status` and closes the connection, so the rest of the body is never read. */
function refuseBody(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  res.setHeader('Connection', 'close');
  send(res, status, 'text/plain; charset=utf-8', message);
  req.resume();
  res.on('finish', () => req.destroy());
}
