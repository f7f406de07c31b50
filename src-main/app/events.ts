import type { ApiEventName, ApiEventPayload, Disposer, EventMessage } from '../../src-shared/api.ts';
import { Emitter, toDisposable } from '../../src-shared/base/disposable.ts';

type Sink = (message: EventMessage) => void;

/**
 * Where the main side raises API events. Transports (Electron's webContents, the web server's
 * WebSockets) attach a sink and forward every message; each attachment returns its disposer.
 */
export class ApiEventHub {
  private readonly messages = new Emitter<EventMessage>();
  private attached = 0;

  emit<E extends ApiEventName>(event: E, payload: ApiEventPayload<E>): void {
    this.messages.fire({ event, payload } as EventMessage);
  }

  attach(sink: Sink): Disposer {
    // Wrapped, so that the same function attached twice is two attachments.
    const subscription = this.messages.listen((message) => sink(message));
    this.attached++;
    const detach = toDisposable(() => {
      subscription.dispose();
      this.attached--;
    });
    return () => detach.dispose();
  }

  get sinkCount(): number {
    return this.attached;
  }
}
