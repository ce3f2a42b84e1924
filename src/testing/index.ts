/**
 * `cashback-engine/testing`: fast-check arbitraries of offers, customers, transactions and whole
 * data sets, and invariants of replay results, for users who fuzz their rules.
 *
 * @packageDocumentation
 */

export type { LateReturns } from '../model/index.js';
export type { RoundingName } from '../model/money.js';
export type { CoreOptions } from '../model/options.js';
// What the store conformance suite's signature reaches (a `Store` and every type it names):
// exported by this entry too, as `RoundingName` above, so that a caller names them from here.
export type {
  Channel,
  Location,
  Merchant,
  Offer,
  OfferInput,
  RewardInput,
  ScopeInput,
} from '../model/schemas.js';
export type { OperatorRegistry } from '../rules/index.js';
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
export { type CustomerArbitraryOptions, customerArbitrary } from './customerArbitrary.js';
export type { DayRange } from './DayRange.js';
export {
  type FuzzDataSet,
  type FuzzOffersOptions,
  type FuzzReport,
  fuzzOffers,
} from './fuzzOffers.js';
export { historyTransactionArbitrary } from './historyTransactionArbitrary.js';
export {
  type ConfirmablePayments,
  type InvariantOptions,
  type Invariants,
  invariants,
  type ReplayInput,
  type ReplayOutput,
} from './invariants/index.js';
export { type OfferArbitraryOptions, offerArbitrary } from './offerArbitrary.js';
export { type ReturnsArbitraryOptions, returnsArbitrary } from './returnsArbitrary.js';
export {
  type Scenario,
  type ScenarioArbitraryOptions,
  type ScenarioRevision,
  scenarioArbitrary,
} from './scenarioArbitrary.js';
export type {
  ChannelJson,
  CustomerJson,
  FundingPeriodJson,
  HistoryTransactionJson,
  LocationJson,
  OfferJson,
  RewardJson,
  ScopeJson,
  TransactionJson,
} from './shapes.js';
export { type StoreConformanceOptions, storeConformance } from './storeConformance.js';
export { type TransactionArbitraryOptions, transactionArbitrary } from './transactionArbitrary.js';
