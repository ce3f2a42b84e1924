import type { ParsedTransaction } from '../model/parseTransaction.js';
import type { OfferSet } from './compileOffers.js';
import type { CompiledOffer } from './offer.js';
import { inScope } from './scope.js';

// The offers a transaction is compared with, found through the indexes of an offer set (merchant
// key, merchant id, category code), never a scan of all offers (docs/concepts.md, Scopes).

const NONE: readonly string[] = [];

/** The lists merged by ascending `offer_id`; an offer in several of them once. */
function mergeById(lists: readonly (readonly CompiledOffer[])[]): CompiledOffer[] {
  const out: CompiledOffer[] = [];
  const at = lists.map(() => 0);
  for (;;) {
    let next: CompiledOffer | undefined;
    lists.forEach((list, k) => {
      const o = list[at[k] as number];
      if (o !== undefined && (next === undefined || o.offerId < next.offerId)) next = o;
    });
    if (next === undefined) return out;
    out.push(next);
    lists.forEach((list, k) => {
      if (list[at[k] as number] === next) at[k] = (at[k] as number) + 1;
    });
  }
}

/**
 * The candidate offers of a merchant, by ascending `offer_id`: the offers at its name (those with
 * that `merchant_name` and the scoped ones that list it), and the scoped offers that list its id
 * or its category code. Whether each holds the transaction (a scope's `exclude_merchants`) is the
 * check `scope`, made by matching.
 * @param offers - the offer set
 * @param merchantKey - the merchant key (normalised name)
 * @param merchantId - the merchant's id
 * @param categoryCode - its category code
 * @returns the candidates, or `undefined` when there are none
 */
export function candidatesOf(
  offers: OfferSet,
  merchantKey: string,
  merchantId: string,
  categoryCode: string,
): readonly CompiledOffer[] | undefined {
  const byName = offers.byMerchant.get(merchantKey);
  if (offers.byMerchantId.size === 0 && offers.byCategory.size === 0) return byName;
  const byId = offers.byMerchantId.get(merchantId);
  const byCode = offers.byCategory.get(categoryCode);
  if (byId === undefined && byCode === undefined) return byName;
  const lists = [byName, byId, byCode].filter((l) => l !== undefined);
  return lists.length === 1 ? lists[0] : mergeById(lists);
}

/**
 * The candidate offers of a parsed transaction (see {@link candidatesOf}).
 * @param offers - the offer set
 * @param tx - the transaction
 * @returns the candidates, or `undefined` when there are none
 */
export function candidatesOfTx(
  offers: OfferSet,
  tx: ParsedTransaction,
): readonly CompiledOffer[] | undefined {
  return candidatesOf(offers, tx.merchantKey, tx.merchant.id, tx.merchant.category_code);
}

/**
 * The `historyKey`s of the scoped offers that read earlier purchases and hold a merchant: the
 * purchase lists a purchase there joins besides its merchant key's (docs/concepts.md, Scopes).
 * @param offers - the offer set
 * @param merchantKey - the merchant key of a transaction or a stored purchase
 * @param merchantId - its merchant's id (`''` when a history item had none)
 * @param categoryCode - its category code (`''` when a history item had none)
 * @returns the keys, distinct (empty when there are none)
 */
export function scopeHistoryKeys(
  offers: OfferSet,
  merchantKey: string,
  merchantId: string,
  categoryCode: string,
): readonly string[] {
  if (offers.scopedHistory.length === 0) return NONE;
  const candidates = candidatesOf(offers, merchantKey, merchantId, categoryCode);
  if (candidates === undefined) return NONE;
  let keys: string[] | undefined;
  for (const o of candidates) {
    if (o.scope === undefined || !o.needsHistory) continue;
    if (!inScope(o.scope, merchantKey, merchantId, categoryCode)) continue;
    keys ??= [];
    if (!keys.includes(o.historyKey)) keys.push(o.historyKey);
  }
  return keys ?? NONE;
}

/**
 * Whether a purchase at a merchant is read by some offer's `audience` or `history` facts: at a
 * merchant key of a merchant-bound offer that reads them, or in such a scoped offer's scope.
 * @param offers - the offer set
 * @param merchantKey - the merchant key
 * @param merchantId - the merchant's id
 * @param categoryCode - its category code
 * @returns whether it is
 */
export function readsHistory(
  offers: OfferSet,
  merchantKey: string,
  merchantId: string,
  categoryCode: string,
): boolean {
  return (
    offers.historyKeys.has(merchantKey) ||
    scopeHistoryKeys(offers, merchantKey, merchantId, categoryCode).length > 0
  );
}
