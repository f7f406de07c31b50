import type { ApiEventName, ApiEventPayload, Disposer, EventMessage } from '../../src-shared/api.ts';

type Sink = (message: EventMessage) => void;

/**
 * Where the main side raises API events. Transports (Electron's webContents, the web server's
 * WebSockets) attach a sink and forward every message; each attachment returns its disposer.
 */
export class ApiEventHub {
  private readonly sinks = new Set<Sink>();

  emit<E extends ApiEventName>(event: E, payload: ApiEventPayload<E>): void {
    const message = { event, payload } as EventMessage;
    for (const sink of [...this.sinks]) sink(message);
  }

  attach(sink: Sink): Disposer {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  get sinkCount(): number {
    return this.sinks.size;
  }
}
