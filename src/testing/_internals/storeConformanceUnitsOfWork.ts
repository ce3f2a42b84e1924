import assert from 'node:assert/strict';
import type { Store, StoredOutboxEvent, StoreSession } from '../../store/index.js';
import {
  isIncreasing,
  makeCustomer,
  makeEvent,
  makeOffer,
  makePayment,
  makeTransaction,
  PARTNER_A,
  type Probe,
  pausedUnit,
  plainCopy,
  type Suite,
  settlesWithin,
  sortedBy,
  sortedIds,
  takeSnapshot,
} from './storeConformanceKit.js';

const A = PARTNER_A;

/** How long reads on the store may wait while a unit of work is open before that check is skipped. */
const OUTSIDE_READ_WAIT_MS = 1_000;

/** What the tests below read: two customers, two transactions and their merchant pairs. */
const PROBE: Probe = {
  partner: A,
  customerIds: ['c1', 'c2'],
  transactionIds: ['t1', 't2'],
  pairs: [
    { customerId: 'c1', merchantKey: 'coffee house' },
    { customerId: 'c2', merchantKey: 'coffee house' },
  ],
};

/** Committed data the tests start from: one of everything. */
async function seed(store: Store): Promise<void> {
  await store.offers.upsert([makeOffer(1)]);
  await store.customers.upsert(A, [makeCustomer('c1')]);
  await store.transactions.insert(A, [
    makeTransaction('t1', { customer: 'c1', day: '2025-03-10' }),
  ]);
  await store.payments.insert(A, [makePayment('t1', { date: '2025-03-24' })]);
  await store.outbox.add(A, [makeEvent('e1')]);
}

/** Writes to every repository: replaces c1 and offer 1, adds c2, t2, its payment, e2, offer 2. */
async function writeEverything(s: StoreSession): Promise<void> {
  await s.offers.upsert([makeOffer(1, { name: 'Offer 1, changed' }), makeOffer(2)]);
  await s.customers.upsert(A, [makeCustomer('c1', { gender: 'male' }), makeCustomer('c2')]);
  await s.transactions.insert(A, [makeTransaction('t2', { customer: 'c2', day: '2025-03-11' })]);
  await s.payments.insert(A, [makePayment('t2', { customer: 'c2', date: '2025-03-20' })]);
  await s.outbox.add(A, [makeEvent('e2')]);
}

function withoutSequence(events: readonly StoredOutboxEvent[]): unknown[] {
  return plainCopy(events.map(({ sequence: _, ...event }) => event));
}

/** Checks that `writeEverything` was applied on top of `seed`, as read through `s`. */
async function assertEverythingWritten(s: StoreSession): Promise<void> {
  assert.deepStrictEqual(
    plainCopy(await s.offers.list()),
    plainCopy([makeOffer(1, { name: 'Offer 1, changed' }), makeOffer(2)]),
  );
  assert.deepStrictEqual(
    sortedBy(await s.customers.get(A, ['c1', 'c2']), (c) => c.customer_id),
    plainCopy([makeCustomer('c1', { gender: 'male' }), makeCustomer('c2')]),
  );
  assert.deepStrictEqual(sortedIds(await s.transactions.existing(A, ['t1', 't2'])), ['t1', 't2']);
  assert.deepStrictEqual(
    sortedBy(
      await s.transactions.purchases(A, { pairs: PROBE.pairs, fromDay: '2025-01-01' }),
      (t) => t.transaction_id,
    ),
    plainCopy([
      makeTransaction('t1', { customer: 'c1', day: '2025-03-10' }),
      makeTransaction('t2', { customer: 'c2', day: '2025-03-11' }),
    ]),
  );
  assert.deepStrictEqual(
    plainCopy(
      await s.payments.list(A, { from: '2025-01-01', to: '2025-12-31', offset: 0, limit: 10 }),
    ),
    plainCopy({
      total: 2,
      items: [
        makePayment('t2', { customer: 'c2', date: '2025-03-20' }),
        makePayment('t1', { date: '2025-03-24' }),
      ],
    }),
  );
  const events = await s.outbox.list(A, { limit: 10 });
  assert.deepStrictEqual(withoutSequence(events), plainCopy([makeEvent('e1'), makeEvent('e2')]));
  assert.ok(isIncreasing(events.map((e) => e.sequence)), 'outbox sequences must increase');
}

