import { Money, type MoneyValue } from '../../model/money.js';

// What an offer's reward pays before rounding, as the invariants read it (docs/concepts.md,
// Rewards): worked out here with decimal.js from the offer as sent, not by the engine's own
// functions, so that an invariant does not agree with the engine when the engine is wrong.

/** A reward as the invariants read it. */
export type RewardTerms =
  | { readonly type: 'percent'; readonly rate: MoneyValue; readonly maxEligible?: MoneyValue }
  | { readonly type: 'fixed'; readonly amount: MoneyValue }
  | {
      readonly type: 'tiers';
      readonly mode: 'whole' | 'marginal';
      readonly tiers: readonly { readonly from: MoneyValue; readonly rate: MoneyValue }[];
    };

/** A number or a plain decimal string as a decimal; `undefined` for anything else. */
function decimalOf(v: unknown): MoneyValue | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return new Money(String(v));
  if (typeof v === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(v)) return new Money(v);
  return undefined;
}

/** The tiers of a `tiers` reward as sent; `undefined` when one is unreadable. */
function tiersOf(v: unknown): { from: MoneyValue; rate: MoneyValue }[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const tiers = v.map((t) => {
    const { from, rate } = (t ?? {}) as { from?: unknown; rate?: unknown };
    return { from: decimalOf(from), rate: decimalOf(rate) };
  });
  if (tiers.some((t) => t.from === undefined || t.rate === undefined)) return undefined;
  return tiers as { from: MoneyValue; rate: MoneyValue }[];
}

/**
 * An offer's reward as sent: its `discount` as a percentage, or its `reward`.
 * @param offer - the offer as sent
 * @returns the terms, or `undefined` when neither is readable
 */
export function rewardTermsOf(offer: {
  readonly discount?: unknown;
  readonly reward?: unknown;
}): RewardTerms | undefined {
  const discount = decimalOf(offer.discount);
  if (discount !== undefined) return { type: 'percent', rate: discount };
  const r = (offer.reward ?? {}) as Record<string, unknown>;
  if (r.type === 'percent') {
    const rate = decimalOf(r.rate);
    const maxEligible = decimalOf(r.max_eligible_amount);
    if (rate === undefined) return undefined;
    return maxEligible === undefined
      ? { type: 'percent', rate }
      : { type: 'percent', rate, maxEligible };
  }
  if (r.type === 'fixed') {
    const amount = decimalOf(r.amount);
    return amount === undefined ? undefined : { type: 'fixed', amount };
  }
  const tiers = tiersOf(r.tiers);
  if (r.type !== 'tiers' || tiers === undefined) return undefined;
  if (r.mode !== 'whole' && r.mode !== 'marginal') return undefined;
  return { type: 'tiers', mode: r.mode, tiers };
}

/**
 * What a reward pays on an amount before rounding and `max_cashback`.
 * @param terms - the reward
 * @param amount - the transaction's amount
 * @returns the exact value
 */
export function rewardOn(terms: RewardTerms, amount: MoneyValue): MoneyValue {
  switch (terms.type) {
    case 'percent': {
      const m = terms.maxEligible;
      return (m?.lt(amount) ? m : amount).times(terms.rate).div(100);
    }
    case 'fixed':
      return Money.min(terms.amount, amount);
    case 'tiers': {
      if (terms.mode === 'whole') {
        const reached = terms.tiers.filter((t) => t.from.lte(amount));
        return amount.times(reached.at(-1)?.rate ?? 0).div(100);
      }
      return terms.tiers.reduce((sum, t, i) => {
        const top = Money.min(amount, terms.tiers[i + 1]?.from ?? amount);
        return top.gt(t.from) ? sum.plus(top.minus(t.from).times(t.rate).div(100)) : sum;
      }, new Money(0));
    }
  }
}

/**
 * A reward in the words of an invariant's message.
 * @param terms - the reward
 * @returns its words
 */
export function describeReward(terms: RewardTerms): string {
  switch (terms.type) {
    case 'percent':
      return terms.maxEligible === undefined
        ? `discount ${terms.rate.toFixed()}`
        : `${terms.rate.toFixed()}% of at most ${terms.maxEligible.toFixed()}`;
    case 'fixed':
      return `fixed ${terms.amount.toFixed()}`;
    case 'tiers':
      return `${terms.mode} tiers ${terms.tiers.map((t) => `${t.rate.toFixed()}% from ${t.from.toFixed()}`).join(', ')}`;
  }
}
