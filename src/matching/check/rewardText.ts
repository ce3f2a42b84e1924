import type { CompiledReward } from '../offer.js';

/**
 * A reward in the words of a finding: `discount 5%`, `5% of at most 200`, `fixed 10`,
 * `marginal tiers 1% from 0, 5% from 20`.
 * @param reward - the reward
 * @returns its words
 */
export function rewardText(reward: CompiledReward): string {
  switch (reward.type) {
    case 'percent':
      return reward.maxEligible === undefined
        ? `discount ${reward.rate.text}%`
        : `${reward.rate.text}% of at most ${reward.maxEligible.text}`;
    case 'fixed':
      return `fixed ${reward.amount.text}`;
    case 'tiers':
      return `${reward.mode} tiers ${reward.tiers.map((t) => `${t.rate.text}% from ${t.from.text}`).join(', ')}`;
  }
}

/**
 * The rate of a plain percentage (a `discount`, or a `percent` reward without
 * `max_eligible_amount`), whose cashback is a straight line of the amount; `undefined` for any
 * other reward.
 * @param reward - the reward
 * @returns the rate, if the reward is one
 */
export function plainRate(reward: CompiledReward): number | undefined {
  return reward.type === 'percent' && reward.maxEligible === undefined
    ? Number(reward.rate.text)
    : undefined;
}
