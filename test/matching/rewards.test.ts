/**
 * Reward shapes (docs/concepts.md, Rewards): a percentage up to an eligible amount, a fixed amount
 * and tiers, rounded once, then `max_cashback`; and their validation.
 */
import { describe, expect, test } from 'vitest';
import { replay } from '../../src/core/replay/replay.js';
import { compileOffers, OfferValidationError } from '../../src/matching/compileOffers.js';
import { customer, offer, tx } from '../fixtures.js';

/** An offer paying `reward` instead of a discount. */
function rewarded(reward: unknown, over: Record<string, unknown> = {}): Record<string, unknown> {
  const { discount: _, ...rest } = offer(over);
  return { ...rest, reward };
}

/** What one purchase of `amount` is paid under the offers, or its error code. */
function paid(offers: Record<string, unknown>[], amount: number | string, options = {}) {
  const r = replay({ offers, customers: [customer()], transactions: [tx({ amount })] }, options);
  return r.payments[0]?.cashback ?? r.errors[0]?.code;
}

/** The problems of loading one offer, as `path: message`. */
function problems(o: Record<string, unknown>, scale?: number): string[] {
  try {
    compileOffers([o], scale === undefined ? {} : { scale });
  } catch (e) {
    if (e instanceof OfferValidationError) return e.issues.map((i) => `${i.path}: ${i.message}`);
    throw e;
  }
  return [];
}

const TIERS = [
  { from: 0, rate: 1 },
  { from: 20, rate: 5 },
  { from: 100, rate: 10 },
];

describe('percent rewards', () => {
  test('a discount of 5 pays as a percent reward at rate 5', () => {
    const percent = rewarded({ type: 'percent', rate: 5 });
    for (const amount of [1, 12.34, 999.99]) {
      expect(paid([percent], amount)).toBe(paid([offer()], amount));
    }
  });

  test('pays the rate on the amount up to max_eligible_amount', () => {
    const capped = rewarded({ type: 'percent', rate: 5, max_eligible_amount: 200 });
    expect(paid([capped], 100)).toBe(5);
    expect(paid([capped], 200)).toBe(10);
    expect(paid([capped], 300)).toBe(10);
  });
});

describe('fixed rewards', () => {
  test('pay the fixed amount, never more than the purchase', () => {
    const fixed = rewarded({ type: 'fixed', amount: 10 });
    expect(paid([fixed], 75)).toBe(10);
    expect(paid([fixed], 4.2)).toBe(4.2);
  });

  test('round a smaller purchase amount once, with the rounding option', () => {
    const fixed = rewarded({ type: 'fixed', amount: 10 });
    expect(paid([fixed], '3.455')).toBe(3.46);
    expect(paid([fixed], '3.455', { rounding: 'down' })).toBe(3.45);
  });

  test('are capped by max_cashback after rounding, and wait for min_amount', () => {
    expect(paid([rewarded({ type: 'fixed', amount: 10 }, { max_cashback: 7.5 })], 80)).toBe(7.5);
    const spend75 = rewarded({ type: 'fixed', amount: 10 }, { min_amount: 75 });
    expect(paid([spend75], 74.99)).toBe('no_offer');
    expect(paid([spend75], 75)).toBe(10);
  });
});

describe('tiered rewards', () => {
  test('whole: the rate of the last tier reached, on the whole amount', () => {
    const whole = rewarded({ type: 'tiers', mode: 'whole', tiers: TIERS });
    expect(paid([whole], 10)).toBe(0.1);
    expect(paid([whole], 19.99)).toBe(0.2);
    expect(paid([whole], 20)).toBe(1);
    expect(paid([whole], 150)).toBe(15);
  });

  test('marginal: each tier on its part of the amount', () => {
    const marginal = rewarded({ type: 'tiers', mode: 'marginal', tiers: TIERS });
    expect(paid([marginal], 10)).toBe(0.1);
    // 20 × 1% + 80 × 5% + 50 × 10%
    expect(paid([marginal], 150)).toBe(9.2);
  });

  test('round once, not tier by tier', () => {
    const thin = rewarded({
      type: 'tiers',
      mode: 'marginal',
      tiers: [
        { from: 0, rate: 0.4 },
        { from: 1, rate: 0.4 },
        { from: 2, rate: 0.4 },
      ],
    });
    // Each part pays 0.004, which rounds to 0.00; together 0.012 rounds to 0.01.
    expect(paid([thin], 3)).toBe(0.01);
  });

  test('a tier at rate 0 pays nothing on its part', () => {
    const gap = rewarded({
      type: 'tiers',
      mode: 'marginal',
      tiers: [
        { from: 0, rate: 0 },
        { from: 50, rate: 10 },
      ],
    });
    expect(paid([gap], 40)).toBe('zero_cashback');
    expect(paid([gap], 60)).toBe(1);
  });
});

