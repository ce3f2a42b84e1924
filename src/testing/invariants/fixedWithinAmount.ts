import { Money } from '../../model/money.js';
import { preparedInvariant } from '../_internals/preparedInvariant.js';
import { describePayment } from '../_internals/replayInput.js';
import { slack } from './cashbackWithinBounds.js';

/**
 * Checks that a fixed reward never pays more than the purchase (docs/concepts.md, Rewards): every
 * payment of an offer with a `fixed` reward is at most the transaction's amount, and at most the
 * fixed amount, beyond what rounding the amount to `scale` may add (an amount with more places
 * than `scale` is rounded once, as every cashback is).
 * @param input - what `replay` was given
 * @param result - what it returned
 * @param options - the options `replay` was given (scale and rounding)
 * @throws Error naming the first payment above its purchase or its fixed amount
 * @example
 * ```ts
 * invariants.fixedWithinAmount(scenario, replay(scenario));
 * ```
 * @public
 */
export const fixedWithinAmount = preparedInvariant((prepared, result) => {
  const { scale, rounding } = prepared.options;
  const extra = new Money(10).pow(-scale).times(slack(rounding));
  for (const p of result.payments) {
    const reward = prepared.offer(p.offer_id)?.reward;
    const tx = prepared.paidTransaction(p);
    if (reward?.type !== 'fixed' || tx === undefined) continue;
    if (p.cashback > reward.amount.toNumber()) {
      throw new Error(`${describePayment(p)}: pays more than the fixed ${reward.amount.toFixed()}`);
    }
    if (p.cashback > tx.amount.decimal.plus(extra).toNumber()) {
      throw new Error(
        `${describePayment(p)}: a fixed reward pays more than the purchase of ${tx.amount.text}`,
      );
    }
  }
});
