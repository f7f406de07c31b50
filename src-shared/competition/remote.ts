/**
 * The competition as a service (docs/competition.md, "Running it as a service"): the pure parts
 * of what `saikoro serve --competition` does for remote entrants. The messages are the
 * external-solver protocol's, version 1 (src-shared/solvers/program/protocol.ts), carried by a
 * WebSocket or one POST per batch; this module adds what the network needs around them:
 *
 * - the hello of a remote run: the blind first line, with `remaining` beside the budget (a
 *   reconnection resumes a run that has spent some of it);
 * - a request checked before anything is evaluated (its size, its JSON, its sequences), so a
 *   refusal costs nothing;
 * - the limits per token, and the token bucket of the requests per second;
 * - the sequences of an evaluated request packed three faces a byte, as the server stores them.
 */
import { helloMessage, parseProgramLine, ProtocolError, type ParsedSequences, type ProtocolHello } from '../solvers/program/protocol.ts';
import type { DiceConfig } from '../problems/dice/config.ts';

/** The first message of a remote run: the blind hello, and the evaluations left of its budget. */
export interface RemoteHello extends ProtocolHello {
  remaining: number;
}

export function remoteHello(config: DiceConfig, budget: number, remaining: number, seed: number): RemoteHello {
  return { ...helloMessage(config, budget, seed, true), remaining };
}

/** What a server allows each token (docs/competition.md, "Limits"). */
export interface RemoteLimits {
  /** Sequences in one request. */
  maxBatch: number;
  /** Requests per second (WebSocket messages and POSTs alike), sustained. */
  requestsPerSecond: number;
  /** Requests that may come at once above the rate (the bucket's size). */
  burst: number;
  /** Open WebSockets and POSTs in flight at once. */
  maxConnections: number;
  /** Bytes of one message (a WebSocket message or a POST body). */
  maxMessageBytes: number;
}

export const DEFAULT_REMOTE_LIMITS: RemoteLimits = {
  maxBatch: 1000,
  requestsPerSecond: 500,
  burst: 1000,
  maxConnections: 4,
  maxMessageBytes: 8 * 1024 * 1024,
};

/** The bounds a server's limits must stay in (a typo should not make a server that takes 10 GB messages). */
export const REMOTE_LIMIT_BOUNDS: Record<keyof RemoteLimits, { min: number; max: number }> = {
  maxBatch: { min: 1, max: 100_000 },
  requestsPerSecond: { min: 0.01, max: 1_000_000 },
  burst: { min: 1, max: 1_000_000 },
  maxConnections: { min: 1, max: 10_000 },
  maxMessageBytes: { min: 1024, max: 256 * 1024 * 1024 },
};

/** The message size a batch of `maxBatch` sequences of length n needs (what the server's default limit must hold). */
export function messageBytesFor(maxBatch: number, n: number): number {
  return 64 + maxBatch * (n + 3);
}

/**
 * A request that is refused before anything is evaluated: `status` is the HTTP status a POST
 * gets; over a WebSocket the message goes back as {"error": ...} and the connection stays open.
 */
export class RemoteRefusal extends Error {
  override name = 'RemoteRefusal';
  constructor(
    readonly status: number,
    message: string,
    /** Seconds to wait before trying again (a rate refusal), or null. */
    readonly retry: number | null = null,
  ) {
    super(message);
  }

  /** The refusal as it goes back to the client. */
  toJSON(): { error: string; retry?: number } {
    return this.retry === null ? { error: this.message } : { error: this.message, retry: this.retry };
  }
}

/** A request as the server evaluates it: the line for the solver, and its valid sequences (those it stores). */
export interface CheckedRequest {
  /** The request as JSON text (what the run's solver reads, as a program's line). */
  line: string;
  /** How many sequences it holds, valid or not. */
  count: number;
  /** The valid sequences' faces, in order. */
  valid: Uint8Array[];
  /** The answer to a request with no valid sequence (each gets its error), which is evaluated by nobody; null otherwise. */
  errors: string[] | null;
  /** The sequences as checked here: the run's solver takes them as they are (parsed once). */
  parsed: ParsedSequences;
}

/**
 * Checks a request's text before anything is evaluated: JSON, a protocol message
 * ({"evaluate": [...]} or {"log": ...}), at most `maxBatch` sequences, each of length n. A
 * {"log"} message is accepted and dropped (null): the service keeps no log of an entrant.
 */
export function checkRequest(text: string, n: number, maxBatch: number): CheckedRequest | null {
  let message;
  try {
    message = parseProgramLine(text, 1, n);
  } catch (e) {
    if (e instanceof ProtocolError) throw new RemoteRefusal(400, `${e.message.replace("the program's line 1", 'this message')}; nothing was evaluated`);
    throw e;
  }
  if ('log' in message) return null;
  const parsed = message.evaluate;
  if (parsed.count > maxBatch)
    throw new RemoteRefusal(
      413,
      `this request holds ${parsed.count} sequences; at most ${maxBatch} per request on this server (send several requests); nothing was evaluated`,
    );
  return { line: text, count: parsed.count, valid: parsed.faces, errors: parsed.valid.length === 0 ? parsed.errors.map((e) => e.message) : null, parsed };
}

/**
 * A token bucket: `rate` tokens a second up to `burst`. take() spends one, or says how many
 * seconds until one is there. The clock is given (ms), so tests need no waiting.
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }

  /** Spends a token: 0 when there was one, else the seconds until there is. */
  take(now: number): number {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return (1 - this.tokens) / this.rate;
  }
}

/** Bytes one packed sequence of length n takes: three faces a byte (6^3 = 216 values). */
export function packedBytes(n: number): number {
  return Math.ceil(n / 3);
}

/** Sequences of faces 1..6, each of length n, packed three faces a byte, in order. */
export function packSequences(sequences: readonly Uint8Array[], n: number): Uint8Array {
  const per = packedBytes(n);
  const out = new Uint8Array(per * sequences.length);
  let o = 0;
  for (const x of sequences) {
    if (x.length !== n) throw new RangeError(`a sequence of length ${x.length} in a batch of N = ${n}`);
    for (let i = 0; i < n; i += 3) {
      const a = x[i] - 1;
      const b = i + 1 < n ? x[i + 1] - 1 : 0;
      const c = i + 2 < n ? x[i + 2] - 1 : 0;
      out[o++] = a * 36 + b * 6 + c;
    }
  }
  return out;
}

/** The digit strings of packed sequences of length n; RangeError for bytes that are not such a packing. */
export function unpackSequences(bytes: Uint8Array, n: number): string[] {
  const per = packedBytes(n);
  if (bytes.length % per !== 0) throw new RangeError(`${bytes.length} bytes are not whole sequences of N = ${n} (${per} bytes each)`);
  const out: string[] = [];
  const chars = new Array<string>(n);
  for (let o = 0; o < bytes.length; o += per) {
    for (let k = 0; k < per; k++) {
      const v = bytes[o + k];
      if (v >= 216) throw new RangeError(`byte ${o + k} is ${v}, not a packing of three faces`);
      const i = 3 * k;
      chars[i] = String.fromCharCode(49 + Math.floor(v / 36));
      if (i + 1 < n) chars[i + 1] = String.fromCharCode(49 + (Math.floor(v / 6) % 6));
      if (i + 2 < n) chars[i + 2] = String.fromCharCode(49 + (v % 6));
    }
    out.push(chars.join(''));
  }
  return out;
}
