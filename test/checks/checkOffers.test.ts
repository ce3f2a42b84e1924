import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { checkOffers, type OfferCheckRule } from '../../src/index.js';
import { offer } from '../fixtures.js';

type Raw = Record<string, unknown>;

/** The rules that fire on these offers, as `rule: ids`. */
function fired(offers: readonly Raw[], today?: string): string[] {
  const { findings } = checkOffers(offers, today === undefined ? {} : { today });
  return findings.map(
    (f) => `${f.rule}: ${f.offers.map((o) => o.offer_id ?? `#${o.index}`).join(',')}`,
  );
}
const only = (rule: OfferCheckRule, offers: readonly Raw[], today?: string) =>
  fired(offers, today).filter((line) => line.startsWith(`${rule}:`));
const when = (conditions: unknown, over: Raw = {}) => offer({ conditions, ...over });
const leaf = (fact: string, operator: string, value: unknown) => ({ fact, operator, value });

describe('checkOffers on the sample offers', () => {
  test('finds no error, only the two coffee house spellings, the inactive offer and an overlap', () => {
    const offers = JSON.parse(readFileSync('docs/examples/offers.json', 'utf8')) as Raw[];
    const report = checkOffers(offers, { today: '2025-06-01' });
    expect(report.counts).toEqual({ error: 0, warning: 2, info: 1 });
    expect(fired(offers, '2025-06-01')).toEqual([
      'merchant_name_variants: 1,2',
      'inactive: 6',
      'overlap: 1,2',
    ]);
  });
});

describe('invalid_offer and duplicate_offer_id', () => {
  test('reports every validation message with its path, and checks the valid offers still', () => {
    const { findings } = checkOffers([
      offer({ offer_id: 4, discount: 0, conditions: leaf('transaction.amount', 'lessThan', '9') }),
      offer({ offer_id: 5, active: false }),
    ]);
    expect(findings.map((f) => [f.rule, f.path, f.offers[0]?.index])).toEqual([
      ['invalid_offer', 'discount', 0],
      ['invalid_offer', 'conditions.value', 0],
      ['inactive', 'active', 1],
    ]);
  });
  test('reports two offers sharing an offer_id, and not two distinct ids', () => {
    expect(only('duplicate_offer_id', [offer(), offer({ merchant_name: 'Bakery' })])).toEqual([
      'duplicate_offer_id: 1,1',
    ]);
    expect(only('duplicate_offer_id', [offer(), offer({ offer_id: 2 })])).toEqual([]);
  });
});

describe('offers that can never pay', () => {
  test('expired: valid_to before today, but not valid_to on today', () => {
    const o = offer({ valid_to: '2025-05-31' });
    expect(only('expired', [o], '2025-06-01')).toEqual(['expired: 1']);
    expect(only('expired', [o], '2025-05-31')).toEqual([]);
    expect(only('expired', [o])).toEqual([]);
  });
  test('zero_max_cashback: 0.004 rounds down to 0 at 2 places, 0.01 does not', () => {
    expect(only('zero_max_cashback', [offer({ max_cashback: 0.004 })])).toEqual([
      'zero_max_cashback: 1',
    ]);
    expect(only('zero_max_cashback', [offer({ max_cashback: 0.01 })])).toEqual([]);
    expect(checkOffers([offer({ max_cashback: 0.004 })], { scale: 3 }).counts.error).toBe(0);
  });
});

