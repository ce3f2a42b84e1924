// cashback-engine: an embeddable cashback rules engine. Exact with money (decimal.js),
// deterministic (time and ids are injected), fast at high volume, and with one coded error for
// every transaction it does not pay. (No @packageDocumentation: tsup's d.ts bundling moves it.)
//
// Every name below is a promise to users, chosen one by one: what a data team, a tester or a rule
// author writing offers calls or types, and every type those signatures name, so that a caller can
// name what it passes and gets; at most 120 names (docs/architecture.md, "Entry points";
// test/package.test.ts holds the count). Small by what it is for, not by leaving types out: the
// engine over a store and the store contract are in `cashback-engine/engine`, operators of one's
// own and the condition tree in `cashback-engine/rules`, store authors' types in
// `cashback-engine/store`. Zod schemas and the steps a replay is built of stay inside. A name that
// joins or leaves this list goes into CHANGELOG.md.

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
  type BacktestLiability,
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
  type Channel,
  type RewardInput,
  type ScopeInput,
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

// The condition language's registry of operators, as the options take it
// (`createOperatorRegistry` of `cashback-engine/rules` builds one), and how one comparison of a
// condition fared, as `explain` reports it.
export type { LeafResult, OperatorRegistry } from './rules/index.js';
// The payment ledger (docs/concepts.md, The lifecycle of a payment): the types its signatures name.
export type { Clawback, LiabilityFigure, LiabilitySummary } from './core/index.js';
export type { LateReturns } from './model/index.js';
