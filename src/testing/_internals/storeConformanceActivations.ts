import assert from 'node:assert/strict';
import type { ActivationRecord } from '../../store/index.js';
import { PARTNER_A, plainCopy, racingUnits, type Suite, sortedBy } from './storeConformanceKit.js';

const A = PARTNER_A;
const B = 'bank-b-activations';

/** Concurrent callers in the race tests, and how many pairs each one adds. */
const CALLERS = 20;
const PAIRS_PER_CALLER = 10;

/** An activation of offer `offerId` by `customerId`; `date` a stored date-time. */
function makeActivation(
  customerId: string,
  offerId: number,
  date = '2025-06-01T09:30:00.000000000',
): ActivationRecord {
  return { customer_id: customerId, offer_id: offerId, date };
}

/** Caller `k` activates offers `k … k + 9` for one customer (29 pairs in all). */
function racingBatch(k: number): ActivationRecord[] {
  return Array.from({ length: PAIRS_PER_CALLER }, (_, i) =>
    makeActivation(
      'racer',
      k + i + 1,
      `2025-06-01T09:30:${String(k % 60).padStart(2, '0')}.000000000`,
    ),
  );
}

function assertAddedOnce(counts: readonly { readonly added: number; readonly updated: number }[]) {
  const added = counts.reduce((sum, c) => sum + c.added, 0);
  const updated = counts.reduce((sum, c) => sum + c.updated, 0);
  assert.strictEqual(added, CALLERS + PAIRS_PER_CALLER - 1, 'each pair counts as added once');
  assert.strictEqual(added + updated, CALLERS * PAIRS_PER_CALLER, 'each item counts once');
}

const byPair = (a: ActivationRecord) => `${a.customer_id}/${String(a.offer_id).padStart(16, '0')}`;

/** Registers the tests of `activations`. */
export function activationTests(suite: Suite): void {
  suite.describe('activations', () => {
    suite.test('add counts new pairs as added and stored pairs as updated', async (store) => {
      assert.deepStrictEqual(
        plainCopy(
          await store.activations.add(A, [makeActivation('c1', 1), makeActivation('c1', 2)]),
        ),
        { added: 2, updated: 0 },
      );
      assert.deepStrictEqual(
        plainCopy(
          await store.activations.add(A, [makeActivation('c1', 2), makeActivation('c2', 1)]),
        ),
        { added: 1, updated: 1 },
      );
    });

    suite.test(
      'add keeps a stored pair as it was: activating again changes nothing',
      async (store) => {
        await store.activations.add(A, [makeActivation('c1', 1, '2025-06-01T09:30:00.000000000')]);
        await store.activations.add(A, [makeActivation('c1', 1, '2025-01-01T00:00:00.000000000')]);
        assert.deepStrictEqual(
          plainCopy(await store.activations.get(A, { customerIds: ['c1'], offerIds: [1] })),
          [makeActivation('c1', 1, '2025-06-01T09:30:00.000000000')],
        );
      },
    );

    suite.test('get returns the stored pairs of those customers and offers only', async (store) => {
      await store.activations.add(A, [
        makeActivation('c1', 1),
        makeActivation('c1', 2),
        makeActivation('c2', 1),
        makeActivation('c3', 3),
        makeActivation('C1', 1),
      ]);
      assert.deepStrictEqual(
        sortedBy(
          await store.activations.get(A, {
            customerIds: ['c1', 'c2', 'unknown'],
            offerIds: [1, 3],
          }),
          byPair,
        ),
        [makeActivation('c1', 1), makeActivation('c2', 1)],
      );
      assert.deepStrictEqual(
        await store.activations.get(A, { customerIds: [], offerIds: [1] }),
        [],
      );
      assert.deepStrictEqual(
        await store.activations.get(A, { customerIds: ['c1'], offerIds: [] }),
        [],
      );
      assert.deepStrictEqual(plainCopy(await store.activations.add(A, [])), {
        added: 0,
        updated: 0,
      });
    });

    suite.test('a partner never sees another partner’s activations', async (store) => {
      await store.activations.add(A, [makeActivation('c1', 1)]);
      assert.deepStrictEqual(
        await store.activations.get(B, { customerIds: ['c1'], offerIds: [1] }),
        [],
      );
      assert.deepStrictEqual(
        plainCopy(
          await store.activations.add(B, [
            makeActivation('c1', 1, '2025-07-01T00:00:00.000000000'),
          ]),
        ),
        { added: 1, updated: 0 },
      );
      assert.deepStrictEqual(
        plainCopy(await store.activations.get(A, { customerIds: ['c1'], offerIds: [1] })),
        [makeActivation('c1', 1)],
      );
    });

    suite.test('a unit of work that throws keeps none of its activations', async (store) => {
      await assert.rejects(
        store.transaction(async (s) => {
          await s.activations.add(A, [makeActivation('c1', 1)]);
          assert.strictEqual(
            (await s.activations.get(A, { customerIds: ['c1'], offerIds: [1] })).length,
            1,
            'a unit reads its own writes',
          );
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.deepStrictEqual(
        await store.activations.get(A, { customerIds: ['c1'], offerIds: [1] }),
        [],
      );
    });

    suite.test(
      'adds racing in units of work count each pair as added exactly once',
      async (store) => {
        const counts = await Promise.all(
          racingUnits(store, CALLERS, (s, k) => s.activations.add(A, racingBatch(k))),
        );
        assertAddedOnce(counts);
        const offerIds = Array.from({ length: CALLERS + PAIRS_PER_CALLER - 1 }, (_, i) => i + 1);
        const stored = await store.activations.get(A, { customerIds: ['racer'], offerIds });
        assert.strictEqual(stored.length, CALLERS + PAIRS_PER_CALLER - 1);
      },
    );
  });
}