describe('condition_never_true', () => {
  const never = (conditions: unknown, over: Raw = {}) =>
    only('condition_never_true', [when(conditions, over)]).length === 1;

  test('fires on contradictory ranges, and not on ranges that meet at one point', () => {
    const amount = (operator: string, value: number) => leaf('transaction.amount', operator, value);
    expect(never({ all: [amount('lessThan', 10), amount('greaterThan', 10)] })).toBe(true);
    expect(
      never({ all: [amount('lessThanInclusive', 10), amount('greaterThanInclusive', 10)] }),
    ).toBe(false);
  });
  test('knows an hour is a whole number from 0 to 23', () => {
    const hour = (operator: string, value: unknown) => leaf('transaction.hour', operator, value);
    expect(never(hour('greaterThan', 23))).toBe(true);
    expect(never({ all: [hour('greaterThan', 9), hour('lessThan', 10)] })).toBe(true);
    expect(never(hour('equal', 9.5))).toBe(true);
    expect(never({ all: [hour('greaterThan', 8), hour('lessThan', 10)] })).toBe(false);
    expect(
      never({ all: [hour('greaterThan', 8), hour('lessThan', 10), hour('notEqual', 9)] }),
    ).toBe(true);
  });
  test('combines the condition with the offer fields: min_amount, age, gender, audience', () => {
    expect(never(leaf('transaction.amount', 'lessThan', 20), { min_amount: 20 })).toBe(true);
    expect(never(leaf('transaction.amount', 'lessThanInclusive', 20), { min_amount: 20 })).toBe(
      false,
    );
    expect(never(leaf('customer.age', 'lessThan', 18), { age: ['18-25', '65+'] })).toBe(true);
    expect(never(leaf('customer.age', 'greaterThan', 70), { age: ['18-25', '65+'] })).toBe(false);
    expect(never(leaf('customer.gender', 'equal', 'Female'))).toBe(true);
    expect(never(leaf('customer.gender', 'equal', 'female'), { gender: ['M'] })).toBe(true);
    expect(never(leaf('customer.gender', 'equal', 'female'), { gender: ['F', 'female'] })).toBe(
      false,
    );
    const purchases = leaf('history.merchant_purchases', 'greaterThan', 0);
    expect(never(purchases, { audience: 'new' })).toBe(true);
    expect(never(purchases, { audience: 'returning' })).toBe(false);
  });
  test('knows the merchant name must match the offer merchant', () => {
    const name = (value: string) => leaf('transaction.merchant.name', 'equal', value);
    expect(never(name('Tea Room'))).toBe(true);
    expect(never(name('COFFEE  house'))).toBe(false);
  });
  test('handles not, any, in, notIn and the decorators', () => {
    const city = (operator: string, value: unknown) =>
      leaf('transaction.location.city', operator, value);
    expect(never({ all: [city('in', ['Paris', 'Lyon']), city('notIn', ['Lyon', 'Paris'])] })).toBe(
      true,
    );
    expect(never({ all: [city('in', ['Paris', 'Lyon']), city('notIn', ['Lyon'])] })).toBe(false);
    expect(
      never({ all: [city('equal', 'Paris'), { not: city('someValue:equal', ['Paris']) }] }),
    ).toBe(true);
    expect(never({ any: [city('equal', 'Paris'), city('not:equal', 'Paris')] })).toBe(false);
    const weekday = (operator: string, value: unknown) =>
      leaf('transaction.weekday', operator, value);
    expect(never(weekday('everyValue:greaterThan', [5, 7]))).toBe(true);
  });
  test('reports a missing days_since only where it can be missing', () => {
    const recent = leaf('history.days_since_last_merchant_purchase', 'not:lessThan', 400);
    // Not below 400: only a customer with no purchase in the lookback, so never a returning one.
    expect(never(recent, { audience: 'returning', lookback_days: 365 })).toBe(true);
    expect(never(recent)).toBe(false);
  });
  test('never fires on what it does not model: fact references and numeric tests on strings', () => {
    expect(never(leaf('transaction.amount', 'lessThan', { fact: 'transaction.amount' }))).toBe(
      false,
    );
    expect(never(leaf('transaction.merchant.category_code', 'greaterThan', 1e9))).toBe(false);
  });
});

