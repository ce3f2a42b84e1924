/**
 * Property 2: the indexed matcher decides exactly what a naive reference of docs/concepts.md decides
 * (test/properties/_reference.ts): same payments (transaction, customer, offer, cashback,
 * payment_date) and same error codes and keys, for every item.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/index.js';
import { type Scenario, scenarioArbitrary } from '../../src/testing/index.js';
import { fundedScenarios } from './_funded.js';
import { type DrawnOptions, optionsArbitrary } from './_options.js';
import { referenceReplay } from './_reference.js';

function sameDecisions(scenario: Scenario, options: DrawnOptions): void {
  const actual = replay(scenario, options);
  const expected = referenceReplay(scenario, options);
  expect(actual.payments).toEqual(expected.payments);
  expect(actual.errors.map((e) => ({ key: e.key, code: e.code }))).toEqual(expected.errors);
}

const customer = {
  customer_id: 'c',
  birthday: '1990-01-01',
  gender: 'f',
  location: { country: 'FR', city: 'Paris' },
};
const purchase = (id: string, fraction: string) => ({
  transaction_id: id,
  customer_id: 'c',
  description: '',
  date: `2025-03-01T10:00:00${fraction}`,
  amount: 10,
  merchant: { id: '', name: 'M', category_code: '' },
  location: { country: 'FR', city: 'Paris' },
});
const offer = (audience: 'new' | 'returning') => ({
  offer_id: 1,
  name: '',
  merchant_name: 'M',
  warranty: 0,
  discount: 10,
  valid_from: '2025-01-01',
  valid_to: '2025-12-31',
  audience,
});

/** Purchases within one second whose fractions differ only past the microsecond, or not at all. */
const sameSecond = fc
  .record({
    audience: fc.constantFrom('new', 'returning') as fc.Arbitrary<'new' | 'returning'>,
    history: fc.array(fc.constantFrom('', '.0000001', '.0000002', '.000000999', '.000001'), {
      maxLength: 2,
    }),
    transactions: fc.array(fc.constantFrom('', '.0000001', '.0000002', '.000000999', '.000001'), {
      minLength: 1,
      maxLength: 3,
    }),
  })
  .map(
    ({ audience, history, transactions }): Scenario => ({
      offers: [offer(audience)],
      customers: [customer],
      history: history.map((f, i) => purchase(`h${i}`, f)),
      transactions: transactions.map((f, i) => purchase(`t${i}`, f)),
    }),
  );

describe('the indexed matcher', () => {
  it('pays and rejects exactly as a naive reference matcher over every offer', () => {
    fc.assert(fc.property(scenarioArbitrary({ maxOffers: 8 }), optionsArbitrary, sameDecisions), {
      numRuns: 300,
    });
  });

  it('agrees with the reference on customers not born yet on the day of their transactions', () => {
    const scenarios = scenarioArbitrary({
      maxOffers: 8,
      birthdays: { from: '2024-06-01', to: '2025-12-31' },
    });
    fc.assert(fc.property(scenarios, optionsArbitrary, sameDecisions), { numRuns: 200 });
  });

  it('agrees with the reference on budgets and customer caps of every period, over weeks and over a year', () => {
    const scenarios = fc.oneof(
      scenarioArbitrary({ maxOffers: 6, funding: true }),
      fundedScenarios(0),
    );
    fc.assert(fc.property(scenarios, optionsArbitrary, sameDecisions), { numRuns: 300 });
  });

  it('orders purchases by their full date-time, nanoseconds included, as "strictly before" asks', () => {
    // Smallest counterexample found: a purchase at .0000001 s is strictly before one at .0000002 s.
    const known: Scenario = {
      offers: [offer('returning')],
      customers: [customer],
      history: [purchase('h0', '.0000001')],
      transactions: [purchase('t0', '.0000002')],
    };
    fc.assert(fc.property(sameSecond, optionsArbitrary, sameDecisions), {
      numRuns: 100,
      examples: [[known, { timeZone: 'UTC', scale: 2, rounding: 'half-up' }]],
    });
  });
});
