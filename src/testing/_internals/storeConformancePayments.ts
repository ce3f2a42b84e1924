import assert from 'node:assert/strict';
import type { PaymentRecord, StoreSession } from '../../store/index.js';
import {
  ALL_DAYS,
  listingOrder,
  makeCustomer,
  makeEvent,
  makeOffer,
  makePayment,
  makeTransaction,
  NO_LIMIT,
  PARTNER_A,
  type Probe,
  plainCopy,
  racingUnits,
  revisionOf,
  type Suite,
  takeSnapshot,
} from './storeConformanceKit.js';

const A = PARTNER_A;

async function listAll(
  store: StoreSession,
  from: string = ALL_DAYS.from,
  to: string = ALL_DAYS.to,
) {
  return plainCopy(await store.payments.list(A, { from, to, offset: 0, limit: NO_LIMIT }));
}

function ids(payments: readonly PaymentRecord[]): string[] {
  return payments.map((p) => p.transaction_id);
}

/** Payments over three days, ids that sort differently as text and as numbers or by locale. */
const SPREAD: readonly PaymentRecord[] = [
  makePayment('b', { date: '2025-03-11' }),
  makePayment('10', { date: '2025-03-10' }),
  makePayment('a', { date: '2025-03-10' }),
  makePayment('9', { date: '2025-03-10' }),
  makePayment('B', { date: '2025-03-10' }),
  makePayment('a-2', { date: '2025-03-12' }),
  makePayment('A', { date: '2025-03-11' }),
  makePayment('zz', { date: '2025-03-09' }),
  makePayment('_x', { date: '2025-03-10' }),
  makePayment('é', { date: '2025-03-10' }),
  makePayment('Z', { date: '2025-03-10' }),
];

/** SPREAD in listing order: by day, then by UTF-16 code unit within a day. */
const SPREAD_ORDER = ['zz', '10', '9', 'B', 'Z', '_x', 'a', 'é', 'A', 'b', 'a-2'];

const PROBE: Probe = {
  partner: A,
  customerIds: ['c1'],
  transactionIds: ['t1', 't2', 't3'],
  pairs: [{ customerId: 'c1', merchantKey: 'coffee house' }],
};

/** Inserting payments: whole records, and a call that throws keeps nothing. */
function insertTests(suite: Suite): void {
  suite.test('insert stores payments that list returns whole', async (store) => {
    const payment = makePayment('t1', {
      customer: 'c7',
      offer: 42,
      cashback: '1234567.89',
      date: '2025-04-01',
      event: 'event-xyz',
    });
    await store.payments.insert(A, [payment]);
    await store.payments.insert(A, []);
    assert.deepStrictEqual(await listAll(store), plainCopy({ total: 1, items: [payment] }));
  });

  suite.test(
    'insert throws for a transaction id that already has a payment, and keeps nothing of the call',
    async (store) => {
      await store.payments.insert(A, [makePayment('t1', { cashback: '1.00' })]);
      await assert.rejects(
        store.payments.insert(A, [
          makePayment('t2'),
          makePayment('t1', { cashback: '2.00' }),
          makePayment('t3'),
        ]),
      );
      assert.deepStrictEqual(
        await listAll(store),
        plainCopy({ total: 1, items: [makePayment('t1', { cashback: '1.00' })] }),
      );
    },
  );

  suite.test(
    'insert throws for a transaction id twice in one call, and keeps nothing of the call',
    async (store) => {
      await assert.rejects(
        store.payments.insert(A, [
          makePayment('t1', { cashback: '1.00' }),
          makePayment('t2'),
          makePayment('t1', { cashback: '2.00' }),
        ]),
      );
      assert.deepStrictEqual(await listAll(store), { total: 0, items: [] });
    },
  );

  suite.test(
    'a payment insert that throws inside a unit of work leaves nothing of the unit',
    async (store) => {
      await store.payments.insert(A, [makePayment('t1')]);
      const before = await takeSnapshot(store, PROBE);
      const conflicts: readonly [string, (s: StoreSession) => Promise<void>][] = [
        ['already stored', (s) => s.payments.insert(A, [makePayment('t2'), makePayment('t1')])],
        ['twice in the call', (s) => s.payments.insert(A, [makePayment('t3'), makePayment('t3')])],
        [
          'stored earlier in the unit',
          async (s) => {
            await s.payments.insert(A, [makePayment('t3')]);
            await s.payments.insert(A, [makePayment('t3')]);
          },
        ],
      ];
      for (const [conflict, insert] of conflicts) {
        await assert.rejects(
          store.transaction(async (s) => {
            await s.offers.upsert([revisionOf(makeOffer(1))]);
            await s.customers.upsert(A, [makeCustomer('c1')]);
            await s.transactions.insert(A, [makeTransaction('t2'), makeTransaction('t3')]);
            await s.outbox.add(A, [makeEvent(`event-${conflict}`)]);
            await insert(s);
          }),
          () => true,
          `a payment ${conflict} must make the unit throw`,
        );
        assert.deepStrictEqual(
          await takeSnapshot(store, PROBE),
          before,
          `a payment ${conflict} must leave nothing of the unit`,
        );
      }
    },
  );
}

