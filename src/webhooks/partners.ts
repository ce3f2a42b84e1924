import { Webhook } from 'standardwebhooks';
import { checkUrlForm } from './addresses.js';
import { checkSecret } from './signing.js';

/**
 * A partner as a dispatcher needs it: the fields of a partners file entry. A partner without
 * `webhook_url` gets no deliveries.
 * @public
 */
export interface WebhookPartner {
  /** The application id: the partner's outbox. */
  readonly application_id: string;
  /** Where its events go: https, not resolving to a private address. */
  readonly webhook_url?: string;
  /**
   * Its secret, `whsec_` and the base64 of at least 24 random bytes; two during a rotation (the
   * new one first), and every delivery then carries both signatures.
   */
  readonly webhook_secret?: string | readonly string[];
}

/** A partner's endpoint, checked. */
export interface Endpoint {
  readonly partner: string;
  readonly url: URL;
  readonly signers: readonly Webhook[];
  /** What identifies the settings: a 410 disables the endpoint until this changes. */
  readonly settings: string;
}

/**
 * The endpoints of the partners that have a webhook, checked.
 * @throws TypeError naming the partner and what is wrong
 */
export function endpointsOf(
  partners: readonly WebhookPartner[],
  allowLocalUrls: boolean,
): Map<string, Endpoint> {
  if (!Array.isArray(partners)) throw new TypeError('partners must be an array');
  const endpoints = new Map<string, Endpoint>();
  for (const [i, p] of partners.entries()) {
    const id: unknown = p?.application_id;
    if (typeof id !== 'string' || id === '') {
      throw new TypeError(`partners[${i}].application_id must be a non-empty string`);
    }
    if (p.webhook_url === undefined) continue;
    if (endpoints.has(id)) throw new TypeError(`partners: application_id '${id}' appears twice`);
    const where = `partner '${id}'`;
    let url: URL;
    try {
      url = checkUrlForm(p.webhook_url, allowLocalUrls);
    } catch (e) {
      throw new TypeError(`${where}: ${(e as Error).message}`);
    }
    const secrets =
      typeof p.webhook_secret === 'string' ? [p.webhook_secret] : (p.webhook_secret ?? []);
    if (!Array.isArray(secrets) || secrets.length < 1 || secrets.length > 2) {
      throw new TypeError(`${where}: webhook_secret must be one secret, or two during a rotation`);
    }
    const checked = secrets.map((s, n) =>
      checkSecret(s, `${where}: webhook_secret${secrets.length > 1 ? `[${n}]` : ''}`),
    );
    endpoints.set(id, {
      partner: id,
      url,
      signers: checked.map((s) => new Webhook(s)),
      settings: JSON.stringify([url.href, checked]),
    });
  }
  return endpoints;
}
