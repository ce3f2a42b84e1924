import { merchantKey } from '../../model/normalise.js';
import type { CompiledOffer } from '../offer.js';
import { type OfferCheck, ref } from './CheckContext.js';

/** How an offer spells the names of a merchant key: its `merchant_name`, or its scope's names. */
function spellings(offer: CompiledOffer, key: string): string[] {
  const o = offer.offer;
  if (o.merchant_name !== undefined) return [o.merchant_name];
  return (o.scope?.merchants ?? []).filter((name) => merchantKey(name) === key);
}

/**
 * `merchant_name_variants`: offers whose merchant names (`merchant_name`, or names in
 * `scope.merchants`) are spelt differently but meet the same merchants once normalised (Unicode
 * NFKC, trimmed, white space folded, lower-cased: `Café` and `CAFE\u0301`), which the author may
 * not expect.
 */
export const merchantNameVariants: OfferCheck = (ctx) =>
  [...ctx.byMerchant].flatMap(([key, group]) => {
    const names = new Set(group.flatMap((offer) => spellings(offer.compiled, key)));
    if (names.size < 2) return [];
    const spelt = [...names].map((name) => JSON.stringify(name)).join(', ');
    return [
      {
        rule: 'merchant_name_variants' as const,
        level: 'warning' as const,
        offers: group.map(ref),
        message: `merchant names ${spelt} differ only by case, spacing or Unicode form: all match the merchant '${key}'`,
        path: group[0]?.compiled.scope === undefined ? 'merchant_name' : 'scope.merchants',
      },
    ];
  });
