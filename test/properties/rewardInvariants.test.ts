/**
 * The invariants of rewards and scopes of `cashback-engine/testing` (docs/concepts.md, Rewards and
 * Scopes): each throws for a result that breaks it, read against the offers as sent, and passes
 * what the engine pays; and every invariant holds on scenarios drawn with every reward shape,
 * scope and channel.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/index.js';
import { invariants, scenarioArbitrary } from '../../src/testing/index.js';
import { customer, offer, tx } from '../fixtures.js';

/** An offer paying `reward` at Coffee House. */
function rewarded(reward: unknown, over: Record<string, unknown> = {}) {
  const { discount: _, ...rest } = offer(over);
  return { ...rest, reward };
}

/** The data set of one transaction of `amount` at Coffee House, and what replay pays. */
function paid(offers: unknown[], amount: number | string, over: Record<string, unknown> = {}) {
  const data = { offers, customers: [customer()], transactions: [tx({ amount, ...over })] };
  return { data, result: replay(data) };
}

/** The result with its one payment's cashback set to `cashback`. */
function paying(result: ReturnType<typeof replay>, cashback: number) {
  return { ...result, payments: result.payments.map((p) => ({ ...p, cashback })) };
}

describe('fixedWithinAmount', () => {
  it('passes a fixed reward paid in full or up to the purchase, and fails one above the purchase', () => {
    const fixed = rewarded({ type: 'fixed', amount: 10 });
    const small = paid([fixed], 4.2);
    expect(small.result.payments[0]?.cashback).toBe(4.2);
    expect(() => invariants.fixedWithinAmount(small.data, small.result)).not.toThrow();
    expect(() => invariants.fixedWithinAmount(small.data, paying(small.result, 4.21))).toThrow(
      "payment for transaction 't1' (offer 1, cashback 4.21, payment_date 2025-06-16): a fixed reward pays more than the purchase of 4.2",
    );
    const big = paid([fixed], 80);
    expect(() => invariants.fixedWithinAmount(big.data, paying(big.result, 10.01))).toThrow(
      'pays more than the fixed 10',
    );
  });
});

describe('marginalWithinTopRate', () => {
  it('fails marginal tiers paying more than the top rate of the whole amount', () => {
    const tiers = rewarded({
      type: 'tiers',
      mode: 'marginal',
      tiers: [
        { from: 0, rate: 1 },
        { from: 20, rate: 5 },
      ],
    });
    const r = paid([tiers], 100);
    expect(r.result.payments[0]?.cashback).toBe(4.2);
    expect(() => invariants.marginalWithinTopRate(r.data, r.result)).not.toThrow();
    expect(() => invariants.marginalWithinTopRate(r.data, paying(r.result, 5.01))).toThrow(
      'marginal tiers pay more than the top rate 5% of the whole amount 100 (5)',
    );
  });
});

describe('outOfScopeNeverPaid', () => {
  it('fails a payment outside the scope, at an excluded name, or on another channel', () => {
    const { merchant_name: _, ...rest } = offer();
    const scoped = { ...rest, scope: { mcc: ['5812'], exclude_merchants: ['Coffee House'] } };
    const bound = { ...offer(), channels: ['online'] };
    const r = paid([offer()], 10);
    expect(() => invariants.outOfScopeNeverPaid(r.data, r.result)).not.toThrow();
    expect(() => invariants.outOfScopeNeverPaid({ ...r.data, offers: [scoped] }, r.result)).toThrow(
      "merchant 'Coffee House' is excluded from the scope",
    );
    expect(() =>
      invariants.outOfScopeNeverPaid(
        { ...r.data, offers: [{ ...scoped, scope: { mcc: ['5411'] } }] },
        r.result,
      ),
    ).toThrow("merchant 'Coffee House' is not in the offer's scope");
    expect(() => invariants.outOfScopeNeverPaid({ ...r.data, offers: [bound] }, r.result)).toThrow(
      'channel (none) is not in online',
    );
  });
});

describe('every invariant', () => {
  it('holds on scenarios with every reward shape, scope and channel', () => {
    fc.assert(
      fc.property(scenarioArbitrary(), (scenario) => {
        invariants.all(scenario, replay(scenario));
      }),
      { numRuns: 300 },
    );
  });
});
