import { type ExactAmount, ExactMoney, type MoneyValue, parseAmount } from '../../model/money.js';
import type { ResolvedOptions } from '../../model/options.js';
import { capAtScale } from '../cashback.js';
import type { CompiledOffer, CompiledTier } from '../offer.js';
import { type OfferCheck, ref } from './CheckContext.js';
import type { OfferFinding } from './OfferFinding.js';

/** The largest transaction amount the engine accepts (docs/concepts.md, Input rules). */
const LARGEST_AMOUNT = parseAmount('1000000000000') as ExactAmount;

type Finding = Omit<OfferFinding, 'rule' | 'level' | 'offers'>;

/** Why tier `i` of an offer never changes what is paid, if it never does. */
function whyUnreachable(
  offer: CompiledOffer,
  tiers: readonly CompiledTier[],
  i: number,
  whole: boolean,
  cap: MoneyValue | undefined,
  before: MoneyValue,
): string | undefined {
  const tier = tiers[i] as CompiledTier;
  const next = tiers[i + 1];
  const from = tier.from.decimal;
  // A `whole` tier is reached at its `from`; a `marginal` one pays on the part above it.
  if (whole ? from.gt(LARGEST_AMOUNT.decimal) : from.gte(LARGEST_AMOUNT.decimal)) {
    return `starts at ${tier.from.text}, above every amount the engine accepts (${LARGEST_AMOUNT.text})`;
  }
  const min = offer.minAmount;
  if (whole && min !== undefined && next?.from.decimal.lte(min.decimal)) {
    return `ends at ${next.from.text}, at or below min_amount ${min.text}: every purchase that qualifies is in a later tier`;
  }
  if (!whole && cap !== undefined && before.gte(cap)) {
    return `starts at ${tier.from.text}, where the tiers before it already pay max_cashback ${offer.maxCashback?.text ?? ''}`;
  }
  return undefined;
}

/** Every tier of an offer's tiered reward that never changes what is paid, with why. */
function unreachableTiers(offer: CompiledOffer, options: ResolvedOptions): Finding[] {
  const reward = offer.reward;
  if (reward.type !== 'tiers') return [];
  const whole = reward.mode === 'whole';
  const cap = offer.maxCashback === undefined ? undefined : capAtScale(offer.maxCashback, options);
  const findings: Finding[] = [];
  // What the tiers before each one pay on the whole of their parts (marginal), unrounded.
  let before: MoneyValue = new ExactMoney(0);
  reward.tiers.forEach((tier, i) => {
    const why = whyUnreachable(offer, reward.tiers, i, whole, cap, before);
    if (why !== undefined) {
      findings.push({
        message: `tier ${i} (rate ${tier.rate.text}%) never applies: it ${why}`,
        path: `reward.tiers.${i}`,
      });
    }
    const next = reward.tiers[i + 1];
    if (next !== undefined) {
      before = before.plus(
        next.from.decimal.minus(tier.from.decimal).times(tier.rate.decimal).div(100),
      );
    }
  });
  return findings;
}

/**
 * `tier_unreachable` (warning): a tier of a tiered reward that never changes what is paid: it
 * starts above the largest amount the engine accepts; in `whole` mode, it ends at or below
 * `min_amount` (every qualifying purchase is in a later tier); in `marginal` mode, the tiers
 * before it already pay `max_cashback` (docs/concepts.md, Rewards).
 */
export const tierUnreachable: OfferCheck = (ctx) =>
  ctx.offers.flatMap((offer) =>
    offer.compiled === undefined
      ? []
      : unreachableTiers(offer.compiled, ctx.options).map((f) => ({
          rule: 'tier_unreachable' as const,
          level: 'warning' as const,
          offers: [ref(offer)],
          ...f,
        })),
  );
