import { Money } from '../../model/money.js';
import { preparedInvariant } from '../_internals/preparedInvariant.js';
import { describePayment } from '../_internals/replayInput.js';
import { slack } from './cashbackWithinBounds.js';

/**
 * Checks that `marginal` tiers never pay more than their top rate on the whole amount
 * (docs/concepts.md, Rewards): each tier's rate is on its part of the amount only, so the sum is
 * at most the highest rate on all of it, plus what rounding may add.
 * @param input - what `replay` was given
 * @param result - what it returned
 * @param options - the options `replay` was given (scale and rounding)
 * @throws Error naming the first payment above that
 * @example
 * ```ts
 * invariants.marginalWithinTopRate(scenario, replay(scenario));
 * ```
 * @public
 */
export const marginalWithinTopRate = preparedInvariant((prepared, result) => {
  const { scale, rounding } = prepared.options;
  const extra = new Money(10).pow(-scale).times(slack(rounding));
  for (const p of result.payments) {
    const reward = prepared.offer(p.offer_id)?.reward;
    const tx = prepared.paidTransaction(p);
    if (reward?.type !== 'tiers' || reward.mode !== 'marginal' || tx === undefined) continue;
    const top = Money.max(...reward.tiers.map((t) => t.rate));
    const bound = tx.amount.decimal.times(top).div(100);
    if (p.cashback > bound.plus(extra).toNumber()) {
      throw new Error(
        `${describePayment(p)}: marginal tiers pay more than the top rate ${top.toFixed()}% of the whole amount ${tx.amount.text} (${bound.toFixed()})`,
      );
    }
  }
});
