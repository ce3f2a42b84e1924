export { StorageFullError, StoreUnavailableError } from './errors.js';
export {
  createMemoryStore,
  type MemoryStore,
  type MemoryStoreOptions,
  type MemoryStoreUsage,
} from './memory/createMemoryStore.js';
export type {
  CustomerRecord,
  OfferRecord,
  OutboxEvent,
  OutboxEventType,
  PaymentAdjustment,
  PaymentRecord,
  ReturnRecord,
  TransactionRecord,
} from './records.js';
export type {
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
  ReturnRepository,
  Store,
  StoredOutboxEvent,
  StoreSession,
  TransactionRepository,
} from './Store.js';
