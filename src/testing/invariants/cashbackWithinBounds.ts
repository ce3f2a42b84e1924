import { Money } from '../../model/money.js';
import { preparedInvariant } from '../_internals/preparedInvariant.js';
import { describePayment } from '../_internals/replayInput.js';
import { describeReward, rewardOn } from '../_internals/rewardTerms.js';

/** How far rounding may move a value up, in units of the last place. */
export function slack(rounding: string): number {
  if (rounding === 'up' || rounding === 'ceil') return 1;
  if (rounding === 'down' || rounding === 'floor') return 0;
  return 0.5;
}

/**
 * Checks every payment's cashback (docs/concepts.md, Selection, cashback and payment): above 0 (a rounded 0 pays nothing), at most
 * `scale` decimals, at most the offer's `max_cashback`, and at most what its reward pays on the
 * amount (`amount × discount / 100` for a discount; docs/concepts.md, Rewards) plus what rounding
 * may add: half a unit of the last place for the `half-*` modes, a whole one for `up` and `ceil`,
 * none for `down` and `floor`. Cashback is a JSON number, so the bounds are compared as the
 * doubles nearest to them.
 * @param input - what `replay` was given
 * @param result - what it returned
 * @param options - the options `replay` was given (time zone, scale, rounding)
 * @throws Error naming the first payment out of bounds
 * @example
 * ```ts
 * invariants.cashbackWithinBounds(scenario, replay(scenario, { scale: 3 }), { scale: 3 });
 * ```
 * @public
 */
export const cashbackWithinBounds = preparedInvariant((prepared, result) => {
  const { scale, rounding } = prepared.options;
  const lastPlace = new Money(10).pow(-scale);
  for (const p of result.payments) {
    const fail = (why: string) => new Error(`${describePayment(p)}: ${why}`);
    const offer = prepared.offer(p.offer_id);
    const tx = prepared.paidTransaction(p);
    if (offer === undefined) throw fail('no such offer');
    if (tx === undefined) throw fail('no valid submitted transaction with this id and customer');
    const c = p.cashback;
    if (!(Number.isFinite(c) && c > 0)) throw fail('cashback must be a number above 0');
    if (new Money(String(c)).decimalPlaces() > scale)
      throw fail(`cashback has more than ${scale} decimals`);
    const cap = offer.maxCashback?.decimal;
    if (cap !== undefined && c > cap.toNumber())
      throw fail(`cashback exceeds max_cashback ${cap.toFixed()}`);
    const reward = offer.reward;
    const raw = rewardOn(reward, tx.amount.decimal);
    const bound = raw.plus(lastPlace.times(slack(rounding)));
    if (c > bound.toNumber()) {
      const what =
        reward.type === 'percent' && reward.maxEligible === undefined
          ? `amount ${tx.amount.text} × discount ${reward.rate.toFixed()} / 100`
          : `${describeReward(reward)} on amount ${tx.amount.text}`;
      throw fail(
        `cashback exceeds ${what} = ${raw.toFixed()} rounded ${rounding} to ${scale} places`,
      );
    }
  }
});
