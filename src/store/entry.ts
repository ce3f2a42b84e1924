// cashback-engine/store: what a store author implements and the errors a store raises
// (docs/stores.md). A service author needs none of it: `createEngine` takes any `Store`, and the
// memory store comes with `cashback-engine` itself.

// The offer that the offer repository keeps.
export type { Offer } from '../model/index.js';
// Errors a store raises: the engine and the HTTP API answer them as 503 (docs/stores.md).
export { StorageFullError, StoreUnavailableError } from './errors.js';

// The records the repositories store and return.
export type {
  ActivationRecord,
  CustomerRecord,
  OutboxEvent,
  OutboxEventType,
  PaymentAdjustment,
  PaymentRecord,
  ReturnRecord,
  TransactionRecord,
} from './records.js';
// The contract: one unit of work over batch-oriented repositories, scoped by partner.
export type {
  ActivationQuery,
  ActivationRepository,
  ClaimedDelivery,
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
  ReturnRepository,
  Store,
  StoredOutboxEvent,
  StoreSession,
  TransactionRepository,
} from './Store.js';
