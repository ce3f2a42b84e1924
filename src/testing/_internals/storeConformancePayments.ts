import assert from 'node:assert/strict';
import type { PaymentRecord, StoreSession } from '../../store/index.js';
import {
  _ALL_DAYS,
  _customer,
  _event,
  _listingOrder,
  _NO_LIMIT,
  _offer,
  _PARTNER_A,
  type _Probe,
  _payment,
  _plain,
  type _Suite,
  _snapshot,
  _transaction,
} from './storeConformanceKit.js';

const A = _PARTNER_A;

async function listAll(
  store: StoreSession,
  from: string = _ALL_DAYS.from,
  to: string = _ALL_DAYS.to,
) {
  return _plain(await store.payments.list(A, { from, to, offset: 0, limit: _NO_LIMIT }));
}

function ids(payments: readonly PaymentRecord[]): string[] {
  return payments.map((p) => p.transaction_id);
}

/** Payments over three days, ids that sort differently as text and as numbers or by locale. */
const SPREAD: readonly PaymentRecord[] = [
  _payment('b', { date: '2025-03-11' }),
  _payment('10', { date: '2025-03-10' }),
  _payment('a', { date: '2025-03-10' }),
  _payment('9', { date: '2025-03-10' }),
  _payment('B', { date: '2025-03-10' }),
  _payment('a-2', { date: '2025-03-12' }),
  _payment('A', { date: '2025-03-11' }),
  _payment('zz', { date: '2025-03-09' }),
  _payment('_x', { date: '2025-03-10' }),
  _payment('é', { date: '2025-03-10' }),
  _payment('Z', { date: '2025-03-10' }),
];

/** SPREAD in listing order: by day, then by UTF-16 code unit within a day. */
const SPREAD_ORDER = ['zz', '10', '9', 'B', 'Z', '_x', 'a', 'é', 'A', 'b', 'a-2'];

const PROBE: _Probe = {
  partner: A,
  customerIds: ['c1'],
  transactionIds: ['t1', 't2', 't3'],
  pairs: [{ customerId: 'c1', merchantKey: 'coffee house' }],
};

