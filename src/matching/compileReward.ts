import { type ExactAmount, parseAmount, parseAmountOrZero } from '../model/money.js';
import type { RewardInput } from '../model/schemas.js';
import type { CompiledReward } from './offer.js';

/** An amount the schema has already accepted. */
function exact(v: string | number): ExactAmount {
  return parseAmount(v) as ExactAmount;
}

/**
 * An offer's reward as matching reads it (docs/concepts.md, Rewards): `discount: d` is
 * `{ type: 'percent', rate: d }`.
 * @param discount - the offer's `discount`, when it has one
 * @param reward - its `reward` otherwise, as the schema accepted it
 * @returns the compiled reward
 */
export function compileReward(
  discount: string | number | undefined,
  reward: RewardInput | undefined,
): CompiledReward {
  if (discount !== undefined || reward === undefined) {
    return { type: 'percent', rate: exact(discount ?? 0), maxEligible: undefined };
  }
  switch (reward.type) {
    case 'percent':
      return {
        type: 'percent',
        rate: exact(reward.rate),
        maxEligible:
          reward.max_eligible_amount === undefined ? undefined : exact(reward.max_eligible_amount),
      };
    case 'fixed':
      return { type: 'fixed', amount: exact(reward.amount) };
    case 'tiers':
      return {
        type: 'tiers',
        mode: reward.mode,
        tiers: reward.tiers.map((t) => ({
          from: parseAmountOrZero(t.from) as ExactAmount,
          rate: parseAmountOrZero(t.rate) as ExactAmount,
        })),
      };
  }
}

/**
 * Why a fixed reward cannot be paid as it is at `scale` places (it has more decimals), or
 * `undefined` when it can: a fixed amount is paid as written, never rounded
 * (docs/concepts.md, Rewards).
 * @param reward - the offer's `reward` as sent
 * @param scale - decimal places of cashback
 * @returns the problem, if any
 */
export function fixedScaleIssue(reward: unknown, scale: number): string | undefined {
  if (typeof reward !== 'object' || reward === null) return undefined;
  const r = reward as { type?: unknown; amount?: unknown };
  if (r.type !== 'fixed') return undefined;
  const a = parseAmount(r.amount);
  if (typeof a === 'string' || a.scale <= scale) return undefined;
  return `must have at most ${scale} decimal places (the scale of cashback)`;
}
