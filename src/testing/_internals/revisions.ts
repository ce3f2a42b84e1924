import fc from 'fast-check';
import type { OfferJson } from '../shapes.js';
import { centsArbitrary } from './amounts.js';

/** How one offer changes when its set is reloaded: not at all, or one of its terms. */
interface Change {
  readonly kind: number;
  readonly discount: string | number;
  readonly amount: string | number;
  readonly warranty: number;
}

/**
 * The offer with the change applied: the terms a return works a payment out with (`discount` or
 * `reward`, `min_amount`, `max_cashback`; docs/concepts.md, Offer revisions) and `warranty`, which decides
 * the payment day of later payments only. About a third of the offers stay as they are, so that a
 * reload that changes nothing adds no revision for them.
 */
function revise(offer: OfferJson, c: Change): OfferJson {
  switch (c.kind % 6) {
    case 0:
    case 1:
      return offer;
    case 2:
      return rated(offer, c.discount);
    case 3: {
      if (offer.min_amount === undefined) return { ...offer, min_amount: c.amount };
      const { min_amount: _, ...rest } = offer;
      return rest;
    }
    case 4:
      return { ...offer, max_cashback: c.amount };
    default:
      return { ...rated(offer, c.discount), warranty: c.warranty };
  }
}

/**
 * The offer at a new percentage: its `discount`, or for an offer with a `reward` (which cannot
 * have a discount beside it) a percent reward of that rate in the reward's place.
 */
function rated(offer: OfferJson, rate: string | number): OfferJson {
  if (offer.reward === undefined) return { ...offer, discount: rate };
  return { ...offer, reward: { type: 'percent', rate } };
}

/**
 * The offers reloaded with changed terms: the same ids, in the same order.
 * @param offers - the offers as first loaded
 * @returns an arbitrary of the revised set
 */
export function revisedOffersArbitrary(offers: readonly OfferJson[]): fc.Arbitrary<OfferJson[]> {
  const change = fc.record({
    kind: fc.nat(5),
    discount: centsArbitrary(1, 10_000),
    amount: centsArbitrary(1, 20_000),
    warranty: fc.integer({ min: 0, max: 60 }),
  });
  return fc
    .array(change, { minLength: offers.length, maxLength: offers.length })
    .map((changes) => offers.map((o, i) => revise(o, changes[i] as Change)));
}
