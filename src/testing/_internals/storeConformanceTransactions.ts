import assert from 'node:assert/strict';
import type { Store, StoreSession, TransactionRecord } from '../../store/index.js';
import {
  makeCustomer,
  makeOffer,
  makeTransaction,
  PARTNER_A,
  PARTNER_B,
  pausedUnit,
  plainCopy,
  racingUnits,
  revisionOf,
  type Suite,
  settlesBeforeRelease,
  sortedBy,
  sortedIds,
} from './storeConformanceKit.js';

const A = PARTNER_A;
const B = PARTNER_B;

/** Concurrent callers in the race tests, and how many ids each one inserts. */
const CALLERS = 20;
const IDS_PER_CALLER = 10;

/** How long the second of two units inserting for one customer is watched for finishing early. */
const HOLD_WAIT_MS = 300;

/** Caller `k` inserts ids `k … k + 9` (of 29 in all), each record marked with its caller. */
function racingBatch(k: number): TransactionRecord[] {
  return Array.from({ length: IDS_PER_CALLER }, (_, i) =>
    makeTransaction(`race-${k + i}`, { description: `caller ${k}` }),
  );
}

/** Every id reported new exactly once, and the stored record is the one of the caller that did. */
async function assertOneWinnerPerId(store: Store, reports: readonly (readonly string[])[]) {
  const winner = new Map<string, number>();
  reports.forEach((ids, k) => {
    for (const id of ids) {
      assert.ok(!winner.has(id), `${id} was reported new by callers ${winner.get(id)} and ${k}`);
      winner.set(id, k);
    }
  });
  const all = Array.from({ length: CALLERS + IDS_PER_CALLER - 1 }, (_, i) => `race-${i}`);
  assert.deepStrictEqual(sortedIds([...winner.keys()]), sortedIds(all));
  const stored = await store.transactions.purchases(A, {
    pairs: [{ customerId: 'c1', merchantKey: 'coffee house' }],
    fromDay: '2025-01-01',
  });
  assert.deepStrictEqual(
    sortedBy(stored, (t) => t.transaction_id),
    sortedBy(
      all.map((id) => makeTransaction(id, { description: `caller ${winner.get(id)}` })),
      (t) => t.transaction_id,
    ),
    'each stored record must be the one of the caller that reported its id new',
  );
}

/** Inserting transactions: insert-if-absent, one id space, exactly one winner per id in a race. */
function insertTests(suite: Suite): void {
  suite.describe('transactions', () => {
    suite.test('insert reports only the ids that were new', async (store) => {
      assert.deepStrictEqual(
        sortedIds(
          await store.transactions.insert(A, [makeTransaction('t1'), makeTransaction('t2')]),
        ),
        ['t1', 't2'],
      );
      assert.deepStrictEqual(
        await store.transactions.insert(A, [makeTransaction('t2'), makeTransaction('t3')]),
        ['t3'],
      );
      assert.deepStrictEqual(
        await store.transactions.insert(A, [makeTransaction('t1'), makeTransaction('t3')]),
        [],
      );
      assert.deepStrictEqual(await store.transactions.insert(A, []), []);
    });

    suite.test('insert never overwrites a stored transaction', async (store) => {
      const first = makeTransaction('t1', { amount: '10.00', description: 'first' });
      await store.transactions.insert(A, [first]);
      const second = makeTransaction('t1', { amount: '99.99', description: 'second' });
      assert.deepStrictEqual(await store.transactions.insert(A, [second]), []);
      await store.transaction(async (s) => {
        assert.deepStrictEqual(await s.transactions.insert(A, [second]), []);
      });
      const stored = await store.transactions.purchases(A, {
        pairs: [{ customerId: 'c1', merchantKey: 'coffee house' }],
        fromDay: '2025-01-01',
      });
      assert.deepStrictEqual(plainCopy(stored), plainCopy([first]));
    });

    suite.test('history and submitted transactions share one id space', async (store) => {
      assert.deepStrictEqual(
        await store.transactions.insert(A, [makeTransaction('h1', { source: 'history' })]),
        ['h1'],
      );
      assert.deepStrictEqual(
        await store.transactions.insert(A, [makeTransaction('h1', { source: 'transaction' })]),
        [],
      );
      assert.deepStrictEqual(await store.transactions.existing(A, ['h1']), ['h1']);
    });

    suite.test(
      'existing returns the stored ids among those asked, and nothing for unknown ids or none',
      async (store) => {
        await store.transactions.insert(A, [
          makeTransaction('t1'),
          makeTransaction('h2', { source: 'history' }),
          makeTransaction('t3'),
        ]);
        assert.deepStrictEqual(
          sortedIds(await store.transactions.existing(A, ['x', 't3', 'h2', 'T3', 't'])),
          ['h2', 't3'],
        );
        assert.deepStrictEqual(await store.transactions.existing(A, ['unknown', 'T1']), []);
        assert.deepStrictEqual(await store.transactions.existing(A, []), []);
        assert.deepStrictEqual(await store.transactions.existing('partner-never-seen', ['t1']), []);
      },
    );

    suite.test(
      "inserts racing on the store report each id new exactly once and keep that caller's record",
      async (store) => {
        const reports = await Promise.all(
          Array.from({ length: CALLERS }, (_, k) => store.transactions.insert(A, racingBatch(k))),
        );
        await assertOneWinnerPerId(store, reports);
      },
    );

    suite.test(
      "units of work racing to insert report each id new exactly once and keep that caller's record",
      async (store) => {
        const reports = await Promise.all(
          racingUnits(store, CALLERS, (s, k) => s.transactions.insert(A, racingBatch(k))),
        );
        await assertOneWinnerPerId(store, reports);
      },
    );
  });
}

