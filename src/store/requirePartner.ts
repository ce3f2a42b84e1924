/**
 * Returns `partner` when it is a non-empty string (an application id, the tenant key of
 * everything stored), else throws a `TypeError` naming what was given.
 * @param partner - the partner argument as passed
 * @returns the partner
 * @throws TypeError when it is not a non-empty string
 */
export function requirePartner(partner: unknown): string {
  if (typeof partner !== 'string' || partner.length === 0) {
    throw new TypeError(
      `partner must be a non-empty string (the application id), got ${JSON.stringify(partner)}`,
    );
  }
  return partner;
}
