// cashback-engine/store: what a store author implements and the errors a store raises
// (docs/stores.md). A service author needs none of it: `createEngine` takes any `Store`, and the
// memory store comes with `cashback-engine` itself.

// Errors a store raises: the engine and the HTTP API answer them as 503 (docs/stores.md).
export { StorageFullError, StoreUnavailableError } from './errors.js';

// The records the repositories store and return.
export type {
  ActivationRecord,
  ClawbackRecord,
  CustomerRecord,
  OfferRecord,
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
  TransactionRepository,
} from './Store.js';