/** A unit that stored a purchase of a customer holds that customer until it ends. */
function customerHoldTest(suite: Suite): void {
  suite.test(
    'an insert in a unit waits while another open unit has inserted for the same customer, then reads what it stored',
    async (store) => {
      // What keeps the engine's lookbacks current: a unit that stores a customer's purchase holds
      // that customer until it ends, and a racing unit's read after its own insert sees it. The
      // engine inserts only for registered customers, so c1 is one.
      await store.customers.upsert(A, [makeCustomer('c1')]);
      const first = pausedUnit(store, async (s, pause) => {
        await s.transactions.insert(A, [makeTransaction('t1', { customer: 'c1' })]);
        await pause();
      });
      await Promise.race([first.paused, first.done]);
      const second = store.transaction(async (s) => {
        const inserted = await s.transactions.insert(A, [
          makeTransaction('t2', { customer: 'c1', merchant: 'book nook' }),
        ]);
        const read = await s.transactions.purchases(A, {
          pairs: [{ customerId: 'c1', merchantKey: 'coffee house' }],
          fromDay: '2025-01-01',
        });
        return { inserted, read: read.map((t) => t.transaction_id) };
      });
      const early = await settlesBeforeRelease(first, second, HOLD_WAIT_MS);
      assert.deepStrictEqual(await second, { inserted: ['t2'], read: ['t1'] });
      assert.equal(early, false, 'the second insert for c1 must wait until the first unit ends');
    },
  );
}

