/**
 * The memory store's bound (`maxRecords`), its warning before the bound (`warnAt`, `onPressure`),
 * and its strict options. Not part of the conformance suite: other stores may have no bound.
 */
import { getHeapStatistics } from 'node:v8';
import { describe, expect, test } from 'vitest';
import { createEngine, createMemoryStore, type MemoryStoreUsage } from '../../src/engine/entry.js';
import {
  type CustomerRecord,
  type PaymentRecord,
  StorageFullError,
  type TransactionRecord,
} from '../../src/store/entry.js';
import { customer, offer, tx } from '../fixtures.js';

const P = 'bank-a';

function customerRecord(id: string): CustomerRecord {
  return {
    customer_id: id,
    birthday: '1990-05-15',
    gender: 'F',
    location: { country: 'FR', city: 'Paris' },
  };
}

function transactionRecord(id: string): TransactionRecord {
  return {
    transaction_id: id,
    customer_id: 'c1',
    source: 'transaction',
    date: '2025-06-02T09:15:00.000000000',
    day: '2025-06-02',
    amount: '10',
    merchant_key: 'coffee house',
    merchant: { id: 'm1', name: 'Coffee House', category_code: '5812' },
    description: '',
    location: { country: 'FR', city: 'Paris' },
  };
}

function paymentRecord(id: string): PaymentRecord {
  return {
    transaction_id: id,
    customer_id: 'c1',
    offer_id: 1,
    cashback_amount: '0.5',
    payment_date: '2025-06-16',
    country: 'FR',
    city: 'Paris',
    event_id: 'evt',
    offer_revision: 1,
  };
}

