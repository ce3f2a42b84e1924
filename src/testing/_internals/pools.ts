/**
 * Default pools the arbitraries draw from. Small on purpose: drawn names and ids collide often,
 * so offers meet transactions, transactions meet customers, and duplicates happen.
 */

/** Merchants offers are drawn at. */
export const OFFER_MERCHANTS: readonly string[] = [
  'Coffee House',
  'Book Nook',
  'Fuel Stop',
  'Green Grocer',
];

/** Merchants transactions are drawn at: the offer pool plus one that has no offer. */
export const TRANSACTION_MERCHANTS: readonly string[] = [...OFFER_MERCHANTS, 'Corner Shop'];

/** Ids of registered customers. */
export const CUSTOMER_IDS: readonly string[] = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];

/** Ids no scenario registers. */
export const UNKNOWN_CUSTOMER_IDS: readonly string[] = ['ghost-1', 'ghost-2'];

/** Cities, with their country; conditions compare customers' cities with these. */
export const PLACES: readonly { readonly country: string; readonly city: string }[] = [
  { country: 'FR', city: 'Paris' },
  { country: 'FR', city: 'Lyon' },
  { country: 'DE', city: 'Berlin' },
  { country: 'ES', city: 'Madrid' },
];

/** Genders as partners send them; offers and customers compare them trimmed and lower-cased. */
export const GENDERS: readonly string[] = ['male', 'female', 'other'];

/** Merchant category codes (MCC) transactions carry and category scopes list. */
export const CATEGORIES: readonly string[] = ['5411', '5812', '5942', '5541'];

/** Merchant ids transactions carry and merchant-id scopes list: few, so that they meet. */
export const MERCHANT_IDS: readonly string[] = Array.from({ length: 9 }, (_, i) => `m-${i + 1}`);
