/**
 * Returns in replay (docs/replay.md, Returns): the invariants of returns hold over generated data
 * sets; a session fed the merge in any chunks decides as `replay`; and an engine fed the same
 * merge as `addTransactions` and `addReturns` calls of any sizes adjusts exactly as `replay`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Adjustment, createReplay, type ReturnError, replay } from '../../src/index.js';
import { invariants, type Scenario, scenarioArbitrary } from '../../src/testing/index.js';
import { feedEngine, heardReturns } from './_engineLedger.js';
import { mergeOrder } from './_mergeOrder.js';
import { optionsArbitrary } from './_options.js';

/** The scenario with its transactions in date order (its dates carry no offset): the way most
 * data comes, where returns find the transactions dated before them. */
function inDateOrder(s: Scenario): Scenario {
  const date = (t: unknown): string => String((t as { date?: unknown } | null)?.date ?? '');
  return {
    ...s,
    transactions: [...s.transactions].sort((a, b) =>
      date(a) < date(b) ? -1 : date(a) > date(b) ? 1 : 0,
    ),
  };
}

// One merchant, offers without conditions, little noise: many payments for returns to adjust.
const paying = scenarioArbitrary({
  maxReturns: 14,
  merchants: ['Coffee House'],
  conditions: false,
  offsets: false,
  invalidRate: 0.05,
  unknownCustomerRate: 0.05,
}).map(inDateOrder);

const scenarios = fc.oneof(
  scenarioArbitrary({ maxReturns: 14, duplicateRate: 0.15, conditions: true }),
  paying,
);

describe('returns in replay', () => {
  it('keep the invariants of returns, and every other', () => {
    fc.assert(
      fc.property(scenarios, optionsArbitrary, (scenario, options) => {
        const result = replay(scenario, options);
        invariants.all(scenario, result, options);
      }),
      { numRuns: 200 },
    );
  });

  it('generated returns adjust payments, and are refused, in every way', () => {
    const codes = new Set<string>();
    let adjusted = 0;
    for (const s of fc.sample(paying, { numRuns: 300, seed: 7 })) {
      const r = replay(s);
      adjusted += r.adjustments.length;
      for (const e of r.returnErrors) codes.add(e.code);
    }
    expect(adjusted).toBeGreaterThan(0);
    expect([...codes].sort(), JSON.stringify([...codes])).toEqual([
      'after_warranty',
      'duplicate_return',
      'invalid_return',
      'not_paid',
      'return_exceeds_amount',
      'transaction_not_found',
    ]);
  });

  it('a session fed the merge in any chunks decides as replay', () => {
    fc.assert(
      fc.property(
        scenarios,
        optionsArbitrary,
        fc.array(fc.nat(), { maxLength: 8 }),
        (scenario, options, cuts) => {
          const whole = replay(scenario, options);
          const { transactions, returns = [], ...data } = scenario;
          const session = createReplay(data, {
            ...options,
            returns: true,
            maxLatenessDays: Infinity,
          });
          const adjustments: Adjustment[] = [];
          const returnErrors: ReturnError[] = [];
          for (const run of mergeOrder(transactions, returns, options.timeZone, cuts)) {
            if (run.kind === 'transactions') session.push(run.items);
            else {
              for (const o of session.pushReturns(run.items)) {
                if (!o.ok) returnErrors.push(o.error);
                else if (o.kind === 'adjustment') adjustments.push(o.adjustment);
              }
            }
          }
          expect(adjustments).toEqual(whole.adjustments);
          expect(returnErrors).toEqual(whole.returnErrors);
          expect(session.summary()).toEqual(whole.summary);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('an engine fed the merge as requests of any sizes, each return at its arrival, answers as replay', async () => {
    await fc.assert(
      fc.asyncProperty(
        scenarios,
        optionsArbitrary,
        fc.array(fc.nat(), { maxLength: 8 }),
        async (drawn, options, cuts) => {
          // The engine hears each return when its clock says (docs/concepts.md, Late returns):
          // replay is given the same arrivals.
          const heard = heardReturns(drawn.returns ?? [], options.timeZone);
          const scenario = { ...drawn, returns: heard.returns };
          const expected = replay(scenario, options);
          const { engine, partner, answers } = await feedEngine(
            scenario,
            heard.clocks,
            options,
            cuts,
          );
          expect(answers.errors).toEqual(expected.errors);
          expect(answers.adjustments).toEqual(expected.adjustments);
          expect(answers.clawbacks).toEqual(expected.clawbacks);
          expect(answers.returnErrors).toEqual(expected.returnErrors);
          // The listing holds each payment's current cashback, and none at 0.
          const current = new Map(expected.payments.map((p) => [p.transaction_id, p.cashback]));
          for (const a of expected.adjustments) current.set(a.transaction_id, a.cashback);
          const listed = await engine.listPayments(partner, {
            date_from: '0001-01-01',
            date_to: '9999-12-31',
            page_size: 1000,
          });
          const want = [...current].filter(([, c]) => c > 0).sort(([a], [b]) => (a < b ? -1 : 1));
          const got = listed.transactions
            .map((p) => [p.transaction_id, p.cashback_amount] as const)
            .sort(([a], [b]) => (a < b ? -1 : 1));
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 100 },
    );
  });
});
