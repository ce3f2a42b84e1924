/**
 * Property 5: every cashback paid is above 0, at most the offer's `max_cashback`, and at most
 * `amount × discount / 100` plus what rounding to `scale` places may add (half a unit of the last
 * place for the half-* modes, a unit for up/ceil, none for down/floor); and its payment date is the
 * day plus the warranty. Checked with the exported invariants.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { replay } from '../../src/index.js';
import { invariants, type Scenario, scenarioArbitrary } from '../../src/testing/index.js';
import { type DrawnOptions, optionsArbitrary } from './_options.js';

/** Smallest counterexample found: a cap with more decimals than `scale` is rounded up past itself. */
const capBelowLastPlace: [Scenario, DrawnOptions] = [
  {
    offers: [
      {
        offer_id: 1,
        name: '',
        merchant_name: 'M',
        warranty: 0,
        discount: 100,
        valid_from: '2025-01-01',
        valid_to: '2025-12-31',
        max_cashback: 0.005,
      },
    ],
    customers: [
      {
        customer_id: 'c',
        birthday: '1990-01-01',
        gender: 'f',
        location: { country: 'FR', city: 'Paris' },
      },
    ],
    history: [],
    transactions: [
      {
        transaction_id: 't',
        customer_id: 'c',
        description: '',
        date: '2025-03-01T10:00:00',
        amount: 1,
        merchant: { id: '', name: 'M', category_code: '' },
        location: { country: 'FR', city: 'Paris' },
      },
    ],
  },
  { timeZone: 'UTC', scale: 2, rounding: 'half-up' },
];

describe('every payment', () => {
  it('pays 0 < cashback <= max_cashback and <= amount × discount / 100 + rounding slack at its scale', () => {
    fc.assert(
      fc.property(
        scenarioArbitrary({ invalidRate: 0.05, unknownCustomerRate: 0.05, duplicateRate: 0.05 }),
        optionsArbitrary,
        (scenario, options) => {
          invariants.cashbackWithinBounds(scenario, replay(scenario, options), options);
        },
      ),
      { numRuns: 200, examples: [capBelowLastPlace] },
    );
  });

  it('is dated the transaction day plus the offer warranty, in the engine time zone', () => {
    fc.assert(
      fc.property(scenarioArbitrary(), optionsArbitrary, (scenario, options) => {
        invariants.paymentDateIsDayPlusWarranty(scenario, replay(scenario, options), options);
      }),
      { numRuns: 100 },
    );
  });
});
