import { getHeapStatistics } from 'node:v8';
import { assertKnownKeys } from '../../model/knownKeys.js';
import { wholeNumber } from '../../model/wholeNumber.js';
import type { DeliveryRepository, Store, StoreSession } from '../Store.js';
import { MemoryData } from './MemoryData.js';
import { memoryDeliveries } from './MemoryDeliveries.js';
import { MemorySession } from './MemorySession.js';

/** How full a memory store is. @public */
export interface MemoryStoreUsage {
  /**
   * Records held: offers, customers, activations, transactions, payments, returns, outbox events
   * and funding counters (one per offer, customer and day).
   */
  readonly records: number;
  /** The bound: a write that would take `records` past it is refused. */
  readonly maxRecords: number;
}

/** Options of {@link createMemoryStore}. Every one is optional. @public */
export interface MemoryStoreOptions {
  /**
   * The most records the store holds (offers, customers, activations, transactions, payments,
   * returns, outbox events and funding counters together). A write that would pass it throws
   * `StorageFullError` and stores nothing of its call; reads go on working.
   * @defaultValue the V8 heap limit (`v8.getHeapStatistics().heap_size_limit`) divided by 1,024
   * bytes: about four million records in a default heap of 4 GiB
   */
  readonly maxRecords?: number;
  /**
   * The fraction of `maxRecords` at which `onPressure` is called, above 0 and at most 1.
   * @defaultValue `0.8`
   */
  readonly warnAt?: number;
  /**
   * Called once, when a unit of work (or a single call) has just committed and the store holds
   * `warnAt × maxRecords` records or more: time to warn that writes will soon be refused. An
   * error it throws (or a promise it returns that rejects) is ignored: the write it follows is
   * already stored.
   */
  readonly onPressure?: (usage: MemoryStoreUsage) => void;
}

/** A memory store: a `Store` (`cashback-engine/store`) that can tell how full it is. @public */
export interface MemoryStore extends Store {
  /** The outbox's delivery state. */
  readonly deliveries: DeliveryRepository;
  /** Records held now (with the writes of an open unit of work) and the bound. */
  usage(): MemoryStoreUsage;
}

const KNOWN_KEYS = ['maxRecords', 'warnAt', 'onPressure'] as const;

/**
 * Heap bytes allowed per record by the default bound: about twice what a stored transaction
 * takes with its share of payments and events (docs/benchmarks.md), so that the bound is reached
 * with about half of the heap in use and the rest left to the process.
 */
const DEFAULT_BYTES_PER_RECORD = 1024;

function defaultMaxRecords(): number {
  return Math.max(1, Math.floor(getHeapStatistics().heap_size_limit / DEFAULT_BYTES_PER_RECORD));
}

function warnAtOf(value: number | undefined): number {
  const warnAt = value ?? 0.8;
  if (typeof warnAt !== 'number' || !(warnAt > 0 && warnAt <= 1)) {
    throw new RangeError(`warnAt must be a number above 0 and at most 1, got ${String(warnAt)}`);
  }
  return warnAt;
}

/**
 * Creates an in-memory store: the default of `createEngine`, for tests, notebooks and replays of
 * stored state. Nothing survives the process.
 *
 * Calls run one at a time, in the order they were made: a unit of work holds the store until it
 * resolves (its writes kept) or throws (its writes taken back), and a call on the store itself
 * waits for the units before it. So a failure leaves no trace, and nobody sees half a unit. A
 * call on the store made inside a unit's `fn` would wait for that unit: use its session. The
 * store keeps the record objects it is given and hands them out: do not change them. It is
 * bounded (`maxRecords`): past the bound, writes throw `StorageFullError` (docs/stores.md).
 * @param options - the bound and the warning before it
 * @returns the store
 * @throws TypeError for an unknown option; RangeError for a `maxRecords` that is not a whole
 *   number of at least 1, or a `warnAt` outside (0, 1]
 * @example
 * ```ts
 * const store = createMemoryStore({
 *   maxRecords: 1_000_000,
 *   onPressure: (u) => console.warn(`store at ${u.records} of ${u.maxRecords} records`),
 * });
 * const engine = createEngine({ store });
 * ```
 * @public
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  assertKnownKeys(options, KNOWN_KEYS, 'createMemoryStore options');
  const maxRecords =
    options.maxRecords === undefined
      ? defaultMaxRecords()
      : wholeNumber(options.maxRecords, 'maxRecords', { min: 1 });
  const warnAt = warnAtOf(options.warnAt);
  const onPressure = options.onPressure;
  if (onPressure !== undefined && typeof onPressure !== 'function') {
    throw new TypeError('onPressure must be a function');
  }
  const db = new MemoryData(maxRecords);
  const usage = (): MemoryStoreUsage => ({ records: db.records, maxRecords });
  const warnFrom = Math.ceil(warnAt * maxRecords);
  let warned = false;
  let queue: Promise<unknown> = Promise.resolve();

  /** After a commit: the warning, once. */
  const checkPressure = (): void => {
    if (warned || db.records < warnFrom) return;
    warned = true;
    try {
      // A listener may be async: its rejection is ignored too.
      const r: unknown = onPressure?.(usage());
      if (r instanceof Promise) r.catch(() => undefined);
    } catch {
      // The write is stored; a failing listener must not make it look refused.
    }
  };

  const transaction = <T>(fn: (session: StoreSession) => Promise<T>): Promise<T> => {
    const run = async (): Promise<T> => {
      const session = new MemorySession(db);
      try {
        const result = await fn(session);
        checkPressure();
        return result;
      } catch (e) {
        session.rollback();
        throw e;
      } finally {
        session.end();
      }
    };
    const result = queue.then(run);
    // The next call waits for this one to settle, however it ends.
    queue = result.catch(() => undefined);
    return result;
  };

  /** A call on the store itself: a unit of work of that one call. */
  const one =
    <A extends unknown[], R>(pick: (s: StoreSession) => (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      transaction((s) => pick(s)(...args));

  /** A call on the delivery state, in the queue like a unit of work. */
  const serial = <T>(fn: () => T): Promise<T> => {
    const result = queue.then(fn);
    queue = result.catch(() => undefined);
    return result;
  };

  return {
    transaction,
    deliveries: memoryDeliveries(db, serial),
    offers: {
      list: one((s) => s.offers.list),
      revision: one((s) => s.offers.revision),
      upsert: one((s) => s.offers.upsert),
    },
    customers: {
      get: one((s) => s.customers.get),
      upsert: one((s) => s.customers.upsert),
    },
    activations: {
      get: one((s) => s.activations.get),
      add: one((s) => s.activations.add),
    },
    transactions: {
      existing: one((s) => s.transactions.existing),
      get: one((s) => s.transactions.get),
      insert: one((s) => s.transactions.insert),
      purchases: one((s) => s.transactions.purchases),
    },
    payments: {
      insert: one((s) => s.payments.insert),
      list: one((s) => s.payments.list),
      get: one((s) => s.payments.get),
      adjust: one((s) => s.payments.adjust),
    },
    returns: {
      existing: one((s) => s.returns.existing),
      hold: one((s) => s.returns.hold),
      ofTransactions: one((s) => s.returns.ofTransactions),
      insert: one((s) => s.returns.insert),
    },
    outbox: {
      add: one((s) => s.outbox.add),
      list: one((s) => s.outbox.list),
    },
    funding: {
      hold: one((s) => s.funding.hold),
      add: one((s) => s.funding.add),
      recount: one((s) => s.funding.recount),
    },
    usage,
    close: async () => undefined,
  };
}
