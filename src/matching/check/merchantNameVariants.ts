import { type OfferCheck, ref } from './CheckContext.js';

/**
 * `merchant_name_variants`: offers whose `merchant_name`s are spelt differently but meet the
 * same merchants once normalised (Unicode NFKC, trimmed, white space folded, lower-cased:
 * `Café` and `CAFE\u0301`), which the author may not expect.
 */
export const merchantNameVariants: OfferCheck = (ctx) =>
  [...ctx.byMerchant].flatMap(([key, group]) => {
    const names = new Set(group.map((offer) => offer.compiled.offer.merchant_name));
    if (names.size < 2) return [];
    const spelt = [...names].map((name) => JSON.stringify(name)).join(', ');
    return [
      {
        rule: 'merchant_name_variants' as const,
        level: 'warning' as const,
        offers: group.map(ref),
        message: `merchant names ${spelt} differ only by case, spacing or Unicode form: all match the merchant '${key}'`,
        path: 'merchant_name',
      },
    ];
  });
