import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const PREFIX = 'whsec_';
/** The shortest secret, in bytes, that a partner may have. */
const MIN_SECRET_BYTES = 24;

/**
 * Checks a webhook secret: `whsec_` then the base64 of at least 24 bytes.
 * @param secret - the secret
 * @param name - what to call it in the error
 * @returns the secret
 * @throws TypeError naming what is wrong (never the secret itself)
 */
export function checkSecret(secret: unknown, name: string): string {
  if (typeof secret !== 'string' || !secret.startsWith(PREFIX)) {
    throw new TypeError(`${name} must be a string starting with ${PREFIX}`);
  }
  const body = secret.slice(PREFIX.length);
  if (
    !/^[A-Za-z0-9+/]+={0,2}$/.test(body) ||
    Buffer.from(body, 'base64').length < MIN_SECRET_BYTES
  ) {
    throw new TypeError(
      `${name} must be ${PREFIX} followed by the base64 of at least ${MIN_SECRET_BYTES} random bytes`,
    );
  }
  return secret;
}

/**
 * Makes a new webhook secret: `whsec_` and the base64 of 32 random bytes.
 * @returns the secret
 * @example
 * ```ts
 * const secret = generateWebhookSecret(); // 'whsec_…', give it to the partner once
 * ```
 * @public
 */
export function generateWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** The Standard Webhooks headers of a delivery. @public */
export interface WebhookHeaders {
  /** The event id: the same on every attempt; receivers deduplicate on it. */
  readonly 'webhook-id': string;
  /** When the attempt was signed, in whole seconds since the epoch. */
  readonly 'webhook-timestamp': string;
  /** One `v1,<base64>` signature per secret, separated by spaces. */
  readonly 'webhook-signature': string;
}

/**
 * Signs a delivery with every secret (two during a rotation).
 * @param secrets - the partner's secrets, checked
 * @param id - the event id
 * @param at - the attempt's time
 * @param body - the exact body sent
 * @returns the three headers
 */
export function signDelivery(
  secrets: readonly Webhook[],
  id: string,
  at: Date,
  body: string,
): WebhookHeaders {
  const seconds = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(seconds.getTime() / 1000),
    'webhook-signature': secrets.map((w) => w.sign(id, seconds, body)).join(' '),
  };
}

/**
 * Verifies a delivery as a partner's receiver gets it, through the `standardwebhooks` package:
 * one of its signatures must be made with `secret` over the exact body, and its timestamp
 * within five minutes of now. Deduplicate on `webhook-id` after it.
 * @param secret - the partner's secret, `whsec_…`
 * @param body - the request body exactly as received (text, not re-serialised JSON)
 * @param headers - the request headers (names in any case)
 * @returns the parsed event
 * @throws `WebhookVerificationError` (from `standardwebhooks`) when the signature or timestamp
 *   does not verify or a header is missing
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { verifyWebhook } from 'cashback-engine/webhooks';
 *
 * createServer(async (req, res) => {
 *   let body = '';
 *   for await (const chunk of req) body += chunk;
 *   try {
 *     const event = verifyWebhook(process.env.WEBHOOK_SECRET ?? '', body, req.headers);
 *     console.log(req.headers['webhook-id'], event);
 *     res.writeHead(204).end();
 *   } catch {
 *     res.writeHead(400).end();
 *   }
 * }).listen(8080);
 * ```
 * @public
 */
export function verifyWebhook(
  secret: string,
  body: string,
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
): unknown {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
  }
  return new Webhook(secret).verify(body, flat);
}
