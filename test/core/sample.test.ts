import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { replay } from '../../src/core/replay/replay.js';

// The bundled sample data set (docs/examples/), replayed with fixed expectations. CI runs this
// file again under TZ=Pacific/Kiritimati and TZ=America/Los_Angeles: the engine's zone is an
// option, so the host's must change nothing, and a fixed expectation (unlike a comparison with a
// reference that runs under the same host zone) would catch a shift of a day or an hour. (Dates
// with `Z` and offsets near midnight have fixed expectations of their own in
// test/model/dateTime.test.ts.)
const load = (name: string): unknown[] =>
  JSON.parse(readFileSync(new URL(`../../docs/examples/${name}.json`, import.meta.url), 'utf8'));

describe('the bundled sample data set', () => {
  const r = replay(
    {
      offers: load('offers'),
      customers: load('customers'),
      history: load('history'),
      transactions: load('transactions'),
    },
    { timeZone: 'Europe/Paris', ids: () => 'sample' },
  );

  test('pays exactly these transactions, amounts and days', () => {
    expect(r.payments).toEqual([
      pay('t-0001', 'c-001', 2, 0.34, '2025-06-16'),
      pay('t-0002', 'c-001', 1, 0.21, '2025-06-16'),
      pay('t-0003', 'c-002', 2, 0.5, '2025-06-17'),
      pay('t-0004', 'c-003', 3, 2.4, '2025-07-04'),
      pay('t-0007', 'c-002', 4, 1.56, '2025-06-07'),
      pay('t-0010', 'c-002', 5, 25, '2025-08-09'),
      pay('t-0012', 'c-001', 5, 7.5, '2025-08-13'),
      pay('t-0016', 'c-001', 7, 0.01, '2025-06-16'),
      pay('t-0021', 'c-003', 1, 1, '2025-07-05'),
    ]);
  });

  test('gives every other transaction one coded error, in input order', () => {
    expect(r.errors.map((e) => [e.key, e.code])).toEqual([
      ['t-0005', 'no_offer'],
      ['t-0006', 'no_offer'],
      ['t-0008', 'customer_not_found'],
      ['t-0009', 'no_offer'],
      ['t-0011', 'no_offer'],
      ['t-0013', 'no_offer'],
      ['t-0014', 'no_offer'],
      ['t-0015', 'zero_cashback'],
      ['t-0017', 'customer_not_found'],
      ['t-0001', 'duplicate_transaction'],
      ['t-0018', 'invalid_transaction'],
      ['t-0019', 'invalid_transaction'],
      ['t-0020', 'no_offer'],
      ['t-0022', 'no_offer'],
      ['#23', 'invalid_transaction'],
      ['h-0001', 'duplicate_transaction'],
    ]);
    expect(r.rejected.customers.map((e) => [e.key, e.code])).toEqual([
      ['c-006', 'invalid_customer'],
      ['c-007', 'duplicate_customer'],
    ]);
    expect(r.rejected.history.map((e) => [e.key, e.code])).toEqual([
      ['h-0004', 'customer_not_found'],
      ['h-0005', 'invalid_transaction'],
    ]);
  });

  test('sums up to the same totals', () => {
    expect(r.summary).toEqual({
      transactions: 25,
      paid: 9,
      errors: {
        invalid_transaction: 3,
        customer_not_found: 2,
        duplicate_transaction: 2,
        no_offer: 8,
        zero_cashback: 1,
      },
      byOffer: {
        1: { payments: 2, cashback: '1.21' },
        2: { payments: 2, cashback: '0.84' },
        3: { payments: 1, cashback: '2.40' },
        4: { payments: 1, cashback: '1.56' },
        5: { payments: 2, cashback: '32.50' },
        7: { payments: 1, cashback: '0.01' },
      },
      totalCashback: '38.52',
      rejected: { customers: 2, history: 2 },
      currency: 'EUR',
      // As of the latest date-time of the sample, every payment day has begun.
      liability: {
        asOf: '2036-01-02T09:15:00.000',
        pending: { count: 0, cashback: '0.00' },
        confirmed: { count: 9, cashback: '38.52' },
        cancelled: { count: 0, cashback: '0.00' },
        clawedBack: { count: 0, cashback: '0.00' },
      },
    });
  });
});

function pay(
  transaction_id: string,
  customer_id: string,
  offer_id: number,
  cashback: number,
  payment_date: string,
) {
  return { transaction_id, customer_id, offer_id, cashback, payment_date };
}
