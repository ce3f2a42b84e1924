import type { ParsedTransaction } from '../model/parseTransaction.js';
import type { CompiledOffer } from './offer.js';
import { inScope } from './scope.js';

/** The indexes of an offer set these functions read (an `OfferSet` is one). */
export interface OfferIndexes {
  readonly byMerchant: ReadonlyMap<string, readonly CompiledOffer[]>;
  readonly byMerchantId: ReadonlyMap<string, readonly CompiledOffer[]>;
  readonly byCategory: ReadonlyMap<string, readonly CompiledOffer[]>;
  readonly historyKeys: ReadonlySet<string>;
  readonly scopedHistory: readonly CompiledOffer[];
}

// The offers a transaction is compared with, found through the indexes of an offer set (merchant
// key, merchant id, category code), never a scan of all offers (docs/concepts.md, Scopes).

const NONE: readonly string[] = [];

/** The lists merged by ascending `offer_id`; an offer in several of them once. */
function mergeById(lists: readonly (readonly CompiledOffer[])[]): CompiledOffer[] {
  const out: CompiledOffer[] = [];
  for (const list of lists) for (const o of list) if (!out.includes(o)) out.push(o);
  return out.sort((a, b) => a.offerId - b.offerId);
}

/** No list: a key of {@link MERGED} where an index has none. */
const NO_LIST: readonly CompiledOffer[] = [];

/**
 * Merged candidate lists, by the index lists they merge (name, id, category). The lists of an offer
 * set never change, so a merge is made once per combination met: a transaction at a merchant
 * found by two indexes allocates nothing (docs/benchmarks.md, Rewards and scopes). Weak keys: a
 * set's merges go with it.
 */
const MERGED = new WeakMap<
  readonly CompiledOffer[],
  WeakMap<readonly CompiledOffer[], WeakMap<readonly CompiledOffer[], CompiledOffer[]>>
>();

/** The merge of three index lists (`NO_LIST` for none), made once. */
function merged(
  byName: readonly CompiledOffer[],
  byId: readonly CompiledOffer[],
  byCode: readonly CompiledOffer[],
): readonly CompiledOffer[] {
  let second = MERGED.get(byName);
  if (second === undefined) {
    second = new WeakMap();
    MERGED.set(byName, second);
  }
  let third = second.get(byId);
  if (third === undefined) {
    third = new WeakMap();
    second.set(byId, third);
  }
  let out = third.get(byCode);
  if (out === undefined) {
    out = mergeById([byName, byId, byCode]);
    third.set(byCode, out);
  }
  return out;
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
  offers: OfferIndexes,
  merchantKey: string,
  merchantId: string,
  categoryCode: string,
): readonly CompiledOffer[] | undefined {
  const byName = offers.byMerchant.get(merchantKey);
  const ids = offers.byMerchantId;
  const codes = offers.byCategory;
  if (ids.size === 0 && codes.size === 0) return byName;
  const byId = ids.size === 0 ? undefined : ids.get(merchantId);
  const byCode = codes.size === 0 ? undefined : codes.get(categoryCode);
  if (byId === undefined && byCode === undefined) return byName;
  if (byName === undefined && byId === undefined) return byCode;
  if (byName === undefined && byCode === undefined) return byId;
  return merged(byName ?? NO_LIST, byId ?? NO_LIST, byCode ?? NO_LIST);
}

/**
 * The candidate offers of a parsed transaction (see {@link candidatesOf}).
 * @param offers - the offer set
 * @param tx - the transaction
 * @returns the candidates, or `undefined` when there are none
 */
export function candidatesOfTx(
  offers: OfferIndexes,
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
  offers: OfferIndexes,
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
 * The keys of every purchase list a purchase at a merchant joins: its merchant key when a
 * merchant-bound offer there reads history, and {@link scopeHistoryKeys}.
 * @param offers - the offer set
 * @param merchantKey - the merchant key
 * @param merchantId - the merchant's id (`''` when a history item had none)
 * @param categoryCode - its category code (`''` when a history item had none)
 * @returns the keys (empty when no offer reads a purchase there)
 */
export function historyKeysOf(
  offers: OfferIndexes,
  merchantKey: string,
  merchantId: string,
  categoryCode: string,
): readonly string[] {
  const scoped = scopeHistoryKeys(offers, merchantKey, merchantId, categoryCode);
  if (!offers.historyKeys.has(merchantKey)) return scoped;
  return scoped.length === 0 ? [merchantKey] : [merchantKey, ...scoped];
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
  offers: OfferIndexes,
  merchantKey: string,
  merchantId: string,
  categoryCode: string,
): boolean {
  return (
    offers.historyKeys.has(merchantKey) ||
    scopeHistoryKeys(offers, merchantKey, merchantId, categoryCode).length > 0
  );
}
