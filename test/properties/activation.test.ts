/**
 * Activation (docs/concepts.md, Activation): a customer without an activation of an offer that
 * requires one, dated at or before the transaction, is never paid by it; and the engine decides
 * exactly as `replay` given the same activations.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/entry.js';
import { parseTransaction, replay } from '../../src/index.js';
import { parseDateTime, type WallClock } from '../../src/model/dateTime.js';
import { merchantKey } from '../../src/model/normalise.js';
import { scenarioArbitrary } from '../../src/testing/index.js';
import { optionsArbitrary } from './_options.js';

type Scenario = ReturnType<typeof scenarioArbitrary> extends fc.Arbitrary<infer S> ? S : never;

/** Offers some of which require activation, and activations aimed at the transactions. */
function withActivations(scenario: Scenario) {
  const offerIds = [...scenario.offers.map((o) => o.offer_id), 9999];
  // Each activation names a transaction's customer, dated at, well before or well after it.
  const targets = scenario.transactions.flatMap((t) => {
    const { customer_id, date, merchant } = (t ?? {}) as {
      customer_id?: unknown;
      date?: unknown;
      merchant?: { name?: unknown } | null;
    };
    if (typeof customer_id !== 'string' || typeof date !== 'string') return [];
    const name = merchant?.name;
    // The offers at its merchant first, so that activations meet offers that would pay.
    const here = scenario.offers
      .filter(
        (o) =>
          typeof name === 'string' &&
          o.merchant_name !== undefined &&
          merchantKey(o.merchant_name) === merchantKey(name),
      )
      .map((o) => o.offer_id);
    return [{ customer_id, date, here }];
  });
  const gated = fc.array(fc.boolean(), {
    minLength: scenario.offers.length,
    maxLength: scenario.offers.length,
  });
  if (targets.length === 0) return fc.record({ gated, activations: fc.constant([] as unknown[]) });
  const activation = fc
    .record({ t: fc.nat(targets.length - 1), o: fc.nat(offerIds.length - 1), d: fc.nat(3) })
    .map(({ t, o, d }) => {
      const target = targets[t] as (typeof targets)[number];
      const dates = [target.date, '2000-01-01T00:00:00', '2999-01-01T00:00:00', target.date];
      const offerId = target.here[o % (target.here.length + 1)] ?? offerIds[o];
      return { customer_id: target.customer_id, offer_id: offerId, date: dates[d] };
    });
  return fc.record({ gated, activations: fc.array(activation, { maxLength: 30 }) });
}

const drawn = scenarioArbitrary({ duplicateRate: 0.1 }).chain((scenario) =>
  withActivations(scenario).map(({ gated, activations }) => ({
    ...scenario,
    offers: scenario.offers.map((o, i) => (gated[i] ? { ...o, requires_activation: true } : o)),
    activations,
  })),
);

describe('activation', () => {
  it('never pays by an offer that requires activation without one at or before the transaction', () => {
    fc.assert(
      fc.property(drawn, optionsArbitrary, (data, options) => {
        const r = replay(data, options);
        const gated = new Set(
          data.offers.filter((o) => o.requires_activation === true).map((o) => o.offer_id),
        );
        // The paid transaction of an id and customer is the first valid one: later copies of
        // the id are duplicates, with dates of their own.
        const paidWhen = new Map<string, WallClock>();
        data.transactions.forEach((t, i) => {
          const parsed = parseTransaction(t, i, options.timeZone);
          if (!parsed.ok) return;
          const key = `${parsed.value.transactionId}/${parsed.value.customerId}`;
          if (!paidWhen.has(key)) paidWhen.set(key, parsed.value.when);
        });
        const rejected = new Set(r.rejected.activations.map((e) => e.key));
        for (const p of r.payments) {
          if (!gated.has(p.offer_id)) continue;
          const when = paidWhen.get(`${p.transaction_id}/${p.customer_id}`) as WallClock;
          const ok = (data.activations as { customer_id: string; offer_id: number; date: string }[])
            .filter((a) => a.customer_id.trim() === p.customer_id && a.offer_id === p.offer_id)
            .filter((a) => !rejected.has(`${a.customer_id.trim()}/${a.offer_id}`))
            .some((a) => {
              const at = parseDateTime(a.date, options.timeZone) as WallClock;
              return (
                at.seconds < when.seconds || (at.seconds === when.seconds && at.nanos <= when.nanos)
              );
            });
          expect(ok, `payment of ${p.transaction_id} by offer ${p.offer_id}`).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('the engine decides as replay, given the same activations', async () => {
    await fc.assert(
      fc.asyncProperty(drawn, optionsArbitrary, async (data, options) => {
        const expected = replay(data, options);
        const engine = createEngine({ ...options, ids: () => 'event' });
        const partner = 'bank-a';
        await engine.upsertOffers(data.offers);
        await engine.upsertCustomers(partner, data.customers);
        const activations = await engine.addActivations(partner, data.activations);
        expect(activations.details.errors).toEqual(expected.rejected.activations);
        await engine.addHistory(partner, data.history);
        const r = await engine.addTransactions(partner, data.transactions);
        expect(r.details.payments).toEqual(expected.payments);
        expect(r.details.errors).toEqual(expected.errors);
      }),
      { numRuns: 100 },
    );
  });
});
