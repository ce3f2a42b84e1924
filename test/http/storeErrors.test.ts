/**
 * A store that refuses a whole call (StorageFullError, StoreUnavailableError) is answered 503
 * with `storage_full` or `store_unavailable` and `Retry-After`, on the routes that write
 * (`POST /returns` too) and on those that read (the listings, a payment's history); nothing of the
 * request is kept.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/engine/entry.js';
import { StorageFullError, type Store, StoreUnavailableError } from '../../src/store/entry.js';
import { customer, tx } from '../fixtures.js';
import { type Harness, startHarness } from './_harness.js';

const A = 'bank-a';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** `repository` with the named methods throwing `failure()` first, while it returns an error. */
function failing<T extends object>(
  repository: T,
  methods: string[],
  failure: () => Error | undefined,
): T {
  return new Proxy(repository, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (!methods.includes(String(property))) return value.bind(target);
      return async (...args: unknown[]) => {
        const err = failure();
        if (err !== undefined) throw err;
        return value.apply(target, args);
      };
    },
  });
}

/**
 * A memory store whose units of work, customer writes, payment and clawback listings and payment
 * reads throw `failure()`.
 */
function failingStore(failure: () => Error | undefined): Store {
  const store = createMemoryStore();
  return {
    ...store,
    transaction: (fn) =>
      store.transaction(async (session) => {
        const err = failure();
        if (err !== undefined) throw err;
        return fn(session);
      }),
    customers: failing(store.customers, ['upsert'], failure),
    payments: failing(store.payments, ['list', 'clawbacks', 'get', 'history'], failure),
  };
}

describe('store errors', () => {
  test.each([
    ['storage_full', () => new StorageFullError('the disk quota is reached'), 'Storage is full'],
    [
      'store_unavailable',
      () => new StoreUnavailableError('the database does not answer'),
      'Storage is unavailable',
    ],
  ])('%s: 503 with Retry-After on writes and reads; nothing kept', async (code, make, words) => {
    let failing = false;
    h = await startHarness({ store: failingStore(() => (failing ? make() : undefined)) });
    await h.token(A);
    failing = true;
    const expected = {
      error: {
        code,
        message: `${words}; nothing of this request was stored`,
        details: [],
      },
    };
    for (const [path, body] of [
      ['/customers/', [customer()]],
      ['/transactions', [tx()]],
      ['/returns', [{ return_id: 'r1', transaction_id: 't1', date: '2025-06-05T10:00:00' }]],
    ] as const) {
      const r = await h.post(A, path, body);
      expect([r.status, r.body], path).toEqual([503, expected]);
      expect(r.headers.get('retry-after')).toBe('5');
      expect(r.text).not.toMatch(/quota|database/);
    }
    for (const path of [
      '/cashback-payments?date_from=2025-01-01&date_to=2025-12-31',
      '/clawbacks?date_from=2025-01-01&date_to=2025-12-31',
      '/payments/t1/history',
    ]) {
      const listed = await h.get(A, path);
      expect([listed.status, listed.body], path).toEqual([503, expected]);
      expect(listed.headers.get('retry-after')).toBe('5');
    }
    failing = false;
    expect(await h.store.customers.get(A, ['c1'])).toEqual([]);
    expect(await h.store.transactions.existing(A, ['t1'])).toEqual([]);
  });

  test('store_unavailable at commit: 503 saying the request may have been stored, to be sent again', async () => {
    let failing = false;
    const lostAtCommit = () =>
      new StoreUnavailableError('the connection was lost during COMMIT', { outcomeUnknown: true });
    h = await startHarness({ store: failingStore(() => (failing ? lostAtCommit() : undefined)) });
    await h.token(A);
    failing = true;
    const r = await h.post(A, '/transactions', [tx()]);
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('5');
    expect(r.body).toEqual({
      error: {
        code: 'store_unavailable',
        message:
          'Storage became unavailable while this request was being stored; it may have been ' +
          'stored whole: send it again once storage is back (a transaction already stored ' +
          'comes back as duplicate_transaction, and its payment is listed)',
        details: [],
      },
    });
    expect(lostAtCommit().outcomeUnknown).toBe(true);
    expect(new StoreUnavailableError('refused').outcomeUnknown).toBe(false);
    const typo = { outcomeUnkown: true } as unknown as { outcomeUnknown: boolean };
    expect(() => new StoreUnavailableError('x', typo)).toThrow(
      /StoreUnavailableError options.*outcomeUnkown/,
    );
    const text = { outcomeUnknown: 'yes' } as unknown as { outcomeUnknown: boolean };
    expect(() => new StoreUnavailableError('x', text)).toThrow(
      'StoreUnavailableError options: outcomeUnknown must be a boolean, got string',
    );
  });
});
