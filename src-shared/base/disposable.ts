/**
 * (Pure TypeScript: the main side, the renderer and src-shared all use it.)
 * Ownership of listeners, processes and timers: whoever creates one registers its disposer
 * with an owner, and disposing the owner releases everything it holds, in reverse order.
 */
export interface Disposable {
  dispose(): void;
}

export function toDisposable(dispose: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      dispose();
    },
  };
}

export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Takes ownership; an item added after disposal is disposed at once. */
  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  /** Registers a plain disposer function. */
  defer(dispose: () => void): Disposable {
    return this.add(toDisposable(dispose));
  }

  /** Disposes one item early and forgets it. */
  delete(item: Disposable): void {
    const i = this.items.indexOf(item);
    if (i >= 0) this.items.splice(i, 1);
    item.dispose();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of this.items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch (e) {
        errors.push(e);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'several disposers failed');
  }
}

/** A typed event: `listen(fn)` returns the Disposable that removes fn. */
export class Emitter<T> implements Disposable {
  private listeners = new Set<(value: T) => void>();

  readonly listen = (listener: (value: T) => void): Disposable => {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