/** Listing by payment day: the range, both ends included, and the order within it. */
function orderTests(suite: Suite): void {
  suite.test(
    'list returns the payments whose payment_date lies in [from, to], both ends included',
    async (store) => {
      await store.payments.insert(A, [
        makePayment('before', { date: '2025-03-09' }),
        makePayment('on-from', { date: '2025-03-10' }),
        makePayment('inside', { date: '2025-03-15' }),
        makePayment('on-to', { date: '2025-03-20' }),
        makePayment('after', { date: '2025-03-21' }),
        makePayment('next-year', { date: '2026-03-15' }),
      ]);
      const page = await listAll(store, '2025-03-10', '2025-03-20');
      assert.strictEqual(page.total, 3);
      assert.deepStrictEqual(ids(page.items), ['on-from', 'inside', 'on-to']);
      assert.deepStrictEqual(ids((await listAll(store, '2025-03-15', '2025-03-15')).items), [
        'inside',
      ]);
    },
  );

  suite.test(
    'list orders by payment_date, then transaction_id in code-unit order',
    async (store) => {
      await store.payments.insert(A, SPREAD);
      const page = await listAll(store);
      assert.strictEqual(page.total, SPREAD.length);
      assert.deepStrictEqual(ids(page.items), SPREAD_ORDER);
      assert.deepStrictEqual(page.items, plainCopy(listingOrder(SPREAD)));
    },
  );

  suite.test(
    'list orders ids by UTF-16 code unit, so an astral character sorts before U+FFFD',
    async (store) => {
      // Code-unit order, not code-point order (UTF-8 byte order): U+1F600 is D83D DE00 in UTF-16.
      await store.payments.insert(A, [
        makePayment('\uFFFD'),
        makePayment('😀'),
        makePayment('\uE000'),
      ]);
      assert.deepStrictEqual(ids((await listAll(store)).items), ['😀', '\uE000', '\uFFFD']);
    },
  );

  suite.test(
    'list stays in order as payments of one day arrive over several calls',
    async (store) => {
      const arrivals = ['m', 'c', 'x', 'a', 'p', 'b'];
      const stored: PaymentRecord[] = [];
      for (const id of arrivals) {
        const payment = makePayment(id, { date: '2025-03-10' });
        stored.push(payment);
        await store.payments.insert(A, [payment]);
        // A short page first, then the whole listing: neither may miss the latest arrival.
        const first = await store.payments.list(A, { ...ALL_DAYS, offset: 0, limit: 1 });
        assert.deepStrictEqual(ids(first.items), ids(listingOrder(stored)).slice(0, 1));
        assert.deepStrictEqual(ids((await listAll(store)).items), ids(listingOrder(stored)));
      }
    },
  );
}

/** Listing a page: offset, limit and the total count. */
function pageTests(suite: Suite): void {
  suite.test('list pages with offset and limit, and total counts every match', async (store) => {
    await store.payments.insert(A, SPREAD);
    const pages: string[] = [];
    for (let offset = 0; offset < SPREAD.length; offset += 3) {
      const page = await store.payments.list(A, { ...ALL_DAYS, offset, limit: 3 });
      assert.strictEqual(page.total, SPREAD.length);
      assert.strictEqual(page.items.length, Math.min(3, SPREAD.length - offset));
      pages.push(...ids(page.items));
    }
    assert.deepStrictEqual(pages, SPREAD_ORDER);
    const middle = await store.payments.list(A, { ...ALL_DAYS, offset: 4, limit: 5 });
    assert.deepStrictEqual(ids(middle.items), SPREAD_ORDER.slice(4, 9));
    const oneDay = await store.payments.list(A, {
      from: '2025-03-10',
      to: '2025-03-10',
      offset: 2,
      limit: 2,
    });
    assert.deepStrictEqual(plainCopy(oneDay), {
      total: 7,
      items: plainCopy(listingOrder(SPREAD).slice(3, 5)),
    });
  });

  suite.test('a page past the end is empty and total still counts every match', async (store) => {
    await store.payments.insert(A, SPREAD);
    for (const offset of [SPREAD.length, SPREAD.length + 1, 1_000]) {
      assert.deepStrictEqual(
        plainCopy(await store.payments.list(A, { ...ALL_DAYS, offset, limit: 10 })),
        { total: SPREAD.length, items: [] },
      );
    }
    const last = await store.payments.list(A, {
      ...ALL_DAYS,
      offset: SPREAD.length - 1,
      limit: 10,
    });
    assert.deepStrictEqual(ids(last.items), SPREAD_ORDER.slice(-1));
  });

  suite.test(
    'total counts what units storing and cancelling payments of one day at once kept',
    async (store) => {
      const day = '2025-03-10';
      const stored = racingUnits(store, 6, async (s, k) => {
        await s.payments.insert(
          A,
          Array.from({ length: 5 }, (_, i) => makePayment(`u${k}-${i}`, { date: day })),
        );
        const cancel = { transaction_id: `u${k}-0`, previous_cashback_amount: '0.62' };
        await s.payments.adjust(A, [{ ...cancel, cashback_amount: '0' }]);
      });
      const undone = assert.rejects(
        store.transaction(async (s) => {
          await s.payments.insert(A, [makePayment('undone', { date: day })]);
          throw new Error('undone');
        }),
        /undone/,
      );
      await Promise.all([...stored, undone]);
      const listed = await store.payments.list(A, { from: day, to: day, offset: 0, limit: 100 });
      assert.strictEqual(listed.total, 24);
      assert.strictEqual(listed.items.length, 24);
    },
  );

  suite.test('list of a range without payments is empty', async (store) => {
    assert.deepStrictEqual(await listAll(store), { total: 0, items: [] });
    await store.payments.insert(A, SPREAD);
    assert.deepStrictEqual(await listAll(store, '2025-03-13', '2025-12-31'), {
      total: 0,
      items: [],
    });
    assert.deepStrictEqual(await listAll(store, '2025-01-01', '2025-03-08'), {
      total: 0,
      items: [],
    });
  });
}

/** Registers the tests of `payments`. */
export function paymentTests(suite: Suite): void {
  suite.describe('payments', () => {
    insertTests(suite);
    orderTests(suite);
    pageTests(suite);
  });
}