describe('activation', () => {
  test('activation_unseen: requires_activation on an inactive or expired offer, not on a listed one', () => {
    const gated = (over: Raw = {}) => offer({ requires_activation: true, ...over });
    expect(only('activation_unseen', [gated({ active: false })])).toEqual(['activation_unseen: 1']);
    expect(only('activation_unseen', [gated({ valid_to: '2025-05-31' })], '2025-06-01')).toEqual([
      'activation_unseen: 1',
    ]);
    expect(only('activation_unseen', [gated()], '2025-06-01')).toEqual([]);
    expect(only('activation_unseen', [offer({ active: false })])).toEqual([]);
  });

  test('an offer that requires activation never makes another always lose', () => {
    const winner = offer({ requires_activation: true, discount: 10 });
    expect(only('always_loses', [winner, offer({ offer_id: 2 })])).toEqual([]);
    expect(
      only('always_loses', [
        offer({ discount: 10 }),
        offer({ offer_id: 2, requires_activation: true }),
      ]),
    ).toEqual(['always_loses: 2,1']);
  });
});

describe('always_loses', () => {
  const base = { offer_id: 1, discount: 10 };
  test('fires when a lower id pays at least as much to a superset of customers', () => {
    const loser = { offer_id: 2, discount: 5, age: ['18-25'], min_amount: 10 };
    expect(only('always_loses', [offer(base), offer(loser)])).toEqual(['always_loses: 2,1']);
  });
  test('fires on age bands covered by several bands of the winner', () => {
    const winner = offer({ ...base, age: ['18-30', '31-40'] });
    expect(only('always_loses', [winner, offer({ offer_id: 2, age: ['20-35'] })])).toEqual([
      'always_loses: 2,1',
    ]);
    expect(only('always_loses', [winner, offer({ offer_id: 2, age: ['20-45'] })])).toEqual([]);
  });
  test('covers open-ended bands: 18+ covers 65+, and 0+ covers any age', () => {
    const senior = offer({ offer_id: 2, age: ['65+'] });
    expect(only('always_loses', [offer({ ...base, age: ['18+'] }), senior])).toEqual([
      'always_loses: 2,1',
    ]);
    const anyAge = offer({ offer_id: 2, age: [] });
    expect(only('always_loses', [offer({ ...base, age: ['0+'] }), anyAge])).toEqual([
      'always_loses: 2,1',
    ]);
    expect(only('always_loses', [offer({ ...base, age: ['1+'] }), anyAge])).toEqual([]);
  });
  test('does not fire when the would-be winner has the higher id (ties go to the loser)', () => {
    // 3 pays 10%, 2 pays 5%: on small amounts both round alike, and 2 wins those ties.
    expect(
      only('always_loses', [offer({ ...base, offer_id: 3 }), offer({ offer_id: 2, discount: 5 })]),
    ).toEqual([]);
    // The same payments with the ids the other way round: 3 never wins.
    expect(
      only('always_loses', [offer({ ...base, offer_id: 2 }), offer({ offer_id: 3, discount: 5 })]),
    ).toEqual(['always_loses: 3,2']);
  });
  test('does not fire when the winner is valid on fewer days, caps lower, or has conditions', () => {
    const loser = offer({ offer_id: 2, discount: 5 });
    expect(only('always_loses', [offer({ ...base, valid_to: '2025-11-30' }), loser])).toEqual([]);
    expect(only('always_loses', [offer({ ...base, max_cashback: 5 }), loser])).toEqual([]);
    expect(
      only('always_loses', [when(leaf('transaction.hour', 'lessThan', 10), base), loser]),
    ).toEqual([]);
  });
  test('fires on a lower discount that already pays the loser cap at its min_amount', () => {
    const loser = offer({ offer_id: 2, discount: 50, max_cashback: 1, min_amount: 20 });
    expect(only('always_loses', [offer({ ...base, discount: 5 }), loser])).toEqual([
      'always_loses: 2,1',
    ]);
    const cheaper = offer({ offer_id: 2, discount: 50, max_cashback: 1, min_amount: 19 });
    expect(only('always_loses', [offer({ ...base, discount: 5 }), cheaper])).toEqual([]);
  });
});

