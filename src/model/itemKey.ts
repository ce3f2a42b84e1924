import { textIssue } from './storableText.js';

/** Longest identifier (`customer_id`, `transaction_id`), in characters once trimmed. */
export const MAX_ID_LENGTH = 128;

/**
 * The id an item is keyed by: `raw` trimmed, when it is a string of 1 to {@link MAX_ID_LENGTH}
 * characters once trimmed that every store can keep (docs/concepts.md, Input rules).
 * @param raw - the id as sent
 * @returns the trimmed id, or `undefined` when it is not a usable one
 */
function usableId(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const id = raw.trim();
  return id.length > 0 && id.length <= MAX_ID_LENGTH && textIssue(id) === undefined
    ? id
    : undefined;
}

/**
 * The key of an item's outcome: its usable id, or `#<index>` (docs/concepts.md, Outcomes and
 * error codes).
 * @param raw - the id as sent
 * @param index - the item's position in its array
 * @returns the key
 */
export function itemKey(raw: unknown, index: number): string {
  return usableId(raw) ?? `#${index}`;
}
