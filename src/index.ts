// cashback-engine: an embeddable cashback rules engine. Exact with money (decimal.js),
// deterministic (time and ids are injected), fast at high volume, and with one coded error for
// every transaction it does not pay. (No @packageDocumentation: tsup's d.ts bundling moves it.)
//
// Every name below is a promise to users, chosen one by one: what a service author, a data team
// or a rule author calls or types, at most 100 names (docs/architecture.md, "Entry points";
// test/package.test.ts holds the count). Store authors' types are in `cashback-engine/store`;
// zod schemas and the steps a replay is built of stay inside. A name that joins or leaves this
// list goes into CHANGELOG.md.

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
  type ReplaySession,
  type ReplaySessionOptions,
  type ReplayStream,
  type ReplayStreamOptions,
  type ReplaySummary,
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
// Budgets and caps for a caller of `decide`: what they spent, kept batch after batch, and their
// periods.
export { type FundedPayment, FundingLedger } from './core/index.js';
export {
  type Cashback,
  type FundingPeriod,
  type FundingPeriodDays,
  fundingPeriod,
  type Spent,
  type SpentLookup,
} from './matching/index.js';
// Returns: what a return did to its payment, or why it did nothing.
export type { Adjustment, ReturnError } from './core/returns/ReturnOutcome.js';
export type { Purchase } from './matching/index.js';

// Why a transaction earns what it earns, and what another offer set would have paid.
export {
  type BacktestData,
  type BacktestOptions,
  type BacktestResult,
  type BacktestRow,
  backtest,
  type ExplainContext,
  type Explanation,
  explain,
} from './core/index.js';
export type { CandidateExplanation, EligibilityCheck } from './matching/index.js';

// Offers: validation and indexing, and the checks of `cashback check`.
export {
  type CheckOffersOptions,
  type CompileOffersOptions,
  checkOffers,
  compileOffers,
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
} from './model/index.js';

// Options, money and the table of error codes.
export {
  type CoreOptions,
  type CustomerErrorCode,
  ERROR_CODES,
  type ErrorCode,
  type ItemError,
  Money,
  type MoneyValue,
  type ResolvedOptions,
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
  createEngine,
  createMemoryPartners,
  type EngineOptions,
  InvalidRequestError,
  type PartnerRegistry,
  type PartnerSettings,
  type PaymentsPage,
  type PaymentsQuery,
  type UpsertCustomersResult,
  type UpsertOffersResult,
} from './engine/index.js';
export {
  createMemoryStore,
  type MemoryStore,
  type MemoryStoreOptions,
  type MemoryStoreUsage,
} from './store/index.js';

// The condition language, for rule authors: conditions, errors, and operators of their own.
export {
  type AllCondition,
  type AnyCondition,
  type Condition,
  ConditionError,
  type ConditionIssue,
  createOperatorRegistry,
  defineOperator,
  type LeafCondition,
  type NotCondition,
  type OperandType,
  type Operator,
  type OperatorDefinition,
  type OperatorRegistry,
} from './rules/index.js';