/** `options.hold` names the customers an insert holds, and an insert holds the offers. */
function holdOptionTests(suite: Suite): void {
  suite.test(
    'an insert in a unit holds the customers of options.hold, whoever its records are of',
    async (store) => {
      await store.customers.upsert(A, [makeCustomer('c1'), makeCustomer('c2')]);
      const first = pausedUnit(store, async (s, pause) => {
        await s.transactions.insert(A, [makeTransaction('t1', { customer: 'c2' })], {
          hold: ['c1'],
        });
        await pause();
      });
      await Promise.race([first.paused, first.done]);
      const second = store.transaction((s) =>
        s.transactions.insert(A, [
          makeTransaction('t2', { customer: 'c1', merchant: 'book nook' }),
        ]),
      );
      const early = await settlesBeforeRelease(first, second, HOLD_WAIT_MS);
      assert.deepStrictEqual(await second, ['t2']);
      assert.equal(early, false, 'an insert for c1 must wait while a unit holds c1');
    },
  );

  suite.test(
    'a reload in a unit waits while another open unit has inserted transactions',
    async (store) => {
      // The engine checks the offers' revision last in a unit; a batch that holds only the customers
      // it read relies on that revision staying until it commits.
      await store.customers.upsert(A, [makeCustomer('c1')]);
      const first = pausedUnit(store, async (s, pause) => {
        await s.transactions.insert(A, [makeTransaction('t1', { customer: 'c1' })], { hold: [] });
        await pause();
      });
      await Promise.race([first.paused, first.done]);
      const second = store.transaction(async (s) => (await s.offers.list()).length);
      const early = await settlesBeforeRelease(first, second, HOLD_WAIT_MS);
      assert.equal(await second, 0);
      assert.equal(early, false, 'offers.list in a unit must wait until the inserting unit ends');
    },
  );

  suite.test(
    'an offers upsert waits while another open unit has inserted transactions',
    async (store) => {
      await store.customers.upsert(A, [makeCustomer('c1')]);
      const revision = await store.offers.revision();
      const first = pausedUnit(store, async (s, pause) => {
        await s.transactions.insert(A, [makeTransaction('t1', { customer: 'c1' })], { hold: [] });
        await pause();
        // What the engine checks last in its unit: no upsert moved the revision meanwhile.
        return s.offers.revision();
      });
      await Promise.race([first.paused, first.done]);
      const second = store.offers.upsert([revisionOf(makeOffer(1))]);
      const early = await settlesBeforeRelease(first, second, HOLD_WAIT_MS);
      assert.equal(await first.done, revision);
      await second;
      assert.equal(early, false, 'offers.upsert must wait until the inserting unit ends');
    },
  );

  suite.test(
    'insert refuses options it does not know, and a hold that is not a list of ids, storing nothing',
    async (store) => {
      const record = makeTransaction('t1');
      const bad: [unknown, RegExp][] = [
        [{ holds: ['c1'] }, /holds/],
        [{ hold: 'c1' }, /options\.hold must be an array/],
        [{ hold: ['c1', ''] }, /options\.hold\[1\] must be a non-empty string/],
        ['c1', /must be an object/],
      ];
      for (const [options, message] of bad) {
        const call = store.transactions.insert(A, [record], options as { hold: string[] });
        await assert.rejects(
          call,
          (e: unknown) => e instanceof TypeError && message.test(e.message),
        );
      }
      assert.deepStrictEqual(await store.transactions.existing(A, ['t1']), []);
      assert.deepStrictEqual(await store.transactions.insert(A, [record], { hold: ['c1'] }), [
        't1',
      ]);
    },
  );
}