/** Registers the tests of `payments`. @internal */
export function _paymentTests(suite: _Suite): void {
  suite.describe('payments', () => {
    suite.test('insert stores payments that list returns whole', async (store) => {
      const payment = _payment('t1', {
        customer: 'c7',
        offer: 42,
        cashback: '1234567.89',
        date: '2025-04-01',
        event: 'event-xyz',
      });
      await store.payments.insert(A, [payment]);
      await store.payments.insert(A, []);
      assert.deepStrictEqual(await listAll(store), _plain({ total: 1, items: [payment] }));
    });

    suite.test(
      'insert throws for a transaction id that already has a payment, and keeps nothing of the call',
      async (store) => {
        await store.payments.insert(A, [_payment('t1', { cashback: '1.00' })]);
        await assert.rejects(
          store.payments.insert(A, [
            _payment('t2'),
            _payment('t1', { cashback: '2.00' }),
            _payment('t3'),
          ]),
        );
        assert.deepStrictEqual(
          await listAll(store),
          _plain({ total: 1, items: [_payment('t1', { cashback: '1.00' })] }),
        );
      },
    );

    suite.test(
      'insert throws for a transaction id twice in one call, and keeps nothing of the call',
      async (store) => {
        await assert.rejects(
          store.payments.insert(A, [
            _payment('t1', { cashback: '1.00' }),
            _payment('t2'),
            _payment('t1', { cashback: '2.00' }),
          ]),
        );
        assert.deepStrictEqual(await listAll(store), { total: 0, items: [] });
      },
    );

    suite.test(
      'a payment insert that throws inside a unit of work leaves nothing of the unit',
      async (store) => {
        await store.payments.insert(A, [_payment('t1')]);
        const before = await _snapshot(store, PROBE);
        const conflicts: readonly [string, (s: StoreSession) => Promise<void>][] = [
          ['already stored', (s) => s.payments.insert(A, [_payment('t2'), _payment('t1')])],
          ['twice in the call', (s) => s.payments.insert(A, [_payment('t3'), _payment('t3')])],
          [
            'stored earlier in the unit',
            async (s) => {
              await s.payments.insert(A, [_payment('t3')]);
              await s.payments.insert(A, [_payment('t3')]);
            },
          ],
        ];
        for (const [conflict, insert] of conflicts) {
          await assert.rejects(
            store.transaction(async (s) => {
              await s.offers.upsert([_offer(1)]);
              await s.customers.upsert(A, [_customer('c1')]);
              await s.transactions.insert(A, [_transaction('t2'), _transaction('t3')]);
              await s.outbox.add(A, [_event(`event-${conflict}`)]);
              await insert(s);
            }),
            () => true,
            `a payment ${conflict} must make the unit throw`,
          );
          assert.deepStrictEqual(
            await _snapshot(store, PROBE),
            before,
            `a payment ${conflict} must leave nothing of the unit`,
          );
        }
      },
    );

    suite.test(
      'list returns the payments whose payment_date lies in [from, to], both ends included',
      async (store) => {
        await store.payments.insert(A, [
          _payment('before', { date: '2025-03-09' }),
          _payment('on-from', { date: '2025-03-10' }),
          _payment('inside', { date: '2025-03-15' }),
          _payment('on-to', { date: '2025-03-20' }),
          _payment('after', { date: '2025-03-21' }),
          _payment('next-year', { date: '2026-03-15' }),
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
        assert.deepStrictEqual(page.items, _plain(_listingOrder(SPREAD)));
      },
    );

    suite.test(
      'list orders ids by UTF-16 code unit, so an astral character sorts before U+FFFD',
      async (store) => {
        // Code-unit order, not code-point order (UTF-8 byte order): U+1F600 is D83D DE00 in UTF-16.
        await store.payments.insert(A, [_payment('\uFFFD'), _payment('😀'), _payment('\uE000')]);
        assert.deepStrictEqual(ids((await listAll(store)).items), ['😀', '\uE000', '\uFFFD']);
      },
    );

    suite.test(
      'list stays in order as payments of one day arrive over several calls',
      async (store) => {
        const arrivals = ['m', 'c', 'x', 'a', 'p', 'b'];
        const stored: PaymentRecord[] = [];
        for (const id of arrivals) {
          const payment = _payment(id, { date: '2025-03-10' });
          stored.push(payment);
          await store.payments.insert(A, [payment]);
          // A short page first, then the whole listing: neither may miss the latest arrival.
          const first = await store.payments.list(A, { ..._ALL_DAYS, offset: 0, limit: 1 });
          assert.deepStrictEqual(ids(first.items), ids(_listingOrder(stored)).slice(0, 1));
          assert.deepStrictEqual(ids((await listAll(store)).items), ids(_listingOrder(stored)));
        }
      },
    );

    suite.test('list pages with offset and limit, and total counts every match', async (store) => {
      await store.payments.insert(A, SPREAD);
      const pages: string[] = [];
      for (let offset = 0; offset < SPREAD.length; offset += 3) {
        const page = await store.payments.list(A, { ..._ALL_DAYS, offset, limit: 3 });
        assert.strictEqual(page.total, SPREAD.length);
        assert.strictEqual(page.items.length, Math.min(3, SPREAD.length - offset));
        pages.push(...ids(page.items));
      }
      assert.deepStrictEqual(pages, SPREAD_ORDER);
      const middle = await store.payments.list(A, { ..._ALL_DAYS, offset: 4, limit: 5 });
      assert.deepStrictEqual(ids(middle.items), SPREAD_ORDER.slice(4, 9));
      const oneDay = await store.payments.list(A, {
        from: '2025-03-10',
        to: '2025-03-10',
        offset: 2,
        limit: 2,
      });
      assert.deepStrictEqual(_plain(oneDay), {
        total: 7,
        items: _plain(_listingOrder(SPREAD).slice(3, 5)),
      });
    });

    suite.test('a page past the end is empty and total still counts every match', async (store) => {
      await store.payments.insert(A, SPREAD);
      for (const offset of [SPREAD.length, SPREAD.length + 1, 1_000]) {
        assert.deepStrictEqual(
          _plain(await store.payments.list(A, { ..._ALL_DAYS, offset, limit: 10 })),
          { total: SPREAD.length, items: [] },
        );
      }
      const last = await store.payments.list(A, {
        ..._ALL_DAYS,
        offset: SPREAD.length - 1,
        limit: 10,
      });
      assert.deepStrictEqual(ids(last.items), SPREAD_ORDER.slice(-1));
    });

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
  });
}