describe('merchant_name_variants', () => {
  test('fires on Café and CAFE with a combining accent, not on Cafe', () => {
    const cafe = (id: number, merchant_name: string) => offer({ offer_id: id, merchant_name });
    expect(only('merchant_name_variants', [cafe(1, 'Café'), cafe(2, 'CAFE\u0301')])).toEqual([
      'merchant_name_variants: 1,2',
    ]);
    expect(only('merchant_name_variants', [cafe(1, 'Café'), cafe(2, 'Cafe')])).toEqual([]);
    expect(only('merchant_name_variants', [cafe(1, 'Café'), cafe(2, 'Café')])).toEqual([]);
  });
});

describe('overlap', () => {
  test('says which pays most for which amounts', () => {
    const { findings } = checkOffers([
      offer({ discount: 5 }),
      offer({ offer_id: 2, discount: 8, max_cashback: 0.5 }),
    ]);
    expect(findings.find((f) => f.rule === 'overlap')?.message).toContain(
      'the most is paid by 2 up to 10, then 1 above',
    );
  });
  test('stays silent for offers on days that do not meet', () => {
    const june = offer({ valid_from: '2025-06-01', valid_to: '2025-06-30' });
    const july = offer({ offer_id: 2, valid_from: '2025-07-01', valid_to: '2025-07-31' });
    expect(only('overlap', [june, july])).toEqual([]);
  });
});

/** An offer paying `reward`, at its merchant or (with `scope`) scoped. */
function rewarded(reward: unknown, over: Raw = {}): Raw {
  const { discount: _, ...rest } = offer(over);
  return { ...rest, reward };
}
function scopedOffer(scope: unknown, over: Raw = {}): Raw {
  const { merchant_name: _, ...rest } = offer(over);
  return { ...rest, scope };
}
const tiers = (mode: string, ...list: [number, number][]) => ({
  type: 'tiers',
  mode,
  tiers: list.map(([from, rate]) => ({ from, rate })),
});

describe('rewards that cannot act as meant', () => {
  test('tier_unreachable: below min_amount in whole mode, past max_cashback in marginal mode, past every amount', () => {
    const { findings } = checkOffers([
      rewarded(tiers('whole', [0, 1], [20, 2], [50, 3]), { min_amount: 20 }),
      rewarded(tiers('marginal', [0, 10], [100, 5], [200, 1]), { offer_id: 2, max_cashback: 15 }),
      rewarded(tiers('marginal', [0, 1], [1e12, 5]), { offer_id: 3 }),
    ]);
    const tiered = findings.filter((f) => f.rule === 'tier_unreachable');
    expect(tiered.map((f) => [f.rule, f.offers[0]?.offer_id, f.path, f.message])).toEqual([
      [
        'tier_unreachable',
        1,
        'reward.tiers.0',
        'tier 0 (rate 1%) never applies: it ends at 20, at or below min_amount 20: every purchase that qualifies is in a later tier',
      ],
      [
        'tier_unreachable',
        2,
        'reward.tiers.2',
        'tier 2 (rate 1%) never applies: it starts at 200, where the tiers before it already pay max_cashback 15',
      ],
      [
        'tier_unreachable',
        3,
        'reward.tiers.1',
        'tier 1 (rate 5%) never applies: it starts at 1000000000000, above every amount the engine accepts (1000000000000)',
      ],
    ]);
    expect(
      only('tier_unreachable', [rewarded(tiers('marginal', [0, 1], [20, 2]), { min_amount: 50 })]),
    ).toEqual([]);
  });

  test('fixed_covers_purchase: a fixed amount at or above min_amount, or without one', () => {
    const fixed = { type: 'fixed', amount: 10 };
    expect(only('fixed_covers_purchase', [rewarded(fixed, { min_amount: 75 })])).toEqual([]);
    expect(only('fixed_covers_purchase', [rewarded(fixed, { min_amount: 10 })])).toEqual([
      'fixed_covers_purchase: 1',
    ]);
    const [finding] = checkOffers([rewarded(fixed, { max_cashback: 4 })]).findings;
    expect(finding?.message).toBe(
      'the fixed reward pays up to 4 and the offer has no min_amount: any purchase up to 4 earns its whole amount back',
    );
    expect(
      only('fixed_covers_purchase', [rewarded(fixed, { min_amount: 5, max_cashback: 4 })]),
    ).toEqual([]);
  });

  test('eligible_below_minimum: max_eligible_amount below min_amount', () => {
    const capped = { type: 'percent', rate: 5, max_eligible_amount: 50 };
    expect(only('eligible_below_minimum', [rewarded(capped, { min_amount: 100 })])).toEqual([
      'eligible_below_minimum: 1',
    ]);
    expect(only('eligible_below_minimum', [rewarded(capped, { min_amount: 50 })])).toEqual([]);
  });
});

