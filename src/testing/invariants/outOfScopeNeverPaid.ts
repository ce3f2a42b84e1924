import { merchantKey } from '../../model/normalise.js';
import { preparedInvariant } from '../_internals/preparedInvariant.js';
import { describePayment, type PlaceTerms } from '../_internals/replayInput.js';

/** Why a merchant is not where an offer pays, or `undefined` when it is. */
function outside(
  place: PlaceTerms,
  merchant: { readonly id: string; readonly name: string; readonly category_code: string },
): string | undefined {
  const key = merchantKey(merchant.name);
  const keys = (names: readonly string[]) => names.map(merchantKey);
  if (place.scope === undefined) {
    return place.merchantName !== undefined && merchantKey(place.merchantName) === key
      ? undefined
      : `merchant '${merchant.name}' is not the offer's '${place.merchantName ?? ''}'`;
  }
  const s = place.scope;
  if (keys(s.exclude).includes(key))
    return `merchant '${merchant.name}' is excluded from the scope`;
  const inside =
    keys(s.merchants).includes(key) ||
    s.merchantIds.includes(merchant.id) ||
    s.mcc.includes(merchant.category_code);
  return inside ? undefined : `merchant '${merchant.name}' is not in the offer's scope`;
}

/**
 * Checks that no transaction is paid by an offer it is out of reach of (docs/concepts.md,
 * Scopes): the paid transaction is at the offer's merchant (normalised names equal) or in its
 * scope (its name, id or category code listed, its name not excluded), and, when the offer has
 * `channels`, on one of them.
 * @param input - what `replay` was given
 * @param result - what it returned
 * @param options - the options `replay` was given (the time zone matters)
 * @throws Error naming the first payment out of scope or channel
 * @example
 * ```ts
 * invariants.outOfScopeNeverPaid(scenario, replay(scenario));
 * ```
 * @public
 */
export const outOfScopeNeverPaid = preparedInvariant((prepared, result) => {
  for (const p of result.payments) {
    const offer = prepared.offer(p.offer_id);
    const tx = prepared.paidTransaction(p);
    if (offer === undefined || tx === undefined) {
      throw new Error(`${describePayment(p)}: no such offer or transaction`);
    }
    const why = outside(offer.place, tx.merchant);
    if (why !== undefined) throw new Error(`${describePayment(p)}: ${why}`);
    const channels = offer.place.channels;
    if (channels !== undefined && (tx.channel === undefined || !channels.includes(tx.channel))) {
      throw new Error(
        `${describePayment(p)}: channel ${tx.channel ?? '(none)'} is not in ${channels.join(', ')}`,
      );
    }
  }
});
