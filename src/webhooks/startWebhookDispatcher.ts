import { assertKnownKeys } from '../model/knownKeys.js';
import type { Store } from '../store/index.js';
import { checkUrlAddresses } from './addresses.js';
import {
  createWebhookDispatcher,
  formatWebhookAttempt,
  type WebhookDispatcher,
} from './createWebhookDispatcher.js';
import { endpointsOf, type WebhookPartner } from './partners.js';

/** Options of `startWebhookDispatcher`. @public */
export interface StartWebhookDispatcherOptions {
  /** The store the service writes its outbox to. */
  readonly store: Store;
  /** The partners of the partners file (`webhook_url`, `webhook_secret`). */
  readonly partners: readonly WebhookPartner[];
  /**
   * Allows http and local addresses (`--allow-local-webhooks`).
   * @defaultValue `false`
   */
  readonly allowLocalUrls?: boolean;
  /**
   * Where the log lines go: one per attempt, one per failed round.
   * @defaultValue a line on stderr
   */
  readonly log?: (line: string) => void;
}

/**
 * Starts the dispatcher of a service (`cashback serve`): checks every partner's webhook URL, its
 * addresses resolved, then delivers in the background with the default schedule and logs one
 * line per attempt. Stop it with `stop()` before closing the store.
 * @param options - the store, the partners and the log
 * @returns the running dispatcher, or undefined when no partner has a webhook
 * @throws TypeError for a bad partner (URL, secret); Error when a URL's host resolves to a
 *   private address or does not resolve
 * @example
 * ```ts
 * const dispatcher = await startWebhookDispatcher({ store, partners });
 * // … on shutdown, before store.close():
 * await dispatcher?.stop();
 * ```
 * @public
 */
export async function startWebhookDispatcher(
  options: StartWebhookDispatcherOptions,
): Promise<WebhookDispatcher | undefined> {
  assertKnownKeys(
    options,
    ['store', 'partners', 'allowLocalUrls', 'log'],
    'startWebhookDispatcher options',
  );
  const allowLocalUrls = options.allowLocalUrls ?? false;
  const endpoints = endpointsOf(options.partners, allowLocalUrls);
  if (endpoints.size === 0) return undefined;
  for (const e of endpoints.values()) {
    try {
      await checkUrlAddresses(e.url, allowLocalUrls);
    } catch (err) {
      throw new Error(`partner '${e.partner}': ${(err as Error).message}`);
    }
  }
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const dispatcher = createWebhookDispatcher({
    store: options.store,
    partners: options.partners,
    allowLocalUrls,
    onAttempt: (a) => log(formatWebhookAttempt(a)),
    onError: (e) => log(`webhook dispatcher: ${(e as Error).message ?? String(e)}; trying again`),
  });
  dispatcher.start();
  return dispatcher;
}
