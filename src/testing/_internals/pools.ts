/**
 * Default pools the arbitraries draw from. Small on purpose: drawn names and ids collide often,
 * so offers meet transactions, transactions meet customers, and duplicates happen.
 * @internal
 */

/** Merchants offers are drawn at. @internal */
export const _OFFER_MERCHANTS: readonly string[] = [
  'Coffee House',
  'Book Nook',
  'Fuel Stop',
  'Green Grocer',
];

/** Merchants transactions are drawn at: the offer pool plus one that has no offer. @internal */
export const _TRANSACTION_MERCHANTS: readonly string[] = [..._OFFER_MERCHANTS, 'Corner Shop'];

/** Ids of registered customers. @internal */
export const _CUSTOMER_IDS: readonly string[] = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];

/** Ids no scenario registers. @internal */
export const _UNKNOWN_CUSTOMER_IDS: readonly string[] = ['ghost-1', 'ghost-2'];

/** Cities, with their country; conditions compare customers' cities with these. @internal */
export const _PLACES: readonly { readonly country: string; readonly city: string }[] = [
  { country: 'FR', city: 'Paris' },
  { country: 'FR', city: 'Lyon' },
  { country: 'DE', city: 'Berlin' },
  { country: 'ES', city: 'Madrid' },
];

/** Genders as partners send them; offers and customers compare them trimmed and lower-cased. @internal */
export const _GENDERS: readonly string[] = ['male', 'female', 'other'];
