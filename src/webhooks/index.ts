/**
 * `cashback-engine/webhooks`: delivers the outbox to partners' endpoints at least once, signed
 * per Standard Webhooks, retried on a schedule and dead-lettered (docs/webhooks.md).
 *
 * @packageDocumentation
 */

// The store contract (`cashback-engine/store`) that a dispatcher reads the outbox through:
// exported by this entry too, so that a caller names what it passes from the entry it calls.
export type {
  Channel,
  Location,
  Merchant,
  Offer,
  OfferInput,
  RewardInput,
  ScopeInput,
} from '../model/index.js';
// The payment ledger (docs/concepts.md, The lifecycle of a payment): the types its signatures name.
export type {
  ActivationQuery,
  ActivationRecord,
  ActivationRepository,
  ClaimedDelivery,
  ClawbackPage,
  ClawbackRecord,
  ConfirmationQuery,
  ConfirmationRepository,
  ConfirmedPayments,
  CustomerRecord,
  CustomerRepository,
  DeadLetter,
  DeliveryClaimQuery,
  DeliveryRef,
  DeliveryRepository,
  FundingChange,
  FundingRange,
  FundingRecount,
  FundingRepository,
  FundingTotal,
  OfferRepository,
  OfferRevision,
  OutboxEvent,
  OutboxEventType,
  OutboxRepository,
  PaymentAdjustment,
  PaymentChangeRecord,
  PaymentPage,
  PaymentQuery,
  PaymentRecord,
  PaymentRepository,
  PurchaseQuery,
  ReturnedTotal,
  ReturnRecord,
  ReturnRepository,
  Store,
  StoredOutboxEvent,
  StoredPayment,
  StoreSession,
  TransactionInsertOptions,
  TransactionRecord,
  TransactionRepository,
} from '../store/index.js';
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
