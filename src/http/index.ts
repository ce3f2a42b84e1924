// cashback-engine/http: the partner HTTP API as a Hono app (docs/http.md).

// Also exported here: the types of `cashback-engine` and `cashback-engine/engine` that this entry's
// signatures name (the engine, the store and the partners an app and a service take, and what
// those reach), so that a caller names them from the entry it calls.
// The payment ledger (docs/concepts.md, The lifecycle of a payment): the types its signatures name.
export type {
  Adjustment,
  Clawback,
  ExplainedReturn,
  Explanation,
  Outcome,
  Payment,
  PaymentStatus,
  ReturnError,
  ReturnsExplanation,
  TransactionError,
} from '../core/index.js';
export type {
  AddActivationsResult,
  AddHistoryResult,
  AddReturnsResult,
  AddTransactionsResult,
  CashbackEngine,
  CashbackPaymentRecord,
  ClawbacksPage,
  ClawbacksQuery,
  ConfirmDueResult,
  EngineOptions,
  ErrorMap,
  OfferRevisionInfo,
  PartnerRegistry,
  PartnerSettings,
  PaymentHistory,
  PaymentHistoryEntry,
  PaymentsPage,
  PaymentsQuery,
  SeedOffer,
  SeedPayment,
  SeedReward,
  UpsertCustomersResult,
  UpsertOffersResult,
} from '../engine/index.js';
export type {
  CandidateExplanation,
  Cashback,
  EligibilityCheck,
  FundingExplanation,
  FundingPeriod,
} from '../matching/index.js';
export type { LateReturns } from '../model/index.js';
export {
  type ActivationErrorCode,
  type Channel,
  type CoreOptions,
  type CustomerErrorCode,
  ERROR_CODES,
  type ErrorCode,
  type ItemError,
  type Location,
  type Merchant,
  Money,
  type MoneyValue,
  type Offer,
  type OfferInput,
  type ResolvedOptions,
  type ReturnErrorCode,
  type RewardInput,
  type RoundingName,
  type ScopeInput,
  type TransactionErrorCode,
} from '../model/index.js';
export type { LeafResult, OperatorRegistry } from '../rules/index.js';
// The service's lifecycle (start, reload, graceful stop) lives in its own layer, above the app
// and the webhook dispatcher it starts (docs/http.md, "The service's lifecycle").
export type { ConfirmDueOptions } from '../service/confirmTimer.js';
export type { ServicePartner } from '../service/partners.js';
export {
  type Service,
  type ServiceChanges,
  type ServiceOptions,
  type ServiceReloaded,
  type StartWebhookDispatcherOptions,
  startService,
  type WebhookPartner,
} from '../service/startService.js';
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
export { createHttpApp } from './app.js';
export { hashApplicationKey } from './credentials.js';
export type { HttpApp, HttpAppVariables } from './env.js';
export type { HttpErrorBody, HttpErrorCode, HttpErrorDetail } from './errors.js';
export { openApiDocument } from './openapi.js';
export type { HttpAppOptions, HttpLimits, HttpLogger } from './options.js';
export { type RunningServer, type ServeOptions, serveHttp } from './serve.js';
