/**
 * `cashback-engine/webhooks`: delivers the outbox to partners' endpoints at least once, signed
 * per Standard Webhooks, retried on a schedule and dead-lettered (docs/webhooks.md).
 *
 * @packageDocumentation
 */

export {
  createWebhookDispatcher,
  formatWebhookAttempt,
  type WebhookAttempt,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from './createWebhookDispatcher.js';
export type { WebhookPartner } from './partners.js';
export { DEFAULT_WEBHOOK_SCHEDULE } from './schedule.js';
export { generateWebhookSecret, verifyWebhook, type WebhookHeaders } from './signing.js';
export {
  type StartWebhookDispatcherOptions,
  startWebhookDispatcher,
} from './startWebhookDispatcher.js';
