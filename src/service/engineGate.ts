import type { CashbackEngine } from '../engine/createEngine.js';
import { StoreUnavailableError } from '../store/errors.js';

/** An engine whose calls are counted, so that the store is closed only once none is running. */
export interface GatedEngine {
  /** The engine to hand to the HTTP app: the same methods, each call counted while it runs. */
  readonly engine: CashbackEngine;
  /** Calls running now. */
  inFlight(): number;
  /**
   * Refuses every later call (it rejects with `StoreUnavailableError`, which the HTTP API answers
   * 503 with `Retry-After`), and resolves once the calls running now have ended: each has
   * committed or rolled back its unit of work whole.
   */
  close(): Promise<void>;
}

/**
 * Wraps an engine so that shutdown can wait for its calls in flight before closing the store.
 * Every function property is counted, so methods added to the engine later are too.
 * @param engine - the engine
 * @returns the gated engine
 */
export function gateEngine(engine: CashbackEngine): GatedEngine {
  let running = 0;
  let closed = false;
  let idle: (() => void) | undefined;
  const settle = () => {
    running--;
    if (running === 0) idle?.();
  };
  const gated = new Proxy(engine, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): Promise<unknown> => {
        if (closed) {
          return Promise.reject(
            new StoreUnavailableError('The server is stopping: the call was not applied'),
          );
        }
        running++;
        let result: Promise<unknown>;
        try {
          result = Promise.resolve(value.apply(target, args));
        } catch (err) {
          result = Promise.reject(err);
        }
        return result.finally(settle);
      };
    },
  });
  return {
    engine: gated,
    inFlight: () => running,
    close() {
      closed = true;
      if (running === 0) return Promise.resolve();
      // Resolved on the next turn, once the callers of the last call have had its result.
      return new Promise<void>((done) => {
        idle = () => setImmediate(done);
      });
    },
  };
}
