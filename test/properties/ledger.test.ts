/**
 * The payment ledger over generated data sets (docs/concepts.md, Late returns; docs/replay.md,
 * Liability): returns that arrive after their payment day, budgets that skip or pay in part, and
 * offers reloaded with changed terms. Through `replay()`: every invariant holds with late returns
 * clawed back or ignored, and the liability accounts for every payment. Through an engine on the
 * memory store, each return heard at its arrival and the offers reloaded before the returns after
 * the last transaction: it answers as `replay` (a return uses the revision that paid), its
 * answers keep every invariant, and `confirmDue` confirms each payment once, with its final
 * cashback. The seed is CI's (test/setup.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LateReturns, Money, replay } from '../../src/index.js';
import { revisedOffersArbitrary } from '../../src/testing/_internals/revisions.js';
import { invariants, type Scenario, scenarioArbitrary } from '../../src/testing/index.js';
import { feedEngine, heardReturns } from './_engineLedger.js';
import { fundedScenarios } from './_funded.js';
import { optionsArbitrary } from './_options.js';

/** The scenario with its transactions in date order, so that returns find their payments. */
function inDateOrder(s: Scenario): Scenario {
  const date = (t: unknown): string => String((t as { date?: unknown } | null)?.date ?? '');
  return {
    ...s,
    transactions: [...s.transactions].sort((a, b) =>
      date(a) < date(b) ? -1 : date(a) > date(b) ? 1 : 0,
    ),
  };
}

// One merchant, no conditions, little noise: many payments for returns to adjust and claw back.
const paying: fc.Arbitrary<Scenario> = scenarioArbitrary({
  maxReturns: 14,
  revisions: true,
  merchants: ['Coffee House'],
  conditions: false,
  offsets: false,
  invalidRate: 0.05,
  unknownCustomerRate: 0.05,
});

/** Budgets and caps that run out, with returns, and a revision of their offers. */
const funded = fundedScenarios(10).chain((s) =>
  fc
    .tuple(revisedOffersArbitrary(s.offers), fc.nat(s.returns?.length ?? 0))
    .map(([offers, beforeReturn]): Scenario => ({ ...s, revision: { offers, beforeReturn } })),
);

// In date order, as most data comes: returns then find the payments dated before them.
const scenarios = fc
  .oneof(
    { weight: 2, arbitrary: paying },
    { weight: 2, arbitrary: funded },
    scenarioArbitrary({ maxReturns: 10, revisions: true, funding: true }),
  )
  .map(inDateOrder);
const lateReturns = fc.constantFrom<LateReturns>('clawback', 'ignore');

/** The scenario as `replay` takes it: one offer set. */
function forReplay(s: Scenario): Omit<Scenario, 'revision'> {
  const { revision: _, ...data } = s;
  return data;
}

