/**
 * Budgets and caps at both ends of the calendar (docs/concepts.md, Funding controls): every
 * period of a budget and of a cap, with transactions on the first days a date-time can have
 * (0000-01-01…) and the last (…9999-12-31), paid through the engine in one-transaction requests,
 * exactly as `replay` pays the same data. Shared by every store: the memory store
 * (test/engine/funding.test.ts), PGlite and a PostgreSQL server (test/postgres/funding.test.ts).
 */
import { expect, test } from 'vitest';
import { createEngine } from '../../src/engine/entry.js';
import { replay } from '../../src/index.js';
import type { Store } from '../../src/store/entry.js';
import { customer, offer, tx } from '../fixtures.js';

const PERIODS = ['offer', 'month', 'week', 'day'] as const;

/** Six days at the start of the calendar and six at its end, two a day. */
const EDGES = {
  start: ['0000-01-01', '0000-01-01', '0000-01-02', '0000-01-02', '0000-01-03', '0000-01-03'],
  end: ['9999-12-28', '9999-12-28', '9999-12-30', '9999-12-30', '9999-12-31', '9999-12-31'],
} as const;

/** An offer valid over the whole calendar, paying 10 on each 100 purchase. */
function edgeOffer(limit: 'budget' | 'customer_cap', period: (typeof PERIODS)[number]) {
  return offer({
    discount: 10,
    warranty: 0,
    valid_from: '0000-01-01',
    valid_to: '9999-12-31',
    [limit]: limit === 'budget' ? { amount: 25, period } : { amount: 25, count: 3, period },
  });
}

/**
 * Registers the calendar-edge tests on one store.
 * @param freshStore - a fresh, empty store for each test (`undefined`: the memory store)
 */
export function describeCalendarEdges(freshStore: () => Promise<Store | undefined>): void {
  for (const limit of ['budget', 'customer_cap'] as const) {
    for (const [edge, days] of Object.entries(EDGES)) {
      test(`a ${limit} of every period pays at the ${edge} of the calendar as replay does`, async () => {
        const data = {
          offers: PERIODS.map((period, i) => ({
            ...edgeOffer(limit, period),
            offer_id: i + 1,
            merchant_name: `Shop ${period}`,
          })),
          customers: [customer({ birthday: '0000-01-01' })],
          transactions: PERIODS.flatMap((period) =>
            days.map((day, i) =>
              tx({
                transaction_id: `${period}-${i}`,
                date: `${day}T1${i}:00:00`,
                amount: 100,
                merchant: { id: 'm', name: `Shop ${period}`, category_code: '5812' },
              }),
            ),
          ),
        };
        const expected = replay(data);
        const store = await freshStore();
        try {
          const engine = createEngine(store === undefined ? {} : { store });
          await engine.upsertOffers(data.offers);
          await engine.upsertCustomers('bank-a', data.customers);
          const payments = [];
          const errors = [];
          for (const item of data.transactions) {
            const r = await engine.addTransactions('bank-a', [item]);
            payments.push(...r.details.payments);
            errors.push(...r.details.errors.map((e) => e.code));
          }
          expect(payments).toEqual(expected.payments);
          expect(errors).toEqual(expected.errors.map((e) => e.code));
          // What a budget or a cap allows is paid, and no more: 25 per period.
          const paid = expected.payments.reduce((sum, p) => sum + p.cashback, 0);
          expect(paid).toBeGreaterThan(0);
        } finally {
          await store?.close?.();
        }
      });
    }
  }
}
