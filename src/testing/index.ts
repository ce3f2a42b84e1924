/**
 * `cashback-engine/testing`: fast-check arbitraries of offers, customers, transactions and whole
 * data sets, and invariants of replay results, for users who fuzz their rules.
 *
 * @packageDocumentation
 */

export type { RoundingName } from '../model/money.js';
export type { CoreOptions } from '../model/options.js';
// What the store conformance suite's signature reaches (a `Store` and every type it names):
// api-extractor wants each exported by this entry too, as `RoundingName` above.
export type {
  Location,
  LocationSchema,
  Merchant,
  MerchantSchema,
  OfferInput,
  OfferSchema,
} from '../model/schemas.js';
export type {
  FactOperand,
  FactSideType,
  FactType,
  Operator,
  OperatorRegistry,
  ValueOperand,
} from '../rules/index.js';
export type {
  ActivationQuery,
  ActivationRecord,
  ActivationRepository,
  ClaimedDelivery,
  CustomerRecord,
  CustomerRepository,
  DeadLetter,
  DeliveryClaimQuery,
  DeliveryRef,
  DeliveryRepository,
  OfferRecord,
  OfferRepository,
  OutboxEvent,
  OutboxEventType,
  OutboxRepository,
  PaymentAdjustment,
  PaymentPage,
  PaymentQuery,
  PaymentRecord,
  PaymentRepository,
  PurchaseQuery,
  ReturnRecord,
  ReturnRepository,
  Store,
  StoredOutboxEvent,
  StoreSession,
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
