import { createHash } from 'node:crypto';

/** The claim of a token that names the application key it was issued under. */
export const KEY_CLAIM = 'kfp';

/** How many fingerprints are kept at most; past it the memo starts again. */
const MEMO = 1024;

const memo = new Map<string, string>();

/**
 * The fingerprint of a stored `application_key_hash`, carried in each token issued under that
 * key (docs/http.md, "Security"): a token is valid only while its partner's hash is the one it
 * was issued under, so a changed key revokes every token of the old one. A digest of the hash,
 * never the key: the hash is salted, so the fingerprint tells nothing about the key.
 * @param hash - the partner's `application_key_hash`
 * @returns 22 characters of base64url
 */
export function keyFingerprint(hash: string): string {
  let fingerprint = memo.get(hash);
  if (fingerprint === undefined) {
    if (memo.size >= MEMO) memo.clear();
    fingerprint = createHash('sha256').update(hash).digest('base64url').slice(0, 22);
    memo.set(hash, fingerprint);
  }
  return fingerprint;
}
