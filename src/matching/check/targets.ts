import { compareExact } from '../../model/money.js';
import type { AgeBand } from '../ageBands.js';
import type { CompiledOffer } from '../offer.js';

const ANY_AGE: readonly AgeBand[] = [{ min: 0, max: Number.POSITIVE_INFINITY }];

/** Whether every whole age in `inner`'s bands is in one of `outer`'s (empty means any age). */
function agesCovered(inner: readonly AgeBand[], outer: readonly AgeBand[]): boolean {
  if (outer.length === 0) return true;
  for (const band of inner.length === 0 ? ANY_AGE : inner) {
    let age = band.min;
    while (age <= band.max) {
      let reach = -1;
      for (const o of outer) if (o.min <= age && o.max >= age && o.max > reach) reach = o.max;
      if (reach < 0) return false;
      if (reach === Number.POSITIVE_INFINITY) break;
      age = reach + 1;
    }
  }
  return true;
}

function audienceCovered(a: CompiledOffer, b: CompiledOffer): boolean {
  if (b.audience === 'all') return true;
  if (b.audience !== a.audience) return false;
  // A longer lookback sees more returning customers and fewer new ones.
  return b.audience === 'returning'
    ? b.lookbackDays >= a.lookbackDays
    : b.lookbackDays <= a.lookbackDays;
}

function conditionsCovered(a: CompiledOffer, b: CompiledOffer): boolean {
  if (b.condition === undefined) return true;
  if (a.condition === undefined) return false;
  if (b.condition.usesHistory && a.lookbackDays !== b.lookbackDays) return false;
  return conditionsText(a) === conditionsText(b);
}

/** The conditions as JSON text, made once per offer: pairs of offers compare it often. */
const texts = new WeakMap<CompiledOffer, string>();
function conditionsText(offer: CompiledOffer): string {
  let text = texts.get(offer);
  if (text === undefined) {
    text = JSON.stringify(offer.offer.conditions);
    texts.set(offer, text);
  }
  return text;
}

/**
 * Whether `b` qualifies for every transaction `a` qualifies for, at the same merchant: valid on
 * every day `a` is, every age and gender, every amount from `a`'s `min_amount`, the same audience
 * or a wider one, and no conditions or the same ones. Conditions that are different but implied
 * are not recognised, so the answer may be a false "no", never a false "yes". An offer that
 * requires activation never covers another: activations are per offer, so a customer who earns
 * `a` need not have activated `b`. Nor does one with a budget or a customer cap: once they run
 * out, `b` no longer qualifies (docs/concepts.md, Funding controls). With `channels`, `b` covers
 * `a` only when `a` requires channels that `b` all accepts.
 */
export function targetsSuperset(a: CompiledOffer, b: CompiledOffer): boolean {
  if (!b.active || b.requiresActivation || b.funded) return false;
  // A transaction without a channel, or on one `b` leaves out, may still qualify for `a`.
  const channels = b.channels;
  if (channels !== undefined && !(a.channels?.every((c) => channels.includes(c)) ?? false)) {
    return false;
  }
  if (b.validFrom > a.validFrom || b.validTo < a.validTo) return false;
  if (b.minAmount !== undefined) {
    if (a.minAmount === undefined || compareExact(b.minAmount, a.minAmount) > 0) return false;
  }
  if (
    b.genders.length > 0 &&
    (a.genders.length === 0 || !a.genders.every((g) => b.genders.includes(g)))
  ) {
    return false;
  }
  return agesCovered(a.ageBands, b.ageBands) && audienceCovered(a, b) && conditionsCovered(a, b);
}
