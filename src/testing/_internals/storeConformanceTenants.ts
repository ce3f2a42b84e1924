import assert from 'node:assert/strict';
import {
  ALL_DAYS,
  makeCustomer,
  makeEvent,
  makePayment,
  makeTransaction,
  PARTNER_A,
  PARTNER_B,
  plainCopy,
  type Suite,
  sortedBy,
  sortedIds,
} from './storeConformanceKit.js';

const A = PARTNER_A;
const B = PARTNER_B;

/** Registers the tenant isolation tests. */
export function tenantTests(suite: Suite): void {
  suite.describe('tenant isolation', () => {
    suite.test("a partner never reads or overwrites another partner's customers", async (store) => {
      assert.deepStrictEqual(
        plainCopy(await store.customers.upsert(A, [makeCustomer('c1'), makeCustomer('only-a')])),
        { added: 2, updated: 0 },
      );
      assert.deepStrictEqual(
        plainCopy(await store.customers.upsert(B, [makeCustomer('c1', { gender: 'male' })])),
        { added: 1, updated: 0 },
        'an id stored by another partner is new',
      );
      assert.deepStrictEqual(
        sortedBy(await store.customers.get(A, ['c1', 'only-a']), (c) => c.customer_id),
        plainCopy([makeCustomer('c1'), makeCustomer('only-a')]),
      );
      assert.deepStrictEqual(
        plainCopy(await store.customers.get(B, ['c1', 'only-a'])),
        plainCopy([makeCustomer('c1', { gender: 'male' })]),
      );
    });

    suite.test(
      "a partner's transaction ids never collide with another partner's",
      async (store) => {
        const a = makeTransaction('t1', { description: 'of A' });
        const b = makeTransaction('t1', { description: 'of B', amount: '50.00' });
        assert.deepStrictEqual(
          sortedIds(await store.transactions.insert(A, [a, makeTransaction('only-a')])),
          ['only-a', 't1'],
        );
        assert.deepStrictEqual(await store.transactions.existing(B, ['t1', 'only-a']), []);
        assert.deepStrictEqual(await store.transactions.insert(B, [b]), ['t1']);
        const pairs = [{ customerId: 'c1', merchantKey: 'coffee house' }];
        assert.deepStrictEqual(
          sortedBy(
            await store.transactions.purchases(A, { pairs, fromDay: '2025-01-01' }),
            (t) => t.transaction_id,
          ),
          sortedBy([a, makeTransaction('only-a')], (t) => t.transaction_id),
        );
        assert.deepStrictEqual(
          plainCopy(await store.transactions.purchases(B, { pairs, fromDay: '2025-01-01' })),
          plainCopy([b]),
        );
      },
    );

    suite.test(
      "a partner's payments are apart from another partner's, for the same transaction id too",
      async (store) => {
        await store.payments.insert(A, [
          makePayment('t1', { cashback: '1.00' }),
          makePayment('t2'),
        ]);
        await store.payments.insert(B, [makePayment('t1', { cashback: '9.99' })]);
        const list = async (partner: string) =>
          plainCopy(await store.payments.list(partner, { ...ALL_DAYS, offset: 0, limit: 10 }));
        assert.deepStrictEqual(
          await list(A),
          plainCopy({
            total: 2,
            items: [makePayment('t1', { cashback: '1.00' }), makePayment('t2')],
          }),
        );
        assert.deepStrictEqual(
          await list(B),
          plainCopy({ total: 1, items: [makePayment('t1', { cashback: '9.99' })] }),
        );
        // A's payment for t2 does not block B's.
        await store.payments.insert(B, [makePayment('t2')]);
        assert.strictEqual((await list(B)).total, 2);
        assert.strictEqual((await list(A)).total, 2);
      },
    );

    suite.test("a partner's outbox lists only its own events", async (store) => {
      await store.outbox.add(A, [makeEvent('a1'), makeEvent('a2')]);
      await store.outbox.add(B, [makeEvent('b1')]);
      await store.outbox.add(A, [makeEvent('a3')]);
      const ids = async (partner: string) =>
        (await store.outbox.list(partner, { limit: 100 })).map((e) => e.id);
      assert.deepStrictEqual(await ids(A), ['a1', 'a2', 'a3']);
      assert.deepStrictEqual(await ids(B), ['b1']);
      assert.deepStrictEqual(await ids('partner-never-seen'), []);
    });

    suite.test('partners and ids that join into the same text stay apart', async (store) => {
      // Stores that key rows by `partner + separator + id` must not confuse these.
      const pairs = [
        ['acme', 'x:1'],
        ['acme:x', '1'],
        ['acme/x', '1'],
        ['acme', 'x/1'],
        ['acme|x', '1'],
        ['acme', 'x|1'],
      ] as const;
      for (const [partner, id] of pairs) {
        assert.deepStrictEqual(
          plainCopy(await store.customers.upsert(partner, [makeCustomer(id)])),
          { added: 1, updated: 0 },
          `customer ${id} of ${partner} must be new`,
        );
        assert.deepStrictEqual(
          await store.transactions.insert(partner, [makeTransaction(id, { customer: id })]),
          [id],
          `transaction ${id} of ${partner} must be new`,
        );
        await store.payments.insert(partner, [makePayment(id, { customer: id })]);
      }
      const everyId = [...new Set(pairs.map(([, id]) => id))];
      for (const [partner] of pairs) {
        const own = sortedIds(pairs.filter(([other]) => other === partner).map(([, id]) => id));
        const customers = await store.customers.get(partner, everyId);
        assert.deepStrictEqual(sortedIds(customers.map((c) => c.customer_id)), own);
        assert.deepStrictEqual(sortedIds(await store.transactions.existing(partner, everyId)), own);
        const page = await store.payments.list(partner, { ...ALL_DAYS, offset: 0, limit: 10 });
        assert.deepStrictEqual(
          page.items.map((p) => p.transaction_id),
          own,
          `${partner} must list only its own payments`,
        );
      }
    });
  });
}
