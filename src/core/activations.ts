import {
  customerNotFound as _customerNotFound,
  duplicateActivation as _duplicateActivation,
  issuesMessage as _issuesMessage,
  offerNotFound as _offerNotFound,
  type ActivationErrorCode,
  type ItemError,
} from '../model/errors.js';
import { activationKey, type ParsedActivation, parseActivation } from '../model/parseActivation.js';
import { requireArray } from './requireInput.js';

/** The result of screening one request's activations. @public */
export interface ActivationBatch {
  /** Activations that passed every check, in input order; pairs are distinct. */
  readonly accepted: readonly ParsedActivation[];
  /** Rejected items: one entry per repeated pair, one per other rejected item. */
  readonly errors: readonly ItemError<ActivationErrorCode>[];
}

/** What screening asks of the stored state: whether a customer and an offer exist. @public */
export interface ActivationLookups {
  /** Whether the partner has registered this customer. */
  hasCustomer(customerId: string): boolean;
  /** Whether an offer with this id is loaded (active or not). */
  hasOffer(offerId: number): boolean;
}

/**
 * Screens activations in the order of docs/concepts.md (Activation): every copy of a (customer,
 * offer) pair that appears more than once is rejected with one `duplicate_activation` entry;
 * then `invalid_activation`, `customer_not_found`, `offer_not_found`, first failure wins.
 * @param items - activations as sent
 * @param timeZone - the engine's IANA time zone
 * @param dateRequired - whether `date` must be given (a replay has no clock to fill it)
 * @returns the parsed items that passed the shape checks and their keys, in input order, and the
 *   rejections so far; finish with {@link screenActivationTargets}
 * @throws TypeError when `items` is not an array
 * @public
 */
export function screenActivations(
  items: readonly unknown[],
  timeZone: string,
  dateRequired: boolean,
): ActivationBatch {
  requireArray(items, 'activations');
  const keys = items.map((item, index) => activationKey(item, index));
  const counts = new Map<string, number>();
  for (const key of keys) if (!key.startsWith('#')) counts.set(key, (counts.get(key) ?? 0) + 1);
  const accepted: ParsedActivation[] = [];
  const errors: ItemError<ActivationErrorCode>[] = [];
  const reported = new Set<string>();
  items.forEach((item, index) => {
    const key = keys[index] as string;
    if ((counts.get(key) ?? 0) > 1) {
      if (reported.has(key)) return;
      reported.add(key);
      const { customer_id, offer_id } = item as { customer_id: string; offer_id: number };
      const message = _duplicateActivation(customer_id.trim(), offer_id);
      errors.push({ key, code: 'duplicate_activation', message });
      return;
    }
    const r = parseActivation(item, index, timeZone, dateRequired);
    if (r.ok) accepted.push(r.value);
    else {
      const message = _issuesMessage('activation', r.issues);
      errors.push({ key: r.key, code: 'invalid_activation', message });
    }
  });
  return { accepted, errors };
}

/**
 * Rejects the screened activations whose customer or offer does not exist: `customer_not_found`
 * first, then `offer_not_found`.
 * @param batch - what {@link screenActivations} returned
 * @param lookups - the stored customers and offers
 * @returns the activations to store and every rejection
 * @public
 */
export function screenActivationTargets(
  batch: ActivationBatch,
  lookups: ActivationLookups,
): ActivationBatch {
  const accepted: ParsedActivation[] = [];
  const errors = [...batch.errors];
  for (const a of batch.accepted) {
    const key = `${a.customerId}/${a.offerId}`;
    if (!lookups.hasCustomer(a.customerId)) {
      errors.push({ key, code: 'customer_not_found', message: _customerNotFound(a.customerId) });
    } else if (!lookups.hasOffer(a.offerId)) {
      errors.push({ key, code: 'offer_not_found', message: _offerNotFound(a.offerId) });
    } else accepted.push(a);
  }
  return { accepted, errors };
}
