import { assertKnownKeys } from '../model/knownKeys.js';
import { wholeNumber } from '../model/wholeNumber.js';
import type { Store } from '../store/index.js';
import { activationTests } from './_internals/storeConformanceActivations.js';
import { customerTests } from './_internals/storeConformanceCustomers.js';
import { deliveryTests } from './_internals/storeConformanceDelivery.js';
import { fundingTests } from './_internals/storeConformanceFunding.js';
import { fundingRaceTests } from './_internals/storeConformanceFundingRaces.js';
import type { Suite } from './_internals/storeConformanceKit.js';
import { largeBatchTests } from './_internals/storeConformanceLargeBatches.js';
import { ledgerTests } from './_internals/storeConformanceLedger.js';
import { offerTests } from './_internals/storeConformanceOffers.js';
import { outboxTests } from './_internals/storeConformanceOutbox.js';
import { paymentTests } from './_internals/storeConformancePayments.js';
import { returnTests } from './_internals/storeConformanceReturns.js';
import { returnTotalTests } from './_internals/storeConformanceReturnTotals.js';
import { tenantTests } from './_internals/storeConformanceTenants.js';
import { transactionTests } from './_internals/storeConformanceTransactions.js';
import { unitOfWorkTests } from './_internals/storeConformanceUnitsOfWork.js';

/**
 * Options of {@link storeConformance}: the store under test and the test runner's functions.
 * @example
 * ```ts
 * import { describe, test } from 'vitest';
 * const options: StoreConformanceOptions = {
 *   name: 'memory',
 *   createStore: createMemoryStore,
 *   describe,
 *   test,
 * };
 * ```
 * @public
 */
export interface StoreConformanceOptions {
  /** Name shown in the describe block, such as `'memory'` or `'postgres'`. */
  readonly name: string;
  /**
   * Creates a fresh, empty store for one test. Each test calls it once and calls the store's
   * `close` when it ends, however it ends.
   */
  readonly createStore: () => Store | Promise<Store>;
  /**
   * The runner's `describe` (vitest, jest, `node:test`): groups the tests. It must run `fn` at
   * once, as those runners do.
   */
  readonly describe: (name: string, fn: () => void) => void;
  /**
   * The runner's `test` (or `it`). `timeout`, in milliseconds, is passed only to the large-batch
   * tests; with `node:test`, which takes it in an options object, wrap `test` to pass it on.
   */
  readonly test: (name: string, fn: () => Promise<void>, timeout?: number) => void;
  /**
   * How many items the large-batch tests send in one call of each batch method.
   * @defaultValue `10_000`
   */
  readonly largeBatch?: number;
}

const KEYS: readonly (keyof StoreConformanceOptions)[] = [
  'name',
  'createStore',
  'describe',
  'test',
  'largeBatch',
];

/**
 * Registers the store conformance suite (docs/stores.md): the tests every `Store` must pass,
 * whatever it is backed by. They check the whole repository contract: units of work kept whole
 * or not at all and invisible to others until they resolve, insert-if-absent and upsert counts
 * that hold when callers race, payments unique per transaction and listed in order with paging,
 * returns in their own id space and payments adjusted by them (also when units race on one
 * return or one transaction), funding counters summed exactly over ranges of days and held by a
 * unit so that units racing on the last cents of a budget or a cap never pass it,
 * partners kept apart, lookback queries, offers and their revisions, payments' histories and
 * clawbacks, confirmations (each payment once, oldest day first, never what another unit is
 * confirming), the outbox and its delivery
 * state (claims with leases, outcomes, dead letters), and batches of
 * `largeBatch` items in one call. Assertions use `node:assert/strict`, so any runner that fails a
 * test on a thrown error can run it. A store whose reads wait for an open unit of work (one
 * connection) passes too: reads that do not answer within a second while a unit is open are
 * not checked for its writes.
 * @param options - the store factory and the runner's `describe` and `test`
 * @returns nothing: the tests are registered with `options.test`
 * @throws TypeError for an unknown option; RangeError when `largeBatch` is not a whole number of at least 1
 * @example
 * ```ts
 * import { describe, test } from 'vitest';
 * import { storeConformance } from 'cashback-engine/testing';
 *
 * storeConformance({ name: 'my store', createStore: () => createMyStore(), describe, test });
 * ```
 * @public
 */
export function storeConformance(options: StoreConformanceOptions): void {
  assertKnownKeys(options, KEYS, 'storeConformance options');
  const largeBatch = wholeNumber(options.largeBatch ?? 10_000, 'largeBatch', { min: 1 });
  const suite: Suite = {
    describe: options.describe,
    test: (name, fn, timeout) => {
      const run = async (): Promise<void> => {
        const store = await options.createStore();
        try {
          await fn(store);
        } finally {
          await store.close?.();
        }
      };
      if (timeout === undefined) options.test(name, run);
      else options.test(name, run, timeout);
    },
    largeBatch,
  };
  options.describe(`store conformance: ${options.name}`, () => {
    unitOfWorkTests(suite);
    transactionTests(suite);
    customerTests(suite);
    activationTests(suite);
    paymentTests(suite);
    returnTests(suite);
    returnTotalTests(suite);
    ledgerTests(suite);
    fundingTests(suite);
    fundingRaceTests(suite);
    tenantTests(suite);
    offerTests(suite);
    outboxTests(suite);
    deliveryTests(suite);
    largeBatchTests(suite);
  });
}