/** The purchases a lookback reads: the asked pairs, from a day on. */
function purchaseTests(suite: Suite): void {
  suite.describe('transactions.purchases', () => {
    const wanted = [
      // The asked pairs, on and after the first day, history and submitted alike.
      makeTransaction('on-first-day', {
        customer: 'c1',
        day: '2025-03-10',
        time: '00:00:00.000000000',
      }),
      makeTransaction('history-later', { customer: 'c1', day: '2025-03-11', source: 'history' }),
      makeTransaction('much-later', { customer: 'c1', day: '2026-01-01' }),
      makeTransaction('second-pair', { customer: 'c2', merchant: 'book nook', day: '2025-03-10' }),
    ];
    const unwanted = [
      // A day early, however late in it.
      makeTransaction('day-before', {
        customer: 'c1',
        day: '2025-03-09',
        time: '23:59:59.999999999',
      }),
      makeTransaction('history-before', { customer: 'c1', day: '2025-02-01', source: 'history' }),
      // A customer and a merchant that are asked, but in other pairs.
      makeTransaction('c1-books', { customer: 'c1', merchant: 'book nook', day: '2025-03-12' }),
      makeTransaction('c2-coffee', { customer: 'c2', merchant: 'coffee house', day: '2025-03-12' }),
      // Another customer, another merchant, a merchant key that differs only in case.
      makeTransaction('c3-coffee', { customer: 'c3', day: '2025-03-12' }),
      makeTransaction('c1-fuel', { customer: 'c1', merchant: 'fuel stop', day: '2025-03-12' }),
      makeTransaction('c1-Coffee', { customer: 'c1', merchant: 'Coffee House', day: '2025-03-12' }),
    ];
    const query = {
      pairs: [
        { customerId: 'c1', merchantKey: 'coffee house' },
        { customerId: 'c2', merchantKey: 'book nook' },
      ],
      fromDay: '2025-03-10',
    };

    suite.test(
      "purchases returns exactly the asked pairs' transactions from fromDay on, history and submitted alike",
      async (store) => {
        await store.transactions.insert(A, [...wanted.slice(0, 2), ...unwanted.slice(0, 4)]);
        await store.transactions.insert(A, [...wanted.slice(2), ...unwanted.slice(4)]);
        // The same pairs at another partner are not this partner's purchases.
        await store.transactions.insert(
          B,
          wanted.map((t) => ({ ...t, transaction_id: `b-${t.transaction_id}` })),
        );
        assert.deepStrictEqual(
          sortedBy(await store.transactions.purchases(A, query), (t) => t.transaction_id),
          sortedBy(wanted, (t) => t.transaction_id),
        );
      },
    );

    suite.test('purchases includes the first day and leaves out the day before', async (store) => {
      await store.transactions.insert(A, [
        makeTransaction('d9', { day: '2025-03-09', time: '23:59:59.999999999' }),
        makeTransaction('d10', { day: '2025-03-10', time: '00:00:00.000000000' }),
        makeTransaction('d11', { day: '2025-03-11' }),
      ]);
      const pairs = [{ customerId: 'c1', merchantKey: 'coffee house' }];
      const ids = async (fromDay: string) =>
        sortedIds(
          (await store.transactions.purchases(A, { pairs, fromDay })).map((t) => t.transaction_id),
        );
      assert.deepStrictEqual(await ids('2025-03-09'), ['d10', 'd11', 'd9']);
      assert.deepStrictEqual(await ids('2025-03-10'), ['d10', 'd11']);
      assert.deepStrictEqual(await ids('2025-03-11'), ['d11']);
      assert.deepStrictEqual(await ids('2025-03-12'), []);
    });

    suite.test(
      'purchases sees what arrives after an earlier query, and nothing of a unit that threw even when read inside it',
      async (store) => {
        const pairs = [
          { customerId: 'c1', merchantKey: 'coffee house' },
          { customerId: 'c1', merchantKey: 'book nook' },
          { customerId: 'c1', merchantKey: 'fuel stop' },
        ];
        const ask = async (from: Store | StoreSession, asked = pairs.slice(0, 2)) =>
          sortedIds(
            (await from.transactions.purchases(A, { pairs: asked, fromDay: '2025-01-01' })).map(
              (t) => t.transaction_id,
            ),
          );
        await store.transactions.insert(A, [makeTransaction('p1')]);
        assert.deepStrictEqual(await ask(store), ['p1']);
        await store.transactions.insert(A, [
          makeTransaction('p2', { day: '2025-03-11' }),
          makeTransaction('p3', { merchant: 'book nook' }),
        ]);
        assert.deepStrictEqual(await ask(store), ['p1', 'p2', 'p3']);
        const unit = [makeTransaction('u1'), makeTransaction('u2', { merchant: 'fuel stop' })];
        const failure = new Error('the unit fails after reading');
        await assert.rejects(
          store.transaction(async (s) => {
            await s.transactions.insert(A, unit);
            // A merchant key asked for the first time, inside the unit.
            assert.deepStrictEqual(await ask(s, pairs), ['p1', 'p2', 'p3', 'u1', 'u2']);
            throw failure;
          }),
          (e) => e === failure,
        );
        assert.deepStrictEqual(await ask(store, pairs), ['p1', 'p2', 'p3']);
        assert.deepStrictEqual(sortedIds(await store.transactions.insert(A, unit)), ['u1', 'u2']);
        assert.deepStrictEqual(await ask(store, pairs), ['p1', 'p2', 'p3', 'u1', 'u2']);
      },
    );

    suite.test(
      'purchases returns nothing for no pairs or pairs without purchases',
      async (store) => {
        await store.transactions.insert(A, wanted);
        assert.deepStrictEqual(
          await store.transactions.purchases(A, { pairs: [], fromDay: '2000-01-01' }),
          [],
        );
        assert.deepStrictEqual(
          await store.transactions.purchases(A, {
            pairs: [{ customerId: 'unknown', merchantKey: 'coffee house' }],
            fromDay: '2000-01-01',
          }),
          [],
        );
        assert.deepStrictEqual(await store.transactions.purchases('partner-never-seen', query), []);
      },
    );
  });
}

