export { StorageFullError, StoreUnavailableError } from './errors.js';
export {
  createMemoryStore,
  type MemoryStore,
  type MemoryStoreOptions,
  type MemoryStoreUsage,
} from './memory/createMemoryStore.js';
export type {
  ActivationRecord,
  CustomerRecord,
  OfferRecord,
  OutboxEvent,
  OutboxEventType,
  PaymentRecord,
  TransactionRecord,
} from './records.js';
export type {
  ActivationQuery,
  ActivationRepository,
  ClaimedDelivery,
  CustomerRepository,
  DeadLetter,
  DeliveryClaimQuery,
  DeliveryRef,
  DeliveryRepository,
  OfferRepository,
  OutboxRepository,
  PaymentPage,
  PaymentQuery,
  PaymentRepository,
  PurchaseQuery,
  Store,
  StoredOutboxEvent,
  StoreSession,
  TransactionRepository,
} from './Store.js';