describe('scoped offers', () => {
  test('always_loses: a merchant-bound offer that a scoped one with a lower id always beats', () => {
    const wide = scopedOffer({ merchants: ['Coffee House', 'Bakery'] }, { discount: 8 });
    const bound = offer({ offer_id: 2, discount: 5 });
    expect(only('always_loses', [wide, bound])).toEqual(['always_loses: 2,1']);
    // A scope that excludes the name, or finds it by category only, proves nothing.
    const excluding = scopedOffer(
      { mcc: ['5812'], merchants: ['Coffee House'], exclude_merchants: ['coffee house'] },
      { discount: 8 },
    );
    expect(only('always_loses', [excluding, bound])).toEqual([]);
    expect(only('always_loses', [scopedOffer({ mcc: ['5812'] }, { discount: 8 }), bound])).toEqual(
      [],
    );
    // Nor does one that asks for a channel the other does not.
    expect(only('always_loses', [{ ...wide, channels: ['online'] }, bound])).toEqual([]);
    // A scoped offer is never reported as always losing.
    expect(
      only('always_loses', [
        offer({ discount: 9 }),
        scopedOffer({ merchants: ['Coffee House'] }, { offer_id: 2 }),
      ]),
    ).toEqual([]);
  });

  test('scope_unmatched: only with a sample, for scopes and merchants none of its transactions is in', () => {
    const offers = [
      scopedOffer({ mcc: ['5411'] }),
      scopedOffer({ merchant_ids: ['m-9'] }, { offer_id: 2 }),
      offer({ offer_id: 3, merchant_name: 'Bakery' }),
      offer({ offer_id: 4 }),
    ];
    const sample = [
      { merchant: { id: 'm-1', name: ' coffee HOUSE', category_code: '5411' } },
      { merchant: { name: 'Florist' } },
      'not a transaction',
    ];
    const { findings } = checkOffers(offers, { sample });
    expect(findings.map((f) => [f.rule, f.offers[0]?.offer_id, f.path])).toEqual([
      ['scope_unmatched', 2, 'scope'],
      ['scope_unmatched', 3, 'merchant_name'],
    ]);
    expect(findings[0]?.message).toBe(
      'no transaction of the sample (3) is in its scope: the offer would pay none of them',
    );
    expect(only('scope_unmatched', offers)).toEqual([]);
  });

  test('merchant_name_variants and overlap read the names a scope lists', () => {
    const offers = [offer(), scopedOffer({ merchants: ['COFFEE house'] }, { offer_id: 2 })];
    expect(fired(offers)).toEqual(['merchant_name_variants: 1,2', 'overlap: 1,2']);
  });
});

describe('checkOffers options', () => {
  test('rejects an unknown option and a today that is not a date', () => {
    expect(() => checkOffers([], { todya: '2025-01-01' } as never)).toThrow(/did you mean 'today'/);
    expect(() => checkOffers([], { today: '2025-13-01' })).toThrow(RangeError);
  });
});
