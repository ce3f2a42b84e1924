/**
 * The arbitraries of `cashback-engine/testing` draw what they promise: valid items are accepted by
 * the engine's own parsers, and scenarios mix in what their rates ask for.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileOffers,
  merchantKey,
  parseCustomer,
  parseTransaction,
  replay,
} from '../../src/index.js';
import {
  customerArbitrary,
  historyTransactionArbitrary,
  offerArbitrary,
  scenarioArbitrary,
  transactionArbitrary,
} from '../../src/testing/index.js';

describe('arbitraries', () => {
  it('offerArbitrary draws offers that load, at a merchant of the pool', () => {
    const pool = ['Coffee House', 'Book Nook', 'Fuel Stop', 'Green Grocer'].map(merchantKey);
    fc.assert(
      fc.property(
        fc.uniqueArray(offerArbitrary(), { selector: (o) => o.offer_id, maxLength: 8 }),
        (offers) => {
          const set = compileOffers(offers);
          expect(set.offers).toHaveLength(offers.length);
          for (const o of set.offers) expect(pool).toContain(o.merchantKey);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('customerArbitrary draws valid customers', () => {
    fc.assert(
      fc.property(customerArbitrary(), (c) => {
        expect(parseCustomer(c, 0).ok).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('transactionArbitrary and historyTransactionArbitrary draw valid items', () => {
    fc.assert(
      fc.property(transactionArbitrary(), historyTransactionArbitrary(), (t, h) => {
        expect(parseTransaction(t, 0, 'UTC')).toMatchObject({ ok: true });
        expect(parseTransaction(h, 0, 'UTC', true)).toMatchObject({ ok: true });
      }),
      { numRuns: 300 },
    );
  });

  it('scenarioArbitrary with every rate 0 draws a clean data set', () => {
    const clean = scenarioArbitrary({ invalidRate: 0, unknownCustomerRate: 0, duplicateRate: 0 });
    fc.assert(
      fc.property(clean, (s) => {
        const r = replay(s);
        expect(r.rejected).toEqual({ customers: [], history: [] });
        const codes = r.errors.map((e) => e.code);
        expect(codes).not.toContain('invalid_transaction');
        expect(codes).not.toContain('customer_not_found');
        expect(codes).not.toContain('duplicate_transaction');
      }),
      { numRuns: 100 },
    );
  });

  it('scenarioArbitrary mixes in every kind of error at its default rates', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(scenarioArbitrary(), (s) => {
        const r = replay(s);
        for (const e of r.errors) seen.add(e.code);
        if (r.payments.length > 0) seen.add('paid');
        for (const e of r.rejected.customers) seen.add(`customer:${e.code}`);
        for (const e of r.rejected.history) seen.add(`history:${e.code}`);
      }),
      { numRuns: 300 },
    );
    expect([...seen].sort()).toEqual(
      [
        'paid',
        'invalid_transaction',
        'customer_not_found',
        'duplicate_transaction',
        'no_offer',
        'zero_cashback',
        'customer:invalid_customer',
        'customer:duplicate_customer',
        'history:invalid_transaction',
        'history:customer_not_found',
        'history:duplicate_transaction',
      ].sort(),
    );
  });
});
