import { formatDay } from '../../model/day.js';
import type { CompiledOffer } from '../offer.js';
import { type CheckedOffer, type OfferCheck, ref } from './CheckContext.js';
import { plainRate } from './rewardText.js';

/** Groups larger than this are listed without the comparison of amounts. */
const MAX_COMPARED = 50;

type Valid = CheckedOffer & { readonly compiled: CompiledOffer };

/** Before rounding: `min(amount × rate / 100, cap)`, for an offer with a plain percentage. */
function pays(offer: CompiledOffer, amount: number): number {
  const raw = (amount * (plainRate(offer.reward) as number)) / 100;
  return offer.maxCashback === undefined ? raw : Math.min(raw, Number(offer.maxCashback.text));
}

/** Which offer pays most on each range of amounts, when all qualify: `2 up to 6.25, then 1`. */
function winners(offers: readonly CompiledOffer[]): string {
  // Payments cross where one offer's line meets another's cap: amount = cap × 100 / discount.
  const caps = offers.flatMap((o) =>
    o.maxCashback === undefined ? [] : [Number(o.maxCashback.text)],
  );
  const breaks = [
    ...new Set(
      caps.flatMap((cap) => offers.map((o) => (cap * 100) / (plainRate(o.reward) as number))),
    ),
  ].sort((x, y) => x - y);
  const segments: { id: number; upTo: number | undefined }[] = [];
  for (let i = 0; i <= breaks.length; i++) {
    const lo = i === 0 ? 0 : (breaks[i - 1] as number);
    const upTo = breaks[i];
    const sample = upTo === undefined ? lo * 2 + 1 : (lo + upTo) / 2;
    // Offers come by ascending offer_id: only a strictly higher payment replaces the best.
    let best = offers[0] as CompiledOffer;
    for (const o of offers) if (pays(o, sample) > pays(best, sample)) best = o;
    const previous = segments.at(-1);
    if (previous?.id === best.offerId) previous.upTo = upTo;
    else segments.push({ id: best.offerId, upTo });
  }
  if (segments.length === 1) return `${segments[0]?.id} for every amount`;
  return segments
    .map((s) => `${s.id} ${s.upTo === undefined ? 'above' : `up to ${+s.upTo.toFixed(4)}`}`)
    .join(', then ');
}

/**
 * `overlap` (information): active offers at one merchant key (merchant-bound, or scoped offers
 * that list the name) valid on some common days, and, when each pays a plain percentage, which
 * pays most for which amounts when all qualify (before rounding; ties go to the lower
 * `offer_id`).
 */
export const overlap: OfferCheck = (ctx) =>
  [...ctx.byMerchant].flatMap(([key, group]) => {
    const active = group.filter((o) => o.compiled.active);
    const overlapping = active.filter((o) =>
      active.some(
        (p) =>
          p !== o &&
          p.compiled.validFrom <= o.compiled.validTo &&
          o.compiled.validFrom <= p.compiled.validTo,
      ),
    );
    if (overlapping.length < 2) return [];
    const offers = overlapping.map((o: Valid) => o.compiled);
    const from = Math.max(...offers.map((o) => o.validFrom));
    const to = Math.min(...offers.map((o) => o.validTo));
    const days = from <= to ? `all on ${formatDay(from)}..${formatDay(to)}` : 'on overlapping days';
    const ids = offers.map((o) => o.offerId).join(', ');
    const who =
      offers.length > MAX_COMPARED || offers.some((o) => plainRate(o.reward) === undefined)
        ? ''
        : `; when all qualify, before rounding, the most is paid by ${winners(offers)}`;
    return [
      {
        rule: 'overlap' as const,
        level: 'info' as const,
        offers: overlapping.map(ref),
        message: `offers ${ids} at '${key}' are valid together (${days})${who}`,
      },
    ];
  });
