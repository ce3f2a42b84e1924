/**
 * The match key of a merchant name: Unicode NFKC, trimmed, inner runs of white space made one
 * space, then lower-cased (docs/concepts.md, Eligibility). Offers and transactions meet on this key.
 * @param name - the merchant name as sent
 * @returns the key
 * @example
 * ```ts
 * merchantKey('  Coffee\u00a0 HOUSE ') // 'coffee house'
 * ```
 * @public
 */
export function merchantKey(name: string): string {
  // Printable ASCII words joined by single spaces are their own NFKC form and need no folding of
  // white space: only lower-casing is left. Most names take this path, which skips NFKC and the
  // white-space regex.
  if (PLAIN_ASCII.test(name)) return name.toLowerCase();
  // ASCII is its own NFKC form: only the white space needs folding.
  const text = NON_ASCII.test(name) ? name.normalize('NFKC') : name;
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

const PLAIN_ASCII = /^[!-~]+(?: [!-~]+)*$/;
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * The comparable form of a gender: trimmed and lower-cased.
 * @param gender - as sent in a customer or an offer
 * @returns the normalised gender
 * @public
 */
export function normaliseGender(gender: string): string {
  return gender.trim().toLowerCase();
}
