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
import { compileOfferSet } from '../../src/matching/compileOffers.js';
import {
  customerArbitrary,
  historyTransactionArbitrary,
  invariants,
  offerArbitrary,
  scenarioArbitrary,
  storeConformance,
  transactionArbitrary,
} from '../../src/testing/index.js';

describe('arbitraries', () => {
  it('offerArbitrary draws offers that load, at a merchant of the pool or scoped to its names', () => {
    const pool = ['Coffee House', 'Book Nook', 'Fuel Stop', 'Green Grocer'].map(merchantKey);
    fc.assert(
      fc.property(
        fc.uniqueArray(offerArbitrary(), { selector: (o) => o.offer_id, maxLength: 8 }),
        (offers) => {
          const set = compileOfferSet(offers);
          expect(set.offers).toHaveLength(offers.length);
          for (const o of set.compiled) {
            const names = o.scope === undefined ? [o.merchantKey] : [...o.scope.merchants];
            for (const name of names) expect(pool).toContain(name);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('offerArbitrary draws every reward shape, scope and channel, and none when switched off', () => {
    const seen = new Set<string>();
    for (const o of fc.sample(offerArbitrary(), { numRuns: 500, seed: 5 })) {
      expect(compileOffers([o], { scale: 0 }).offers).toHaveLength(1);
      const r = o.reward;
      seen.add(r === undefined ? 'discount' : r.type === 'tiers' ? `tiers ${r.mode}` : r.type);
      if (r?.type === 'percent' && r.max_eligible_amount !== undefined) seen.add('max_eligible');
      for (const key of Object.keys(o.scope ?? { merchant_name: 1 })) seen.add(key);
      for (const c of o.channels ?? []) seen.add(c);
    }
    expect([...seen].sort()).toEqual(
      [
        'discount',
        'percent',
        'max_eligible',
        'fixed',
        'tiers whole',
        'tiers marginal',
        'merchant_name',
        'merchants',
        'merchant_ids',
        'mcc',
        'exclude_merchants',
        'online',
        'in_store',
      ].sort(),
    );
    const plain = fc.sample(offerArbitrary({ rewards: false, scopes: false, channels: false }), {
      numRuns: 200,
      seed: 5,
    });
    for (const o of plain) {
      expect(o.merchant_name !== undefined && o.discount !== undefined).toBe(true);
      expect([o.reward, o.scope, o.channels]).toEqual([undefined, undefined, undefined]);
    }
  });

  it('offerArbitrary draws budgets and caps of every kind and period with funding, and none without', () => {
    const seen = new Set<string>();
    const offers = fc.sample(offerArbitrary({ funding: true }), { numRuns: 400, seed: 3 });
    for (const o of offers) {
      expect(compileOffers([o]).offers).toHaveLength(1);
      if (o.budget) seen.add(`budget ${o.budget.period ?? 'absent'}`);
      const cap = o.customer_cap;
      if (cap)
        seen.add(
          `cap ${cap.period} ${cap.amount === undefined ? '' : 'amount'}/${cap.count ?? ''}`,
        );
    }
    for (const p of ['absent', 'offer', 'day', 'week', 'month'])
      expect(seen).toContain(`budget ${p}`);
    for (const p of ['offer', 'day', 'week', 'month']) {
      expect([...seen].filter((k) => k.startsWith(`cap ${p} `)).length).toBeGreaterThan(2);
    }
    const plain = fc.sample(offerArbitrary(), { numRuns: 100, seed: 3 });
    expect(plain.filter((o) => o.budget !== undefined || o.customer_cap !== undefined)).toEqual([]);
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
        expect(r.rejected).toEqual({ customers: [], activations: [], history: [] });
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

describe('options of the testing entry', () => {
  it('every arbitrary rejects a key that is not an option, naming the nearest one', () => {
    expect(() => offerArbitrary({ merchant: ['Acme'] } as never)).toThrow(
      /^offerArbitrary options: unknown option 'merchant'; did you mean 'merchants'\?/,
    );
    expect(() => offerArbitrary({ offerIds: { min: 1, maximum: 9 } } as never)).toThrow(
      /^offerArbitrary options\.offerIds: unknown option 'maximum'/,
    );
    expect(() =>
      customerArbitrary({ birthday: { from: '2000-01-01', to: '2001-01-01' } } as never),
    ).toThrow(/^customerArbitrary options: unknown option 'birthday'; did you mean 'birthdays'\?/);
    expect(() => transactionArbitrary({ offset: false } as never)).toThrow(
      /^transactionArbitrary options: unknown option 'offset'; did you mean 'offsets'\?/,
    );
    expect(() => historyTransactionArbitrary({ date: {} } as never)).toThrow(
      /^historyTransactionArbitrary options: unknown option 'date'; did you mean 'dates'\?/,
    );
    expect(() =>
      scenarioArbitrary({ dates: { from: '2025-01-01', until: '2025-02-01' } } as never),
    ).toThrow(/^dates: unknown field 'until' \(known: from, to\)/);
    expect(() => scenarioArbitrary({ invalidRatio: 0 } as never)).toThrow(
      /^scenarioArbitrary options: unknown option 'invalidRatio'; did you mean 'invalidRate'\?/,
    );
  });

  it('sizes and ids are whole numbers, with the same words everywhere', () => {
    expect(() => scenarioArbitrary({ maxOffers: 2.5 })).toThrow(
      new RangeError('maxOffers must be a whole number of at least 0, got the number 2.5'),
    );
    expect(() => offerArbitrary({ offerIds: { min: 0, max: 9 } })).toThrow(
      new RangeError('offerIds.min must be a whole number of at least 1, got the number 0'),
    );
    expect(() => offerArbitrary({ offerIds: { min: 5, max: 4 } })).toThrow(
      new RangeError('offerIds.max must be a whole number of at least 5, got the number 4'),
    );
  });

  it('the invariants take the options replay was given, and nothing else', () => {
    const scenario = { offers: [], customers: [], transactions: [] };
    const result = replay(scenario);
    const replayOptions = {
      timeZone: 'UTC',
      currency: 'EUR',
      ids: () => 'evt',
      clock: () => new Date(0),
    };
    expect(() => invariants.all(scenario, result, replayOptions)).not.toThrow();
    expect(() => invariants.all(scenario, result, { timezone: 'UTC' } as never)).toThrow(
      /^invariants options: unknown option 'timezone'; did you mean 'timeZone'\?/,
    );
  });

  it('storeConformance rejects a key that is not an option', () => {
    const noop = () => undefined;
    expect(() =>
      storeConformance({
        name: 'x',
        createStore: () => {
          throw new Error('not called');
        },
        describe: noop,
        test: noop,
        largebatch: 10,
      } as never),
    ).toThrow(
      /^storeConformance options: unknown option 'largebatch'; did you mean 'largeBatch'\?/,
    );
    expect(() =>
      storeConformance({
        name: 'x',
        createStore: noop as never,
        describe: noop,
        test: noop,
        largeBatch: 0,
      }),
    ).toThrow(new RangeError('largeBatch must be a whole number of at least 1, got the number 0'));
  });
});