/** Purchases of whole customers (offers scoped to many merchants), and a stored channel. */
function scopedPurchaseTests(suite: Suite): void {
  suite.describe('transactions of whole customers', () => {
    suite.test(
      "purchases returns a customer's transactions at every merchant from fromDay on, each once, beside the pairs of others",
      async (store) => {
        await store.transactions.insert(A, [
          makeTransaction('c1-coffee', { day: '2025-03-10' }),
          makeTransaction('c1-books', { merchant: 'book nook', day: '2025-03-11' }),
          makeTransaction('c1-fuel', { merchant: 'fuel stop', source: 'history' }),
          makeTransaction('c1-early', { merchant: 'book nook', day: '2025-03-09' }),
          makeTransaction('c2-coffee', { customer: 'c2' }),
          makeTransaction('c2-books', { customer: 'c2', merchant: 'book nook' }),
          makeTransaction('c3-coffee', { customer: 'c3' }),
        ]);
        await store.transactions.insert(B, [makeTransaction('b-c1', { merchant: 'book nook' })]);
        const ids = async (query: Parameters<Store['transactions']['purchases']>[1]) =>
          sortedIds((await store.transactions.purchases(A, query)).map((t) => t.transaction_id));
        assert.deepStrictEqual(
          await ids({
            pairs: [{ customerId: 'c2', merchantKey: 'coffee house' }],
            customers: ['c1'],
            fromDay: '2025-03-10',
          }),
          ['c1-books', 'c1-coffee', 'c1-fuel', 'c2-coffee'],
        );
        assert.deepStrictEqual(await ids({ pairs: [], customers: [], fromDay: '2025-01-01' }), []);
        assert.deepStrictEqual(
          await ids({ pairs: [], customers: ['c2', 'unknown'], fromDay: '2025-01-01' }),
          ['c2-books', 'c2-coffee'],
        );
      },
    );

    suite.test(
      'purchases of a whole customer see nothing of a unit that threw, even when read inside it',
      async (store) => {
        const ask = async (from: Store | StoreSession) =>
          sortedIds(
            (
              await from.transactions.purchases(A, {
                pairs: [],
                customers: ['c1'],
                fromDay: '2025-01-01',
              })
            ).map((t) => t.transaction_id),
          );
        await store.transactions.insert(A, [makeTransaction('w1', { merchant: 'book nook' })]);
        const failure = new Error('the unit fails after reading');
        await assert.rejects(
          store.transaction(async (s) => {
            await s.transactions.insert(A, [makeTransaction('w2', { merchant: 'fuel stop' })]);
            // Whole customers asked for the first time, inside the unit.
            assert.deepStrictEqual(await ask(s), ['w1', 'w2']);
            throw failure;
          }),
          (e) => e === failure,
        );
        assert.deepStrictEqual(await ask(store), ['w1']);
        await store.transactions.insert(A, [makeTransaction('w3')]);
        assert.deepStrictEqual(await ask(store), ['w1', 'w3']);
      },
    );

    suite.test(
      'a stored transaction keeps its channel, and one sent without has none',
      async (store) => {
        const online = makeTransaction('t-online', { channel: 'online' });
        const store2 = makeTransaction('t-store', { channel: 'in_store', merchant: 'book nook' });
        const none = makeTransaction('t-none');
        await store.transactions.insert(A, [online, store2, none]);
        assert.deepStrictEqual(
          sortedBy(
            await store.transactions.get(A, ['t-online', 't-store', 't-none']),
            (t) => t.transaction_id,
          ),
          sortedBy([online, store2, none], (t) => t.transaction_id),
        );
        const read = await store.transactions.purchases(A, {
          pairs: [],
          customers: ['c1'],
          fromDay: '2025-01-01',
        });
        assert.deepStrictEqual(
          sortedBy(read, (t) => t.transaction_id).map((t) => t.channel ?? null),
          [null, 'online', 'in_store'],
        );
      },
    );
  });
}

/** Registers the tests of `transactions`. */
export function transactionTests(suite: Suite): void {
  insertTests(suite);
  customerHoldTest(suite);
  holdOptionTests(suite);
  purchaseTests(suite);
  scopedPurchaseTests(suite);
}
