/**
 * The memory store's funding totals: kept per scope over the last range asked and moved by the
 * adds within it, summed in scaled integers. Whatever the order of adds (any scale, either sign),
 * holds of changing ranges and units that fail, a hold gives the decimal.js sum of the days in its
 * range of what the units that ended kept.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExactMoney } from '../../src/model/money.js';
import type { FundingChange, FundingRange } from '../../src/store/index.js';
import { createMemoryStore } from '../../src/store/index.js';

const DAYS = ['2025-01-30', '2025-01-31', '2025-02-01', '2025-02-15', '2025-02-28', '2025-03-01'];

/** A signed plain decimal text of 0–4 places, zeros and long values among them. */
const amountText = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.integer({ min: 0, max: 99_999 }), fc.constant(0)),
    fc.integer({ min: 0, max: 4 }),
    fc.boolean(),
  )
  .map(([negative, n, places, long]) => {
    const digits = String(n).padStart(places + 1, '0') + (long ? '123456789012345678' : '');
    const whole = digits.slice(0, digits.length - places);
    const text = places === 0 ? whole : `${whole}.${digits.slice(digits.length - places)}`;
    return negative ? `-${text}` : text;
  });

const scope = fc.record({
  offer_id: fc.constantFrom(1, 2),
  customer_id: fc.constantFrom(null, 'c1'),
});

const step = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    changes: fc.array(
      fc.record({
        scope,
        day: fc.constantFrom(...DAYS),
        amount: amountText,
        count: fc.integer({ min: -1, max: 1 }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    fails: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('hold' as const),
    scope,
    // Mostly the same few ranges, as holds of one period in turn; sometimes any.
    range: fc.oneof(
      fc.constantFrom<[string, string]>(['2025-02-01', '2025-02-28'], ['2025-01-01', '2025-12-31']),
      fc.tuple(fc.constantFrom(...DAYS), fc.constantFrom(...DAYS)),
    ),
  }),
);

describe('memory store funding totals', () => {
  it('equal the decimal.js sum of the days in range after any adds, holds and failed units', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
        const store = createMemoryStore();
        const kept: FundingChange[] = [];
        for (const s of steps) {
          if (s.kind === 'add') {
            const changes: FundingChange[] = s.changes.map((c) => ({
              ...c.scope,
              day: c.day,
              amount: c.amount,
              count: c.count,
            }));
            const unit = store.transaction(async (session) => {
              await session.funding.add('bank', changes);
              if (s.fails) throw new Error('the unit fails');
            });
            if (s.fails) await expect(unit).rejects.toThrow('the unit fails');
            else {
              await unit;
              kept.push(...changes);
            }
            continue;
          }
          const [a, b] = s.range;
          const [from, to] = a <= b ? [a, b] : [b, a];
          const range: FundingRange = { ...s.scope, from, to };
          const [total] = await store.funding.hold('bank', [range]);
          let amount = new ExactMoney(0);
          let count = 0;
          for (const c of kept) {
            if (c.offer_id !== range.offer_id || c.customer_id !== range.customer_id) continue;
            if (c.day < from || c.day > to) continue;
            amount = amount.plus(c.amount);
            count += c.count;
          }
          expect(total).toEqual({ amount: amount.isZero() ? '0' : amount.toFixed(), count });
        }
      }),
      { numRuns: 300 },
    );
  });
});
