import { createMemoryPartners, type PartnerRegistry } from '../engine/partners.js';
import { MAX_ID_LENGTH } from '../model/itemKey.js';
import type { WebhookPartner } from '../webhooks/partners.js';

/**
 * A partner of a service started with `startService`: who may get tokens, and where its webhooks
 * go.
 * @public
 */
export interface ServicePartner {
  /** Application id: the partner's tenant key and the `sub` of its tokens, 1 to 128 characters. */
  readonly application_id: string;
  /**
   * The application key's hash (`hashApplicationKey`); without one the partner gets no token.
   * Tokens are valid only while the partner keeps the hash they were issued under: a new hash
   * (a new key) revokes the tokens of the old one.
   */
  readonly application_key_hash?: string;
  /** Where its webhook events go (docs/webhooks.md); without it, no deliveries. */
  readonly webhook_url?: string;
  /** Its webhook secret (`whsec_…`), or two during a rotation, the new one first. */
  readonly webhook_secret?: string | readonly string[];
}

/** A list of partners, checked, as the registry and the dispatcher take them. */
export interface CheckedPartners {
  readonly ids: readonly string[];
  readonly registry: PartnerRegistry;
  readonly webhooks: readonly WebhookPartner[];
}

const FIELDS = ['application_id', 'application_key_hash', 'webhook_url', 'webhook_secret'];

/**
 * Checks a list of partners (the webhook settings are the dispatcher's to check).
 * @param partners - the list
 * @param where - what to name in messages
 * @returns the registry (webhook secrets left out: only the dispatcher needs them) and the
 *   dispatcher's partners
 * @throws TypeError naming the partner and what is wrong
 */
export function checkPartners(partners: readonly ServicePartner[], where: string): CheckedPartners {
  if (!Array.isArray(partners)) throw new TypeError(`${where} must be an array of partners`);
  for (const [i, p] of partners.entries()) {
    const name = `${where}[${i}]`;
    if (p === null || typeof p !== 'object') throw new TypeError(`${name} must be an object`);
    const unknown = Object.keys(p).find((k) => !FIELDS.includes(k));
    if (unknown !== undefined) {
      throw new TypeError(
        `${name} has an unknown key '${unknown}'; the keys are ${FIELDS.join(', ')}`,
      );
    }
    const id: unknown = p.application_id;
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) {
      throw new TypeError(
        `${name}.application_id must be a string of 1 to ${MAX_ID_LENGTH} characters`,
      );
    }
    const hash: unknown = p.application_key_hash;
    if (hash !== undefined && typeof hash !== 'string') {
      throw new TypeError(`${name}.application_key_hash must be a string (hashApplicationKey)`);
    }
  }
  const registry = createMemoryPartners(
    partners.map(({ application_id, application_key_hash, webhook_url }) => ({
      application_id,
      ...(application_key_hash === undefined ? {} : { application_key_hash }),
      ...(webhook_url === undefined ? {} : { webhook_url }),
    })),
  );
  return { ids: partners.map((p) => p.application_id), registry, webhooks: partners };
}

/** A registry whose partners a reload replaces; every caller sees the current ones at once. */
export function swappableRegistry(first: PartnerRegistry): {
  readonly registry: PartnerRegistry;
  swap(next: PartnerRegistry): void;
} {
  let current = first;
  return {
    registry: { list: () => current.list(), get: (id) => current.get(id) },
    swap: (next) => {
      current = next;
    },
  };
}
