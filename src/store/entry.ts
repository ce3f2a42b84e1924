// cashback-engine/store: what a store author implements and the errors a store raises
// (docs/stores.md), loading no adapter. `cashback-engine/engine` names the same contract, as
// `createEngine` takes a `Store`; this entry is the one a store author needs.

// The offer the offer repository keeps, and the inputs the records hold parts of.
export type {
  Channel,
  Location,
  Merchant,
  Offer,
  OfferInput,
  RewardInput,
  ScopeInput,
} from '../model/index.js';
// Errors a store raises: the engine and the HTTP API answer them as 503 (docs/stores.md).
export { StorageFullError, StoreUnavailableError } from './errors.js';

// The records the repositories store and return.
export type {
  ActivationRecord,
  ClawbackRecord,
  CustomerRecord,
  OfferRevision,
  OutboxEvent,
  OutboxEventType,
  PaymentAdjustment,
  PaymentChangeRecord,
  PaymentRecord,
  ReturnRecord,
  StoredPayment,
  TransactionRecord,
} from './records.js';
// The contract: one unit of work over batch-oriented repositories, scoped by partner.
export type {
  ActivationQuery,
  ActivationRepository,
  ClaimedDelivery,
  ClawbackPage,
  ConfirmationQuery,
  ConfirmationRepository,
  ConfirmedPayments,
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
  OutboxRepository,
  PaymentPage,
  PaymentQuery,
  PaymentRepository,
  PurchaseQuery,
  ReturnedTotal,
  ReturnRepository,
  Store,
  StoredOutboxEvent,
  StoreSession,
  TransactionInsertOptions,
  TransactionRepository,
} from './Store.js';
