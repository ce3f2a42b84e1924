// cashback-engine: an embeddable cashback rules engine. Exact with money (decimal.js),
// deterministic (time and ids are injected), fast at high volume, and with one coded error for
// every transaction it does not pay. (No @packageDocumentation: tsup's d.ts bundling moves it.)
//
// Every name below is a promise to users, chosen one by one: what a service author, a data team
// or a rule author calls or types, and every type those signatures name, so that a caller can
// name what it passes and gets; at most 192 names (docs/architecture.md, "Entry points";
// test/package.test.ts holds the count). Zod schemas and the steps a replay is built of stay
// inside. A name that joins or leaves this list goes into CHANGELOG.md.

// biome-ignore-all assist/source/organizeImports: grouped by the user each group serves, not sorted

// Replaying a data set: the whole of it, chunk by chunk, or as a stream.
export {
  type CollectedReplay,
  type CreateReplayOptions,
  createReplay,
  LateTransactionError,
  type OfferTotals,
  type ReplayData,
  type ReplayOptions,
  type ReplayResult,
  type ReplayRetained,
  type ReplaySession,
  type ReplaySessionOptions,
  type ReplayStream,
  type ReplayStreamOptions,
  type ReplaySummary,
  type ReturnsSummary,
  replay,
  replayStream,
} from './core/index.js';

// One batch: the pure step under replay and the engine, what it reads and what it answers.
export {
  type DecideState,
  type Decision,
  decide,
  type Outcome,
  type Payment,
  type TransactionError,
} from './core/index.js';
export type { Purchase } from './matching/index.js';
// Budgets and caps for a caller of `decide`: what they spent, kept batch after batch, and their
// periods.
export {
  type CounterChange,
  type FundedOffer,
  type FundedPayment,
  FundingLedger,
} from './core/index.js';
export {
  type Cashback,
  type FundingPeriod,
  type FundingPeriodDays,
  fundingPeriod,
  type Spent,
  type SpentLookup,
} from './matching/index.js';
// Returns: what a return did to its payment, or why it did nothing.
export type { Adjustment, ReturnError, ReturnOutcome } from './core/index.js';

// Why a transaction earns what it earns, and what another offer set would have paid.
export {
  type BacktestBudgets,
  type BacktestCharts,
  type BacktestData,
  type BacktestFigures,
  type BacktestHeldBack,
  type BacktestResult,
  type BacktestRow,
  type BudgetBurn,
  type BudgetDay,
  backtest,
  type ExplainContext,
  type ExplainedReturn,
  type ExplainSpent,
  type Explanation,
  explain,
  type FundingCheck,
  type HeldBackFigures,
  type NetFigures,
  type ReturnsExplanation,
  type VegaLiteSpec,
} from './core/index.js';
export type {
  CandidateExplanation,
  EligibilityCheck,
  FundingExplanation,
} from './matching/index.js';

// Offers: validation and indexing, and the checks of `cashback check`.
export {
  type CheckOffersOptions,
  type CompileOffersOptions,
  checkOffers,
  compileOffers,
  type FindingLevel,
  type FindingOffer,
  type OfferCheckReport,
  type OfferCheckRule,
  type OfferFinding,
  type OfferIssue,
  type OfferSet,
  OfferValidationError,
} from './matching/index.js';

// Inputs as users send them, the parsing every driver shares, and the merchant names' rule.
export {
  type CustomerInput,
  type ExactAmount,
  type FieldIssue,
  type HistoryTransactionInput,
  type Location,
  type Merchant,
  merchantKey,
  type Offer,
  type OfferInput,
  type ParsedCustomer,
  type ParsedTransaction,
  type ParseResult,
  parseCustomer,
  parseTransaction,
  type TransactionInput,
  type WallClock,
} from './model/index.js';

// Options, money and the table of error codes.
export {
  type ActivationErrorCode,
  type CoreOptions,
  type CustomerErrorCode,
  ERROR_CODES,
  type ErrorCode,
  type ItemError,
  Money,
  type MoneyValue,
  type ResolvedOptions,
  type ReturnErrorCode,
  type RoundingName,
  resolveOptions,
  type TransactionErrorCode,
} from './model/index.js';

// The engine over a store, for a service, and the memory store it runs on by default.
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
  type UpsertCustomersResult,
  type UpsertOffersResult,
} from './engine/index.js';
export {
  createMemoryStore,
  type MemoryStore,
  type MemoryStoreOptions,
  type MemoryStoreUsage,
} from './store/index.js';
// The store the engine takes (`EngineOptions.store`) and the memory store is: the contract that
// `cashback-engine/store` carries for store authors, named here because these signatures name it.
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
  FundingChange,
  FundingRange,
  FundingRecount,
  FundingRepository,
  FundingTotal,
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
} from './store/index.js';

// The condition language, for rule authors: conditions, errors, operators of their own, and the
// facts a compiled condition reads.
export {
  type AllCondition,
  type AnyCondition,
  type Condition,
  ConditionError,
  type ConditionIssue,
  type ConditionIssueCode,
  type ConditionMetadata,
  type ConditionValue,
  createOperatorRegistry,
  defineOperator,
  type FactOperand,
  type FactReference,
  type FactSideType,
  type FactType,
  type JsonValue,
  type LeafCondition,
  type LeafResult,
  type NotCondition,
  type OperandType,
  type OperandValue,
  type OperandValues,
  type Operator,
  type OperatorDefinition,
  type OperatorRegistry,
  type ValueOperand,
} from './rules/index.js';
