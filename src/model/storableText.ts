/**
 * The one rule for the strings of an item that a store keeps (docs/concepts.md, Input rules):
 * every store must keep exactly what the memory store keeps, and PostgreSQL's `text` refuses
 * U+0000, while an unpaired surrogate has no UTF-8 form (the driver would write U+FFFD, a
 * different string, so two ids would become one).
 */

/** What `isWellFormed` (ES2024, in every Node the package supports) adds to a string. */
interface WellFormedString {
  isWellFormed(): boolean;
}

/**
 * Why a string cannot be kept as sent by every store, or `undefined` when it can.
 * @param value - the string
 * @returns the reason, worded to follow a field name (`merchant.id must not contain …`)
 */
export function textIssue(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain the character U+0000';
  if (!(value as unknown as WellFormedString).isWellFormed()) {
    return 'must not contain an unpaired surrogate (U+D800 to U+DFFF without its pair)';
  }
  return undefined;
}