describe('a memory store with a bound', () => {
  test('refuses a write that would pass it as a whole: nothing of it is stored, reads still work', async () => {
    const store = createMemoryStore({ maxRecords: 5 });
    await store.customers.upsert(P, [customerRecord('c1'), customerRecord('c2')]);
    const write = store.transactions.insert(P, ['t1', 't2', 't3', 't4'].map(transactionRecord));
    await expect(write).rejects.toThrow(StorageFullError);
    await expect(write).rejects.toThrow(/holds 2 of at most 5 records.*would add 4/);
    expect(await store.transactions.existing(P, ['t1', 't2', 't3', 't4'])).toEqual([]);
    expect((await store.customers.get(P, ['c1', 'c2'])).length).toBe(2);
    expect(store.usage()).toEqual({ records: 2, maxRecords: 5 });
  });

  test('then takes a smaller write that fits, and refuses the next one past the bound', async () => {
    const store = createMemoryStore({ maxRecords: 5 });
    await store.customers.upsert(P, [customerRecord('c1'), customerRecord('c2')]);
    await expect(
      store.transactions.insert(P, ['t1', 't2', 't3', 't4'].map(transactionRecord)),
    ).rejects.toThrow(StorageFullError);
    expect(await store.transactions.insert(P, ['t1', 't2', 't3'].map(transactionRecord))).toEqual([
      't1',
      't2',
      't3',
    ]);
    expect(store.usage()).toEqual({ records: 5, maxRecords: 5 });
    await expect(store.transactions.insert(P, [transactionRecord('t4')])).rejects.toThrow(
      StorageFullError,
    );
    await expect(
      store.outbox.add(P, [{ id: 'e1', type: 'cashback.created', payload: {}, created_at: '' }]),
    ).rejects.toThrow(StorageFullError);
    expect(await store.outbox.list(P, { limit: 10 })).toEqual([]);
  });

  test('counts only what a write adds: replacing customers and re-sending stored ids are taken at the bound', async () => {
    const store = createMemoryStore({ maxRecords: 3 });
    await store.customers.upsert(P, [customerRecord('c1'), customerRecord('c2')]);
    await store.transactions.insert(P, [transactionRecord('t1')]);
    expect(await store.customers.upsert(P, [customerRecord('c1'), customerRecord('c2')])).toEqual({
      added: 0,
      updated: 2,
    });
    expect(await store.transactions.insert(P, [transactionRecord('t1')])).toEqual([]);
    await expect(store.customers.upsert(P, [customerRecord('c3')])).rejects.toThrow(
      StorageFullError,
    );
    expect(store.usage().records).toBe(3);
  });

  test('a refused write in a unit of work makes the unit keep nothing, and frees what it had counted', async () => {
    const store = createMemoryStore({ maxRecords: 4 });
    const unit = store.transaction(async (s) => {
      await s.transactions.insert(P, ['t1', 't2'].map(transactionRecord));
      await s.payments.insert(P, ['t1', 't2', 't3'].map(paymentRecord));
    });
    await expect(unit).rejects.toThrow(StorageFullError);
    expect(await store.transactions.existing(P, ['t1', 't2'])).toEqual([]);
    expect(store.usage().records).toBe(0);
    await store.transaction(async (s) => {
      await s.transactions.insert(P, ['t1', 't2'].map(transactionRecord));
      await s.payments.insert(P, ['t1', 't2'].map(paymentRecord));
    });
    expect(store.usage().records).toBe(4);
  });

  test('counts one record per funding counter (offer, customer and day), refuses a new one past the bound, and frees those of a unit that threw', async () => {
    const store = createMemoryStore({ maxRecords: 3 });
    const change = (customer: string | null, day: string) => ({
      offer_id: 1,
      customer_id: customer,
      day,
      amount: '0.07',
      count: 1,
    });
    // The budget's day named twice in one call is one counter.
    await store.funding.add(P, [change(null, '2025-03-10'), change(null, '2025-03-10')]);
    await store.funding.add(P, [change('c1', '2025-03-10')]);
    expect(store.usage().records).toBe(2);
    await expect(
      store.transaction(async (s) => {
        await s.funding.add(P, [change('c1', '2025-03-11')]);
        expect(store.usage().records).toBe(3);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(store.usage().records).toBe(2);
    await expect(
      store.funding.add(P, [change('c2', '2025-03-10'), change('c3', '2025-03-10')]),
    ).rejects.toThrow(StorageFullError);
    // A counter already held changes without a record more.
    await store.funding.add(P, [change(null, '2025-03-10'), change('c1', '2025-03-10')]);
    const range = (customer: string | null) => ({
      offer_id: 1,
      customer_id: customer,
      from: '2025-03-01',
      to: '2025-03-31',
    });
    expect(await store.funding.hold(P, [range(null), range('c1'), range('c2')])).toEqual([
      { amount: '0.21', count: 3 },
      { amount: '0.14', count: 2 },
      { amount: '0', count: 0 },
    ]);
    expect(store.usage().records).toBe(2);
  });

  test('a reload refused at the bound keeps no recounted counter: the counters and the count are as before', async () => {
    const store = createMemoryStore({ maxRecords: 8 });
    const engine = createEngine({ store });
    const plain = offer({ discount: 10 });
    await engine.upsertOffers([plain]);
    await engine.upsertCustomers(P, [customer(), customer({ customer_id: 'c2' })]);
    await engine.addTransactions(P, [
      tx({ transaction_id: 't1', amount: 40 }),
      tx({ transaction_id: 't2', customer_id: 'c2', amount: 40 }),
    ]);
    const before = store.usage().records;
    // Caps of two customers on one day: two counters more than the bound leaves room for.
    await expect(
      engine.upsertOffers([{ ...plain, customer_cap: { count: 5, period: 'offer' } }]),
    ).rejects.toThrow(StorageFullError);
    expect(store.usage().records).toBe(before);
    const all = { from: '0000-01-01', to: '9999-12-31' };
    expect(
      await store.funding.hold(P, [
        { offer_id: 1, customer_id: 'c1', ...all },
        { offer_id: 1, customer_id: 'c2', ...all },
      ]),
    ).toEqual([
      { amount: '0', count: 0 },
      { amount: '0', count: 0 },
    ]);
  });

  test('under an engine, a batch past the bound rejects with StorageFullError and stores nothing', async () => {
    const store = createMemoryStore({ maxRecords: 4 });
    const engine = createEngine({ store, clock: () => new Date('2025-06-01T12:00:00Z') });
    await engine.upsertOffers([offer()]);
    await engine.upsertCustomers(P, [customer()]);
    // Offer, customer, then one transaction, its payment and its event: 5 records.
    await expect(engine.addTransactions(P, [tx()])).rejects.toThrow(StorageFullError);
    expect(await store.transactions.existing(P, ['t1'])).toEqual([]);
    const page = await engine.listPayments(P, { date_from: '2025-01-01', date_to: '2025-12-31' });
    expect(page.total_count).toBe(0);
    expect(store.usage().records).toBe(2);
    // Unpaid, it needs one record only.
    const unpaid = tx({
      transaction_id: 't2',
      merchant: { id: 'm', name: 'Elsewhere', category_code: '1' },
    });
    expect((await engine.addTransactions(P, [unpaid])).errors).toHaveProperty('t2');
    expect(await store.transactions.existing(P, ['t2'])).toEqual(['t2']);
  });

  test('by default is bounded by the heap limit at 1,024 bytes a record', () => {
    const expected = Math.floor(getHeapStatistics().heap_size_limit / 1024);
    expect(createMemoryStore().usage()).toEqual({ records: 0, maxRecords: expected });
  });
});

describe('the warning before the bound', () => {
  test('fires once, when a commit takes the store to warnAt of its bound', async () => {
    const seen: MemoryStoreUsage[] = [];
    const store = createMemoryStore({
      maxRecords: 10,
      warnAt: 0.5,
      onPressure: (u) => seen.push(u),
    });
    await store.customers.upsert(P, ['c1', 'c2', 'c3', 'c4'].map(customerRecord));
    expect(seen).toEqual([]);
    await store.transactions.insert(P, [transactionRecord('t1')]);
    expect(seen).toEqual([{ records: 5, maxRecords: 10 }]);
    await store.transactions.insert(P, ['t2', 't3', 't4'].map(transactionRecord));
    await store.customers.upsert(P, [customerRecord('c5')]);
    expect(seen).toHaveLength(1);
  });

  test('does not fire for a unit of work that is taken back', async () => {
    let fired = 0;
    const store = createMemoryStore({ maxRecords: 10, warnAt: 0.2, onPressure: () => fired++ });
    await expect(
      store.transaction(async (s) => {
        await s.transactions.insert(P, ['t1', 't2', 't3'].map(transactionRecord));
        throw new Error('taken back');
      }),
    ).rejects.toThrow('taken back');
    expect(fired).toBe(0);
    await store.transactions.insert(P, ['t1', 't2'].map(transactionRecord));
    expect(fired).toBe(1);
  });

  test('defaults to 80% of the bound; a listener that throws does not undo the write', async () => {
    let fired = 0;
    const store = createMemoryStore({
      maxRecords: 5,
      onPressure: () => {
        fired++;
        throw new Error('listener');
      },
    });
    await store.transactions.insert(P, ['t1', 't2', 't3'].map(transactionRecord));
    expect(fired).toBe(0);
    expect(await store.transactions.insert(P, [transactionRecord('t4')])).toEqual(['t4']);
    expect(fired).toBe(1);
    expect(await store.transactions.existing(P, ['t4'])).toEqual(['t4']);
  });

  test('an async listener that rejects is ignored too', async () => {
    let fired = 0;
    const store = createMemoryStore({
      maxRecords: 2,
      warnAt: 0.5,
      onPressure: async () => {
        fired++;
        throw new Error('listener');
      },
    });
    expect(await store.transactions.insert(P, [transactionRecord('t1')])).toEqual(['t1']);
    expect(fired).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
});

describe('createMemoryStore options', () => {
  test('an unknown key is a TypeError naming it and the nearest known one', () => {
    expect(() => createMemoryStore({ maxRecord: 10 } as never)).toThrow(
      new TypeError(
        "createMemoryStore options: unknown option 'maxRecord'; did you mean 'maxRecords'? " +
          '(known: maxRecords, warnAt, onPressure)',
      ),
    );
  });

  test('a maxRecords that is not a whole number of at least 1 is a RangeError, not a number a TypeError', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createMemoryStore({ maxRecords: bad })).toThrow(
        new RangeError(
          `maxRecords must be a whole number of at least 1, got the number ${String(bad)}`,
        ),
      );
    }
    expect(() => createMemoryStore({ maxRecords: '10' as unknown as number })).toThrow(
      new TypeError('maxRecords must be a whole number of at least 1, got the string "10"'),
    );
  });

  test('a warnAt outside (0, 1] is a RangeError; an onPressure that is not a function a TypeError', () => {
    for (const bad of [0, 1.5, -0.1, Number.NaN]) {
      expect(() => createMemoryStore({ warnAt: bad })).toThrow(RangeError);
    }
    expect(() => createMemoryStore({ warnAt: 1 })).not.toThrow();
    expect(() => createMemoryStore({ onPressure: 'log' as never })).toThrow(TypeError);
  });

  test('a value that is not an object is a TypeError', () => {
    expect(() => createMemoryStore(null as never)).toThrow(TypeError);
  });
});
