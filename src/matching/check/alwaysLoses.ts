import { type OfferCheck, ref } from './CheckContext.js';
import { paysAtLeast } from './paysAtLeast.js';
import { targetsSuperset } from './targets.js';

/**
 * `always_loses`: another offer at the same merchant key (merchant-bound, or scoped and listing
 * the name without excluding it), with a lower `offer_id` (ties go to it), qualifies for every
 * transaction this merchant-bound one qualifies for and pays at least as much for every amount,
 * so this one is never selected. A scoped offer is never reported: at one merchant of its scope
 * it may lose, at another win. Offers are compared pairwise within each merchant key, each
 * against those with a lower id, stopping at the first that dominates it: O(k²) for k offers at
 * one merchant, O(n) over a file whose merchants have few offers each.
 */
export const alwaysLoses: OfferCheck = (ctx) =>
  [...ctx.byMerchant.values()].flatMap((group) =>
    group.flatMap((offer, i) => {
      const a = offer.compiled;
      if (!a.active || a.scope !== undefined) return [];
      for (let j = 0; j < i; j++) {
        const other = group[j];
        if (other === undefined || other.compiled.offerId === a.offerId) continue;
        const b = other.compiled;
        if (!targetsSuperset(a, b) || !paysAtLeast(a, b, ctx.options)) continue;
        return [
          {
            rule: 'always_loses' as const,
            level: 'error' as const,
            offers: [ref(offer), ref(other)],
            message: `offer ${a.offerId} never wins: offer ${b.offerId}${b.scope === undefined ? '' : ' (scoped)'} at '${a.merchantKey}' qualifies whenever it does and pays at least as much for every amount (ties go to the lower offer_id)`,
          },
        ];
      }
      return [];
    }),
  );
