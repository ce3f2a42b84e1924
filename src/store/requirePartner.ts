import { textIssue } from '../model/storableText.js';

/**
 * Returns `partner` when it is a non-empty string that every store can keep as given (an
 * application id, the tenant key of everything stored), else throws a `TypeError` naming what
 * was given and why.
 * @param partner - the partner argument as passed
 * @returns the partner
 * @throws TypeError when it is not a non-empty string, or holds U+0000 or an unpaired surrogate
 */
export function requirePartner(partner: unknown): string {
  if (typeof partner !== 'string' || partner.length === 0) {
    throw new TypeError(
      `partner must be a non-empty string (the application id), got ${JSON.stringify(partner)}`,
    );
  }
  const issue = textIssue(partner);
  if (issue !== undefined) throw new TypeError(`partner ${issue}`);
  return partner;
}
