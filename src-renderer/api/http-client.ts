import {
  API_CALL_NAMES,
  API_EVENT_NAMES,
  ApiError,
  callPath,
  EVENTS_PATH,
  unwrapResult,
  type ApiEventName,
  type CallResult,
  type EventMessage,
  type SaikoroApi,
} from '../../src-shared/api.ts';

export interface HttpApiDeps {
  fetch: typeof fetch;
  WebSocket: typeof WebSocket;
  /** Delay before reconnecting the event socket after it drops, in ms. */
  reconnectDelay?: number;
}

export type HttpApi = SaikoroApi & { dispose(): void };

/**
 * The SaikoroApi over the web server: calls are POST /api/<call> with a JSON array of arguments;
 * events arrive on one WebSocket, opened when the first listener subscribes and closed with
 * the last one.
 */
export function createHttpApi(baseUrl: string, deps: HttpApiDeps = { fetch: globalThis.fetch.bind(globalThis), WebSocket: globalThis.WebSocket }): HttpApi {
  const api: Record<string, unknown> = {};
  for (const name of API_CALL_NAMES) {
    api[name] = async (...args: unknown[]) => {
      const response = await deps.fetch(new URL(callPath(name), baseUrl), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
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

  const listeners = new Map<ApiEventName, Set<(payload: unknown) => void>>();
  let socket: WebSocket | null = null;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;
  const listenerCount = () => [...listeners.values()].reduce((n, s) => n + s.size, 0);

  function connect() {
    if (socket || disposed) return;
    const url = new URL(EVENTS_PATH, baseUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new deps.WebSocket(url.href);
    socket = ws;
    ws.onmessage = (e: MessageEvent) => {
      let message: EventMessage;
      try {
        message = JSON.parse(String(e.data)) as EventMessage;
      } catch {
        return;
      }
      for (const listener of [...(listeners.get(message.event) ?? [])]) listener(message.payload);
    };
    ws.onclose = () => {
      if (socket === ws) socket = null;
      if (!disposed && listenerCount() > 0) reconnectTimer = setTimeout(connect, deps.reconnectDelay ?? 1000);
    };
  }

  function disconnectIfIdle() {
    if (listenerCount() > 0) return;
    clearTimeout(reconnectTimer);
    const ws = socket;
    socket = null;
    ws?.close();
  }

  for (const name of API_EVENT_NAMES) {
    api[name] = (listener: (payload: unknown) => void) => {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(listener);
      connect();
      return () => {
        set.delete(listener);
        disconnectIfIdle();
      };
    };
  }

  api.dispose = () => {
    disposed = true;
    listeners.clear();
    disconnectIfIdle();
  };
  return api as unknown as HttpApi;
}
