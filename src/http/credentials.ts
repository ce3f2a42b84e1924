import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// scrypt parameters of new hashes (N = 2^14, r = 8, p = 1: about 16 MiB and tens of milliseconds;
// OWASP's minimum for scrypt is N = 2^17 for passwords people choose, but application keys are
// long random strings issued by the operator, so brute force is hopeless either way; the cost
// only has to make a stolen hash list useless against weak keys and keep /get-token cheap).
const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const PREFIX = 'scrypt';

function derive(key: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(key, salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 }, (err, out) =>
      err ? reject(err) : resolve(out),
    );
  });
}

/**
 * Hashes an application key for storage in a partner registry (`application_key_hash`): scrypt
 * with a random salt, as `scrypt$N$r$p$<salt base64url>$<hash base64url>`. Only the hash is
 * kept; `/get-token` compares a presented key against it in constant time.
 * @param key - the application key, a non-empty string
 * @returns the hash
 * @throws TypeError when the key is not a non-empty string
 * @example
 * ```ts
 * const partners = createMemoryPartners([
 *   { application_id: 'bank-a', application_key_hash: await hashApplicationKey(process.env.BANK_A_KEY!) },
 * ]);
 * ```
 * @public
 */
export async function hashApplicationKey(key: string): Promise<string> {
  return hashApplicationKeyWithSalt(key, randomBytes(16));
}

/**
 * {@link hashApplicationKey} with a given salt: `cashback serve` derives the salt from its token
 * secret and the application id, so that a partners file read again, or at the next start, gives
 * an unchanged key the same hash, and the tokens issued under it stay valid (docs/http.md,
 * "Security").
 * @param key - the application key, a non-empty string
 * @param salt - at least 8 bytes
 * @returns the hash
 * @throws TypeError when the key is not a non-empty string
 */
export async function hashApplicationKeyWithSalt(key: string, salt: Buffer): Promise<string> {
  if (typeof key !== 'string' || key.length === 0) {
    throw new TypeError('An application key must be a non-empty string');
  }
  const hash = await derive(key, salt, N, R, P);
  return [PREFIX, N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

interface ParsedHash {
  readonly n: number;
  readonly r: number;
  readonly p: number;
  readonly salt: Buffer;
  readonly hash: Buffer;
}

function parseHash(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== PREFIX) return undefined;
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const ok = (v: number, max: number) => Number.isInteger(v) && v >= 1 && v <= max;
  // Powers of two up to 2^20 only: a hash from outside cannot make a request burn a gigabyte.
  if (!ok(n, 1 << 20) || (n & (n - 1)) !== 0 || !ok(r, 32) || !ok(p, 16)) return undefined;
  const salt = Buffer.from(parts[4] as string, 'base64url');
  const hash = Buffer.from(parts[5] as string, 'base64url');
  if (salt.length < 8 || hash.length !== KEY_LENGTH) return undefined;
  return { n, r, p, salt, hash };
}

/** A hash to compare against when the application id is unknown, so the answer takes as long. */
let decoy: Promise<ParsedHash> | undefined;

/**
 * Whether `key` matches the stored hash, in constant time. An unknown application id
 * (`stored` undefined) or an unreadable hash costs the same scrypt run and answers false.
 */
export async function verifyApplicationKey(
  key: string,
  stored: string | undefined,
): Promise<boolean> {
  decoy ??= hashApplicationKey('decoy').then((h) => parseHash(h) as ParsedHash);
  const parsed = (stored === undefined ? undefined : parseHash(stored)) ?? (await decoy);
  const actual = await derive(key, parsed.salt, parsed.n, parsed.r, parsed.p);
  const equal = timingSafeEqual(actual, parsed.hash);
  return equal && stored !== undefined && parsed !== (await decoy);
}
