// cashback-engine/engine: for service authors (docs/engine.md): `createEngine` and the engine's
// options and results, the partners it serves, the memory store it runs on by default, and the
// error of a request it refuses whole. Also exported here: the store contract the engine takes
// (`EngineOptions.store`, `CashbackEngine.store`) and the memory store is, and the types of
// `cashback-engine` the engine's results name, so that a caller names them from the entry it
// calls. Loads no adapter (docs/architecture.md, Entry points).

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
  type FieldIssue,
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
export type {
  ClawbackPage,
  ClawbackRecord,
  ConfirmationQuery,
  ConfirmationRepository,
  ConfirmedPayments,
  OfferRevision,
  PaymentChangeRecord,
  StoredPayment,
} from '../store/index.js';
// The store the engine takes and the memory store is: the contract `cashback-engine/store`
// carries for store authors.
export {
  type ActivationQuery,
  type ActivationRecord,
  type ActivationRepository,
  type ClaimedDelivery,
  type CustomerRecord,
  type CustomerRepository,
  createMemoryStore,
  type DeadLetter,
  type DeliveryClaimQuery,
  type DeliveryRef,
  type DeliveryRepository,
  type FundingChange,
  type FundingRange,
  type FundingRecount,
  type FundingRepository,
  type FundingTotal,
  type MemoryStore,
  type MemoryStoreOptions,
  type MemoryStoreUsage,
  type OfferRepository,
  type OutboxEvent,
  type OutboxEventType,
  type OutboxRepository,
  type PaymentAdjustment,
  type PaymentPage,
  type PaymentQuery,
  type PaymentRecord,
  type PaymentRepository,
  type PurchaseQuery,
  type ReturnedTotal,
  type ReturnRecord,
  type ReturnRepository,
  type Store,
  type StoredOutboxEvent,
  type StoreSession,
  type TransactionInsertOptions,
  type TransactionRecord,
  type TransactionRepository,
} from '../store/index.js';
export type {
  ClawbacksPage,
  ClawbacksQuery,
  ConfirmDueResult,
  OfferRevisionInfo,
  PaymentHistory,
  PaymentHistoryEntry,
} from './index.js';
export {
  type AddActivationsResult,
  type AddHistoryResult,
  type AddReturnsResult,
  type AddTransactionsResult,
  type CashbackEngine,
  type CashbackPaymentRecord,
  createEngine,
  createMemoryPartners,
  type EngineOptions,
  type ErrorMap,
  InvalidRequestError,
  type PartnerRegistry,
  type PartnerSettings,
  type PaymentsPage,
  type PaymentsQuery,
  type SeedOffer,
  type SeedPayment,
  type SeedReward,
  type UpsertCustomersResult,
  type UpsertOffersResult,
} from './index.js';
