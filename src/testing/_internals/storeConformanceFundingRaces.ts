import assert from 'node:assert/strict';
import { Money } from '../../model/money.js';
import type { FundingRange, Store } from '../../store/index.js';
import { assertTotals, change, range } from './storeConformanceFunding.js';
import { jitter, PARTNER_A, PARTNER_B, type Suite } from './storeConformanceKit.js';

const A = PARTNER_A;
const B = PARTNER_B;

/** Units racing in each test. */
const UNITS = 12;

/** What each racing unit pays. */
const STEP = '0.07';

/** The budget's limit: 7 payments of 0.07 fit (0.49), the 8th would pass it by 6 cents. */
const LIMIT = '0.55';

const DAY = '2025-03-10';
const MONTH = range(1, null, '2025-03-01', '2025-03-31');

/**
 * One unit: holds `ranges` (the first is the budget), and adds `STEP` to the budget and to the
 * cap of `customer` on `day` only when the budget's limit leaves room for it.
 * @returns whether it added (read from the unit that committed: a store may run a unit again)
 */
function payIfRoom(
  store: Store,
  partner: string,
  customer: string,
  ranges: readonly FundingRange[],
  k: number,
): Promise<boolean> {
  return store.transaction(async (s) => {
    const [budget] = await s.funding.hold(partner, ranges);
    await jitter(k);
    const room = new Money(LIMIT).minus((budget as { amount: string }).amount);
    if (room.lt(STEP)) return false;
    await s.funding.add(partner, [change(1, null, DAY, STEP), change(1, customer, DAY, STEP)]);
    return true;
  });
}

/** Asserts the budget spent exactly what the units that added say, and never past the limit. */
async function assertBudget(store: Store, added: readonly boolean[]): Promise<void> {
  const payers = added.filter(Boolean).length;
  assert.strictEqual(payers, 7, 'as many units paid as fit under the limit');
  const [total] = await store.funding.hold(A, [MONTH]);
  assertTotals(
    [total as { amount: string; count: number }],
    [[new Money(STEP).times(payers).toFixed(), payers]],
  );
  assert.ok(new Money((total as { amount: string }).amount).lte(LIMIT), 'within the limit');
}

/** Registers the race tests of `funding`: units holding one counter never pay past its limit. */
export function fundingRaceTests(suite: Suite): void {
  suite.describe('funding races', () => {
    suite.test('units racing on the last cents of a budget never pass its limit', async (store) => {
      const added = await Promise.all(
        Array.from({ length: UNITS }, (_, k) =>
          payIfRoom(store, A, `c${k}`, [MONTH, range(1, `c${k}`, DAY)], k),
        ),
      );
      await assertBudget(store, added);
      const caps = await store.funding.hold(
        A,
        Array.from({ length: UNITS }, (_, k) => range(1, `c${k}`, DAY)),
      );
      assertTotals(
        caps,
        added.map((paid) => (paid ? [STEP, 1] : ['0', 0])),
      );
    });

    suite.test('units of two partners racing on one budget never pass its limit', async (store) => {
      const partnerOf = (k: number) => (k % 2 === 0 ? A : B);
      const added = await Promise.all(
        Array.from({ length: UNITS }, (_, k) =>
          // The cap's customer is the same id for both partners: two caps, one budget.
          payIfRoom(store, partnerOf(k), 'c1', [MONTH, range(1, 'c1', DAY)], k),
        ),
      );
      await assertBudget(store, added);
      const paidBy = (p: string) => added.filter((paid, k) => paid && partnerOf(k) === p).length;
      for (const p of [A, B]) {
        assertTotals(await store.funding.hold(p, [range(1, 'c1', DAY)]), [
          [new Money(STEP).times(paidBy(p)).toFixed(), paidBy(p)],
        ]);
      }
    });

    suite.test('units racing on a customer’s count never pass it', async (store) => {
      const most = 3;
      const cap = range(5, 'c1', '2025-03-09', '2025-03-15');
      const added = await Promise.all(
        Array.from({ length: UNITS }, (_, k) =>
          store.transaction(async (s) => {
            const [total] = await s.funding.hold(A, [cap]);
            await jitter(k);
            if ((total as { count: number }).count >= most) return false;
            // Days differ between units: the count of the range is what is capped.
            await s.funding.add(A, [change(5, 'c1', k % 2 === 0 ? '2025-03-09' : DAY, '0.01')]);
            return true;
          }),
        ),
      );
      assert.strictEqual(added.filter(Boolean).length, most, 'as many units paid as the count');
      assertTotals(await store.funding.hold(A, [cap]), [['0.03', most]]);
    });
  });
}
