import assert from 'node:assert/strict';
import type { CustomerRecord } from '../../store/index.js';
import {
  makeCustomer,
  PARTNER_A,
  plainCopy,
  racingUnits,
  type Suite,
  sortedBy,
} from './storeConformanceKit.js';

const A = PARTNER_A;

/** Concurrent callers in the race tests, and how many customers each one upserts. */
const CALLERS = 20;
const IDS_PER_CALLER = 10;

/** Caller `k` upserts ids `k … k + 9` (of 29 in all). */
function racingBatch(k: number): CustomerRecord[] {
  return Array.from({ length: IDS_PER_CALLER }, (_, i) =>
    makeCustomer(`race-${k + i}`, { gender: `caller ${k}` }),
  );
}

/** Each id counts as added once over all callers, and every item counts once. */
function assertAddedOnce(counts: readonly { readonly added: number; readonly updated: number }[]) {
  const added = counts.reduce((sum, c) => sum + c.added, 0);
  const updated = counts.reduce((sum, c) => sum + c.updated, 0);
  assert.strictEqual(added, CALLERS + IDS_PER_CALLER - 1, 'each distinct id counts as added once');
  assert.strictEqual(added + updated, CALLERS * IDS_PER_CALLER, 'each item counts once');
}

/** Registers the tests of `customers`. */
export function customerTests(suite: Suite): void {
  suite.describe('customers', () => {
    suite.test('upsert counts new ids as added and stored ids as updated', async (store) => {
      assert.deepStrictEqual(
        plainCopy(await store.customers.upsert(A, [makeCustomer('c1'), makeCustomer('c2')])),
        { added: 2, updated: 0 },
      );
      assert.deepStrictEqual(
        plainCopy(await store.customers.upsert(A, [makeCustomer('c2'), makeCustomer('c3')])),
        { added: 1, updated: 1 },
      );
      assert.deepStrictEqual(
        plainCopy(await store.customers.upsert(A, [makeCustomer('c1'), makeCustomer('c2')])),
        { added: 0, updated: 2 },
      );
    });

    suite.test('upsert replaces a stored customer and keeps the others', async (store) => {
      await store.customers.upsert(A, [makeCustomer('c1'), makeCustomer('c2')]);
      const changed = makeCustomer('c1', {
        birthday: '2000-02-29',
        gender: 'other',
        location: { country: 'DE', city: 'Berlin' },
      });
      await store.customers.upsert(A, [changed]);
      assert.deepStrictEqual(
        sortedBy(await store.customers.get(A, ['c1', 'c2']), (c) => c.customer_id),
        plainCopy([changed, makeCustomer('c2')]),
      );
    });

    suite.test(
      'get returns the stored customers among the ids and leaves unknown ids out',
      async (store) => {
        await store.customers.upsert(A, [
          makeCustomer('c1'),
          makeCustomer('c2'),
          makeCustomer('c3'),
        ]);
        assert.deepStrictEqual(
          sortedBy(
            await store.customers.get(A, ['c3', 'unknown', 'c1', 'C1']),
            (c) => c.customer_id,
          ),
          plainCopy([makeCustomer('c1'), makeCustomer('c3')]),
        );
        assert.deepStrictEqual(await store.customers.get(A, ['unknown', 'c']), []);
      },
    );

    suite.test('get and upsert of no customers return nothing', async (store) => {
      assert.deepStrictEqual(await store.customers.get(A, []), []);
      assert.deepStrictEqual(plainCopy(await store.customers.upsert(A, [])), {
        added: 0,
        updated: 0,
      });
      await store.customers.upsert(A, [makeCustomer('c1')]);
      assert.deepStrictEqual(await store.customers.get(A, []), []);
      assert.deepStrictEqual(await store.customers.get('partner-never-seen', ['c1']), []);
    });

    suite.test('upserts racing on the store count each id as added exactly once', async (store) => {
      const counts = await Promise.all(
        Array.from({ length: CALLERS }, (_, k) => store.customers.upsert(A, racingBatch(k))),
      );
      assertAddedOnce(counts);
    });

    suite.test(
      'units of work racing to upsert count each id as added exactly once',
      async (store) => {
        const counts = await Promise.all(
          racingUnits(store, CALLERS, (s, k) => s.customers.upsert(A, racingBatch(k))),
        );
        assertAddedOnce(counts);
        const stored = await store.customers.get(
          A,
          Array.from({ length: CALLERS + IDS_PER_CALLER - 1 }, (_, i) => `race-${i}`),
        );
        assert.strictEqual(stored.length, CALLERS + IDS_PER_CALLER - 1);
      },
    );
  });
}
