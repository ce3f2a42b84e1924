import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { replay } from '../../src/index.js';
import { fuzzOffers } from '../../src/testing/index.js';
import { offer } from '../fixtures.js';

const sample = JSON.parse(readFileSync('docs/examples/offers.json', 'utf8')) as unknown[];

describe('fuzzOffers', () => {
  test('finds nothing wrong with the real engine on the sample offers', () => {
    const report = fuzzOffers(sample, { runs: 150, seed: 20261125 });
    expect(report.failure).toBeUndefined();
    expect(report.runs).toBe(150);
  });

  test('finds a planted bug at a min_amount boundary and shrinks it to a small data set', () => {
    const offers = [offer({ min_amount: 20, discount: 10 })];
    // A faulty build: the payment of a transaction of exactly min_amount goes missing.
    const faulty: typeof replay = (data, options) => {
      const result = replay(data, options);
      const lost = new Set(
        (data.transactions ?? [])
          .filter((t) => (t as { amount: unknown }).amount === 20)
          .map((t) => (t as { transaction_id: string }).transaction_id),
      );
      return { ...result, payments: result.payments.filter((p) => !lost.has(p.transaction_id)) };
    };
    const report = fuzzOffers(offers, { runs: 500, seed: 7, replay: faulty });
    expect(report.failure?.message).toMatch(/submitted but 0 payments/);
    const { counterexample } = report.failure ?? { counterexample: undefined };
    expect(counterexample?.transactions).toContainEqual(expect.objectContaining({ amount: 20 }));
    expect(counterexample?.transactions.length).toBeLessThanOrEqual(2);
    expect(counterexample?.customers).toHaveLength(1);
    // The seed and path replay the same failure.
    const again = fuzzOffers(offers, { runs: 500, seed: report.seed, replay: faulty });
    expect(again.failure?.counterexample).toEqual(counterexample);
  });

  test('covers requires_activation: nothing wrong with the real engine, and a build that ignores it is caught', () => {
    const offers = [
      offer({ requires_activation: true, discount: 10 }),
      offer({ offer_id: 2, merchant_name: 'Bakery', requires_activation: true }),
    ];
    expect(fuzzOffers(offers, { runs: 150, seed: 11 }).failure).toBeUndefined();
    const ignoring: typeof replay = (data, options) =>
      replay(
        {
          ...data,
          offers: (data.offers as Record<string, unknown>[]).map((o) => ({
            ...o,
            requires_activation: false,
          })),
        },
        options,
      );
    const report = fuzzOffers(offers, { runs: 300, seed: 11, replay: ignoring });
    // The chunked session and explain read the activations; the faulty replay pays without them.
    expect(report.failure?.message).toMatch(/outcomes differ|explain/);
  });

  test('covers budgets and customer caps: nothing wrong with the real engine, and a build that ignores either is caught', () => {
    const offers = [
      offer({ discount: 10, budget: { amount: 30, period: 'week' } }),
      offer({
        offer_id: 2,
        merchant_name: 'Bakery',
        discount: 20,
        customer_cap: { amount: 8, count: 2, period: 'day' },
      }),
    ];
    expect(fuzzOffers(offers, { runs: 150, seed: 5 }).failure).toBeUndefined();
    const ignoring =
      (field: string): typeof replay =>
      (data, options) =>
        replay(
          {
            ...data,
            offers: (data.offers as Record<string, unknown>[]).map(
              ({ [field]: _dropped, ...o }) => o,
            ),
          },
          options,
        );
    const budget = fuzzOffers(offers, { runs: 300, seed: 5, replay: ignoring('budget') });
    // Found by the invariants, or by the chunked replay (which runs this package's replay), on a
    // data set shrunk to two purchases in one week.
    expect(budget.failure?.message).toMatch(
      /^(the payments of offer 1 in week of .* more than the budget of 30|pushed in chunks at .*, the outcomes differ)/,
    );
    expect(budget.failure?.counterexample.transactions.length).toBeLessThanOrEqual(2);
    const cap = fuzzOffers(offers, { runs: 300, seed: 5, replay: ignoring('customer_cap') });
    expect(cap.failure?.message).toMatch(
      /of offer 2 in .* more than the customer_cap's (amount|count)/,
    );
  });

  test('covers late returns: a build that reads returns by their date, not their arrival, is caught', () => {
    const offers = [offer({ discount: 10, warranty: 7, budget: { amount: 30, period: 'month' } })];
    expect(fuzzOffers(offers, { runs: 150, seed: 9 }).failure).toBeUndefined();
    // A faulty build: it drops reported_at (where it does not come before the date, which it
    // still refuses), so a return reported after the payment day lowers the confirmed payment
    // (and gives its budget back) instead of clawing back.
    const byDate: typeof replay = (data, options) =>
      replay(
        {
          ...data,
          returns: (data.returns ?? []).map((r) => {
            const { reported_at, ...rest } = r as Record<string, unknown>;
            const before =
              typeof reported_at === 'string' &&
              typeof rest.date === 'string' &&
              reported_at.slice(0, 19) < rest.date.slice(0, 19);
            return before ? r : rest;
          }),
        },
        options,
      );
    const report = fuzzOffers(offers, { runs: 500, seed: 9, replay: byDate });
    expect(report.failure?.message).toMatch(/a confirmed payment never changes/);
    const late = report.failure?.counterexample.returns.filter(
      (r) => (r as { reported_at?: string }).reported_at !== undefined,
    );
    expect(late?.length).toBeGreaterThan(0);
  });

  test('aims at scopes, rewards and channels: nothing wrong with the real engine, and a build that ignores exclusions or channels is caught', () => {
    const { merchant_name: _m, discount: _d, ...base } = offer();
    const offers = [
      {
        ...base,
        scope: { mcc: ['5411'], exclude_merchants: ['Big Box'] },
        reward: {
          type: 'tiers',
          mode: 'marginal',
          tiers: [
            { from: 0, rate: 2 },
            { from: 40, rate: 6 },
          ],
        },
        audience: 'returning',
      },
      {
        ...base,
        offer_id: 2,
        merchant_name: 'Big Box',
        reward: { type: 'fixed', amount: 5 },
        min_amount: 20,
        channels: ['online'],
      },
    ];
    expect(fuzzOffers(offers, { runs: 150, seed: 9 }).failure).toBeUndefined();
    const without =
      (drop: (o: Record<string, unknown>) => Record<string, unknown>): typeof replay =>
      (data, options) =>
        replay({ ...data, offers: (data.offers as Record<string, unknown>[]).map(drop) }, options);
    const noExclusion = fuzzOffers(offers, {
      runs: 300,
      seed: 9,
      replay: without((o) => (o.scope === undefined ? o : { ...o, scope: { mcc: ['5411'] } })),
    });
    expect(noExclusion.failure?.message).toMatch(/excluded from the scope|outcomes differ/);
    const noChannels = fuzzOffers(offers, {
      runs: 300,
      seed: 9,
      replay: without(({ channels: _c, ...o }) => o),
    });
    expect(noChannels.failure?.message).toMatch(/channel .* is not in online|outcomes differ/);
  });

  test('rejects an unknown option', () => {
    expect(() => fuzzOffers(sample, { rusn: 5 } as never)).toThrow(/did you mean 'runs'/);
  });
});