describe('the payment ledger in replay', () => {
  it('keeps every invariant with late returns clawed back or ignored', () => {
    fc.assert(
      fc.property(scenarios, optionsArbitrary, lateReturns, (s, options, late) => {
        const data = forReplay(s);
        const withLate = { ...options, lateReturns: late };
        // The invariants take replay's options as they are.
        invariants.all(data, replay(data, withLate), withLate);
      }),
      { numRuns: 200 },
    );
  });

  it('gives a liability that accounts for every payment and clawback, as of the end of its input', () => {
    fc.assert(
      fc.property(scenarios, optionsArbitrary, (s, options) => {
        const r = replay(forReplay(s), options);
        const { pending, confirmed, cancelled, clawedBack } = r.summary.liability;
        expect(pending.count + confirmed.count + cancelled.count).toBe(r.summary.paid);
        const net = r.summary.returns?.netCashback ?? r.summary.totalCashback;
        expect(new Money(pending.cashback).plus(confirmed.cashback).toFixed(options.scale)).toBe(
          net,
        );
        expect(clawedBack.count).toBe(r.clawbacks.length);
        expect(clawedBack.cashback).toBe(r.summary.returns?.clawedBack ?? clawedBack.cashback);
        // By payment day: confirmed once the day began at asOf, the latest date-time of the input.
        const current = new Map(r.payments.map((p) => [p.transaction_id, p]));
        for (const a of r.adjustments) {
          const p = current.get(a.transaction_id);
          if (p !== undefined) current.set(a.transaction_id, { ...p, cashback: a.cashback });
        }
        const asOfDay = r.summary.liability.asOf?.slice(0, 10) ?? '';
        const live = [...current.values()].filter((p) => p.cashback > 0);
        expect(live.filter((p) => p.payment_date <= asOfDay).length).toBe(confirmed.count);
        expect(live.filter((p) => p.payment_date > asOfDay).length).toBe(pending.count);
      }),
      { numRuns: 150 },
    );
  });

  it('generated data has late returns, clawbacks, late_return and budgets that skip', () => {
    let clawbacks = 0;
    let ignored = 0;
    let skipping = 0;
    for (const s of fc.sample(scenarios, { numRuns: 300, seed: 11 })) {
      const data = forReplay(s);
      clawbacks += replay(data).clawbacks.length;
      ignored += replay(data, { lateReturns: 'ignore' }).summary.returns?.errors.late_return ?? 0;
      skipping += s.offers.filter((o) => o.budget?.on_exhaust === 'skip').length;
    }
    expect(clawbacks).toBeGreaterThan(20);
    expect(ignored).toBeGreaterThan(20);
    expect(skipping).toBeGreaterThan(10);
  });
});

describe('the payment ledger through an engine on the memory store', () => {
  it('answers as replay, keeps every invariant, and confirms each payment once with its final cashback', async () => {
    let afterRevision = 0;
    await fc.assert(
      fc.asyncProperty(
        scenarios,
        optionsArbitrary,
        lateReturns,
        fc.array(fc.nat(), { maxLength: 6 }),
        async (drawn, options, late, cuts) => {
          const heard = heardReturns(drawn.returns ?? [], options.timeZone);
          const scenario: Scenario = { ...drawn, returns: heard.returns };
          const engineOptions = { ...options, lateReturns: late };
          const expected = replay(forReplay(scenario), engineOptions);
          const { engine, partner, answers, now } = await feedEngine(
            scenario,
            heard.clocks,
            engineOptions,
            cuts,
          );
          afterRevision += answers.afterRevision;
          // Returns after the reload work payments out with the terms that decided them.
          expect(answers.errors).toEqual(expected.errors);
          expect(answers.payments).toEqual(expected.payments);
          expect(answers.adjustments).toEqual(expected.adjustments);
          expect(answers.clawbacks).toEqual(expected.clawbacks);
          expect(answers.returnErrors).toEqual(expected.returnErrors);
          invariants.all(forReplay(scenario), answers, engineOptions);
          // Confirmed on a day in the middle of the data, then after all of it: each payment
          // once, with its cashback after the returns that came in time.
          const final = new Map(expected.payments.map((p) => [p.transaction_id, p]));
          for (const a of expected.adjustments) {
            const p = final.get(a.transaction_id);
            if (p !== undefined) final.set(a.transaction_id, { ...p, cashback: a.cashback });
          }
          const days = [...final.values()].map((p) => p.payment_date).sort();
          for (const through of [days[Math.floor(days.length / 2)] ?? '2025-06-01', '2100-01-01']) {
            now[0] = new Date(`${through}T12:00:00Z`);
            await engine.confirmDue();
            const today = new Intl.DateTimeFormat('en-CA', { timeZone: options.timeZone }).format(
              now[0],
            );
            const events = await engine.store.outbox.list(partner, { limit: 10_000 });
            invariants.eachPaymentConfirmedOnce(events, {
              payments: [...final.values()],
              through: today,
            });
          }
          expect(await engine.confirmDue()).toEqual({ events: 0, payments: 0 });
        },
      ),
      { numRuns: 150 },
    );
    // Some runs reloaded the offers before returns: the property is not empty.
    expect(afterRevision).toBeGreaterThan(0);
  });
});