describe('reward validation', () => {
  test('an offer has exactly one of discount and reward', () => {
    expect(problems({ ...rewarded({ type: 'fixed', amount: 1 }), discount: 5 })).toEqual([
      'reward: cannot be given with discount: an offer has exactly one of them',
    ]);
    const { discount: _, ...neither } = offer();
    expect(problems(neither)).toEqual(['discount: is required (or reward)']);
  });

  test('refuses an unknown field of a reward, naming the nearest of its type', () => {
    expect(problems(rewarded({ type: 'fixed', amout: 10 }))).toEqual([
      'reward.amount: is required',
      "reward.amout: is not a field of a fixed reward; did you mean 'amount'?",
    ]);
    expect(problems(rewarded({ type: 'percent', rate: 5, max_eligable_amount: 9 }))).toEqual([
      "reward.max_eligable_amount: is not a field of a percent reward; did you mean 'max_eligible_amount'?",
    ]);
    expect(
      problems(rewarded({ type: 'tiers', mode: 'whole', tiers: [{ from: 0, rat: 5 }] })),
    ).toEqual([
      'reward.tiers.0.rate: is required',
      "reward.tiers.0.rat: is not a field of a tier; did you mean 'rate'?",
    ]);
  });

  test('names a reward of no known type', () => {
    expect(problems(rewarded({ type: 'cashback', rate: 5 }))).toEqual([
      "reward.type: must be one of 'percent', 'fixed', 'tiers'",
    ]);
    expect(problems(rewarded({ rate: 5 }))).toEqual([
      "reward.type: must be one of 'percent', 'fixed', 'tiers'",
    ]);
  });

  test('checks rates, amounts and the scale of a fixed amount', () => {
    expect(problems(rewarded({ type: 'percent', rate: 0 }))).toEqual([
      'reward.rate: must be greater than 0',
    ]);
    expect(problems(rewarded({ type: 'percent', rate: 101 }))).toEqual([
      'reward.rate: must be at most 100',
    ]);
    expect(problems(rewarded({ type: 'fixed', amount: 1.005 }))).toEqual([
      'reward.amount: must have at most 2 decimal places (the scale of cashback)',
    ]);
    expect(problems(rewarded({ type: 'fixed', amount: 1.005 }), 3)).toEqual([]);
  });

  test('holds tiers to 1–20, from 0 up strictly, rates in [0, 100] and one above 0', () => {
    const tiers = (list: unknown, mode = 'marginal') =>
      problems(rewarded({ type: 'tiers', mode, tiers: list }));
    expect(tiers([])).toEqual(['reward.tiers: must have at least 1 tier']);
    expect(tiers(Array.from({ length: 21 }, (_, i) => ({ from: i, rate: 1 })))).toEqual([
      'reward.tiers: must have at most 20 tiers',
    ]);
    expect(
      tiers([
        { from: 5, rate: 1 },
        { from: 5, rate: 2 },
        { from: 3, rate: 101 },
      ]),
    ).toEqual([
      'reward.tiers.2.rate: must be at most 100',
      'reward.tiers.0.from: must be 0',
      "reward.tiers.1.from: must be above the previous tier's from (5)",
      "reward.tiers.2.from: must be above the previous tier's from (5)",
    ]);
    expect(tiers([{ from: 0, rate: 0 }])).toEqual([
      'reward.tiers: must have a tier with a rate above 0',
    ]);
    expect(tiers([{ from: 0, rate: 1 }], 'stepped')).toEqual([
      "reward.mode: must be one of 'whole', 'marginal'",
    ]);
    expect(tiers([{ from: -1, rate: 1 }])).toEqual(['reward.tiers.0.from: must be at least 0']);
  });

  test('reports every problem of an offer set at once', () => {
    let error: unknown;
    try {
      compileOffers([
        rewarded({ type: 'fixed', amout: 1 }, { offer_id: 1 }),
        offer({ offer_id: 2, scope: { mcc: ['5411'] } }),
        rewarded({ type: 'tiers', mode: 'whole', tiers: [{ from: 1, rate: 1 }] }, { offer_id: 3 }),
      ]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OfferValidationError);
    expect((error as OfferValidationError).issues.map((i) => `${i.offer} ${i.path}`)).toEqual([
      '1 reward.amount',
      '1 reward.amout',
      '2 scope',
      '3 reward.tiers.0.from',
    ]);
  });
});
