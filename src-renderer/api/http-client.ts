import {
  API_CALL_NAMES,
  API_EVENT_NAMES,
  ApiError,
  callPath,
  EVENTS_PATH,
  unwrapResult,
  type ApiEventName,
  type CallResult,
  type Disposer,
  type EventMessage,
  type SaikoroApi,
} from '../../src-shared/api.ts';
import { DisposableStore, Emitter, toDisposable, type Disposable } from '../../src-shared/base/disposable.ts';

export interface HttpApiDeps {
  fetch: typeof fetch;
  WebSocket: typeof WebSocket;
  /** Delay before reconnecting the event socket after it drops, in ms. */
  reconnectDelay?: number;
  /**
   * The server's token, for a client outside the page (scripts, tests): sent as
   * `Authorization: Bearer` and on the socket's URL. A page needs none: the cookie its first
   * load set goes with every request.
   */
  token?: string;
}

export type HttpApi = SaikoroApi & {
  /**
   * Fires when the event socket opens again after it had dropped (not on the first open).
   * Events raised while it was down are lost, so a store re-reads its state here.
   */
  onReconnect(listener: () => void): Disposer;
  dispose(): void;
};

/**
 * The SaikoroApi over the web server: calls are POST /api/<call> with a JSON array of arguments;
 * events arrive on one WebSocket, opened when the first listener subscribes and closed with
 * the last one. A socket that drops is reopened after `reconnectDelay` while anyone listens.
 * The listeners, the socket and the reconnect timer belong to one DisposableStore, which
 * `dispose()` releases.
 */
export function createHttpApi(baseUrl: string, deps: HttpApiDeps = { fetch: globalThis.fetch.bind(globalThis), WebSocket: globalThis.WebSocket }): HttpApi {
  const api: Record<string, unknown> = {};
  for (const name of API_CALL_NAMES) {
    api[name] = async (...args: unknown[]) => {
      const response = await deps.fetch(new URL(callPath(name), baseUrl), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(deps.token ? { Authorization: `Bearer ${deps.token}` } : {}) },
        body: JSON.stringify(args),
      });
      const text = await response.text();
      let result: CallResult;
      try {
        result = JSON.parse(text) as CallResult;
      } catch {
        throw new ApiError({ name: 'HttpError', message: `${name}: HTTP ${response.status} ${text.slice(0, 200)}` });
      }
      return unwrapResult(result);
    };
  }

  const owner = new DisposableStore();
  const events = new Map<ApiEventName, Emitter<unknown>>();
  for (const name of API_EVENT_NAMES) events.set(name, owner.add(new Emitter<unknown>()));
  const reconnected = owner.add(new Emitter<void>());
  let subscribed = 0;
  // The socket (open or opening) and the pending reconnect, each owned by `owner` while it lasts.
  let socket: Disposable | null = null;
  let retry: Disposable | null = null;
  // An opened socket dropped since the last open, so the next open is a reconnect.
  let dropped = false;

  function connect() {
    if (socket || retry || owner.isDisposed) return;
    const url = new URL(EVENTS_PATH, baseUrl);
    if (deps.token) url.searchParams.set('token', deps.token);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new deps.WebSocket(url.href);
    let opened = false;
    ws.onopen = () => {
      opened = true;
      if (!dropped) return;
      dropped = false;
      reconnected.fire();
    };
    ws.onmessage = (e: MessageEvent) => {
      let message: EventMessage;
      try {
        message = JSON.parse(String(e.data)) as EventMessage;
      } catch {
        return;
      }
      events.get(message.event)?.fire(message.payload);
    };
    // An error is followed by close, which decides what happens next.
    ws.onerror = () => {};
    ws.onclose = () => {
      const closed = socket;
      socket = null;
      if (closed) owner.delete(closed);
      if (opened) dropped = true;
      if (subscribed > 0) scheduleReconnect();
    };
    // Closing it ourselves detaches the handlers first, so it is not taken for a drop.
    socket = owner.add(
      toDisposable(() => {
        ws.onopen = ws.onmessage = ws.onclose = null;
        ws.close();
      }),
    );
  }

  function scheduleReconnect() {
    const timer = setTimeout(() => {
      const done = retry;
      retry = null;
      if (done) owner.delete(done);
      connect();
    }, deps.reconnectDelay ?? 1000);
    retry = owner.add(toDisposable(() => clearTimeout(timer)));
  }

  function disconnectIfIdle() {
    if (subscribed > 0) return;
    for (const item of [retry, socket]) if (item) owner.delete(item);
    retry = socket = null;
  }

  for (const [name, emitter] of events) {
    api[name] = (listener: (payload: unknown) => void): Disposer => {
      // Wrapped, so that the same function subscribed twice is two subscriptions.
      const listening = emitter.listen((payload) => listener(payload));
      subscribed++;
      connect();
      const unsubscribe = toDisposable(() => {
        listening.dispose();
        subscribed--;
        disconnectIfIdle();
      });
      return () => unsubscribe.dispose();
    };
  }

  api.onReconnect = (listener: () => void): Disposer => {
    const listening = reconnected.listen(() => listener());
    return () => listening.dispose();
  };
  api.dispose = () => owner.dispose();
  return api as unknown as HttpApi;
}