/** A unit that resolves keeps all its writes; one that throws keeps none. */
function commitTests(suite: Suite): void {
  suite.test(
    'a unit of work keeps every write to every repository when fn resolves, and returns what fn returns',
    async (store) => {
      await seed(store);
      const result = await store.transaction(async (s) => {
        await writeEverything(s);
        return { done: true };
      });
      assert.deepStrictEqual(result, { done: true });
      await assertEverythingWritten(store);
    },
  );

  suite.test(
    'a unit of work that throws keeps none of its writes and rethrows the same error',
    async (store) => {
      await seed(store);
      const before = await takeSnapshot(store, PROBE);
      const failure = new Error('the work failed');
      await assert.rejects(
        store.transaction(async (s) => {
          await writeEverything(s);
          throw failure;
        }),
        (error) => {
          assert.strictEqual(error, failure, 'the error must be rethrown as fn threw it');
          return true;
        },
      );
      assert.deepStrictEqual(await takeSnapshot(store, PROBE), before);

      // Nothing of the failed unit lingers: the same writes succeed afterwards and count as new.
      const counts = await store.transaction(async (s) => {
        const customers = await s.customers.upsert(A, [makeCustomer('c2')]);
        const inserted = await s.transactions.insert(A, [
          makeTransaction('t2', { customer: 'c2', day: '2025-03-11' }),
        ]);
        await s.payments.insert(A, [makePayment('t2', { customer: 'c2', date: '2025-03-20' })]);
        await s.outbox.add(A, [makeEvent('e2')]);
        return { customers, inserted };
      });
      assert.deepStrictEqual(plainCopy(counts), {
        customers: { added: 1, updated: 0 },
        inserted: ['t2'],
      });
    },
  );
}

/** What a unit's writes look like from inside it, from outside it, and to other units. */
function isolationTests(suite: Suite): void {
  suite.test("reads through a unit's session see the unit's own writes", async (store) => {
    await seed(store);
    const revisionBefore = await store.offers.revision();
    await store.transaction(async (s) => {
      await writeEverything(s);
      await assertEverythingWritten(s);
      assert.notStrictEqual(
        await s.offers.revision(),
        revisionBefore,
        "the session's revision must reflect its own offer upsert",
      );
      // Insert-if-absent and the upsert counts see the unit's writes as stored.
      assert.deepStrictEqual(
        await s.transactions.insert(A, [makeTransaction('t2', { description: 'again' })]),
        [],
      );
      assert.deepStrictEqual(plainCopy(await s.customers.upsert(A, [makeCustomer('c2')])), {
        added: 0,
        updated: 1,
      });
    });
    await assertEverythingWritten(store);
  });

  suite.test(
    "reads on the store do not see a unit's writes before the unit resolves",
    async (store) => {
      await seed(store);
      const before = await takeSnapshot(store, PROBE);
      const unit = pausedUnit(store, async (s, pause) => {
        await writeEverything(s);
        await pause();
        return 'done';
      });
      await Promise.race([unit.paused, unit.done]);

      // A store may make reads wait for the open unit; only reads answered meanwhile are checked.
      const outside = takeSnapshot(store, PROBE);
      if (await settlesWithin(outside, OUTSIDE_READ_WAIT_MS)) {
        assert.deepStrictEqual(await outside, before);
      }
      unit.release();
      assert.strictEqual(await unit.done, 'done');
      await outside;
      await assertEverythingWritten(store);
    },
  );

  suite.test('units of work running at the same time all keep their writes', async (store) => {
    const units = 10;
    const ids = Array.from({ length: units }, (_, k) => k);
    await Promise.all(
      ids.map((k) =>
        store.transaction(async (s) => {
          await s.customers.upsert(A, [makeCustomer(`c${k}`)]);
          await new Promise((resolve) => setTimeout(resolve, 1));
          await s.transactions.insert(A, [makeTransaction(`t${k}`, { customer: `c${k}` })]);
          await s.payments.insert(A, [makePayment(`t${k}`, { customer: `c${k}` })]);
          await s.outbox.add(A, [makeEvent(`e${k}-1`), makeEvent(`e${k}-2`)]);
        }),
      ),
    );
    const customerIds = ids.map((k) => `c${k}`);
    const transactionIds = ids.map((k) => `t${k}`);
    assert.deepStrictEqual(
      sortedBy(await store.customers.get(A, customerIds), (c) => c.customer_id),
      sortedBy(
        customerIds.map((id) => makeCustomer(id)),
        (c) => c.customer_id,
      ),
    );
    assert.deepStrictEqual(
      sortedIds(await store.transactions.existing(A, transactionIds)),
      sortedIds(transactionIds),
    );
    const payments = await store.payments.list(A, {
      from: '2025-01-01',
      to: '2025-12-31',
      offset: 0,
      limit: 100,
    });
    assert.deepStrictEqual(
      payments.items.map((p) => p.transaction_id),
      sortedIds(transactionIds),
    );
    const events = await store.outbox.list(A, { limit: 100 });
    assert.strictEqual(events.length, 2 * units);
    assert.ok(isIncreasing(events.map((e) => e.sequence)), 'outbox sequences must increase');
    const position = new Map(events.map((e, i) => [e.id, i]));
    for (const k of ids) {
      const first = position.get(`e${k}-1`);
      const second = position.get(`e${k}-2`);
      assert.ok(
        first !== undefined && second !== undefined && first < second,
        `events e${k}-1 and e${k}-2 must both be listed, in the order they were added`,
      );
    }
  });
}

/** Registers the unit-of-work tests. */
export function unitOfWorkTests(suite: Suite): void {
  suite.describe('units of work', () => {
    commitTests(suite);
    isolationTests(suite);
  });
}
