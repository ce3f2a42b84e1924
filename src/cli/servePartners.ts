import { createHmac, randomBytes } from 'node:crypto';
import { hashApplicationKeyWithSalt } from '../http/credentials.js';
import type { ServicePartner } from '../http/index.js';
import { checkPartners } from '../service/partners.js';
import { parsePartnersFile, readJsonFile, UsageError } from './inputs.js';

/** Application id of the partner made when no partners file is given. */
export const DEMO_PARTNER = 'demo-bank';

/** The partners to serve and, for the demo partner, its key (nothing else's key is kept). */
export interface ServedPartners {
  readonly partners: readonly ServicePartner[];
  readonly ids: readonly string[];
  /** The partners with a `webhook_url`. */
  readonly withWebhooks: readonly string[];
  readonly demoKey?: string;
}

/**
 * A key's hash, its salt drawn from the token secret and the application id: an unchanged key
 * keeps its hash when the file is read again and at the next start (with the same secret), so
 * the tokens issued under it stay valid; a changed key gets a new hash, which revokes them
 * (docs/http.md, "Security").
 */
function hashKey(id: string, key: string, tokenSecret: string): Promise<string> {
  const salt = createHmac('sha256', tokenSecret)
    .update(`application key salt\n${id}`)
    .digest()
    .subarray(0, 16);
  return hashApplicationKeyWithSalt(key, salt);
}

/**
 * The partners of the partners file with their keys hashed, or, without a file, the demo
 * partner with a new key (so its tokens of an earlier start are refused).
 * @param path - the partners file, if any
 * @param tokenSecret - the token secret, which the salts of the hashes are drawn from
 * @returns the partners
 * @throws UsageError when the file is unreadable or holds a bad partner
 */
export async function loadPartners(
  path: string | undefined,
  tokenSecret: string,
): Promise<ServedPartners> {
  if (path === undefined) {
    const demoKey = randomBytes(24).toString('base64url');
    const hash = await hashKey(DEMO_PARTNER, demoKey, tokenSecret);
    return {
      partners: [{ application_id: DEMO_PARTNER, application_key_hash: hash }],
      ids: [DEMO_PARTNER],
      withWebhooks: [],
      demoKey,
    };
  }
  const entries = parsePartnersFile(readJsonFile(path, 'partners'), path);
  const partners = await Promise.all(
    entries.map(
      async ({ application_key, ...entry }): Promise<ServicePartner> => ({
        ...entry,
        application_key_hash: await hashKey(entry.application_id, application_key, tokenSecret),
      }),
    ),
  );
  try {
    // The service's own check (an application id of at most 128 characters), before the store
    // is opened.
    checkPartners(partners, 'partners');
  } catch (err) {
    const message = (err as Error).message.replace(
      /^partners\[(\d+)\]\.?/,
      (_m, n: string) => `partner #${Number(n) + 1}: `,
    );
    throw new UsageError(`partners file ${path}: ${message}`);
  }
  return {
    partners,
    ids: entries.map((e) => e.application_id),
    withWebhooks: entries.filter((e) => e.webhook_url !== undefined).map((e) => e.application_id),
  };
}
