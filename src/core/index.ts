export type { BacktestFigures } from './backtest/BacktestRow.js';
export type { BudgetBurn, BudgetDay } from './backtest/BudgetBurn.js';
export {
  type BacktestData,
  type BacktestResult,
  type BacktestRow,
  backtest,
  type NetFigures,
} from './backtest/backtest.js';
export type { BacktestCharts, VegaLiteSpec } from './backtest/backtestCharts.js';
export type { BacktestBudgets } from './backtest/backtestFunding.js';
export type { BacktestLiability } from './backtest/backtestLiability.js';
export type {
  BacktestHeldBack,
  FundingCheck,
  HeldBackFigures,
} from './backtest/HeldBack.js';
export { type DecideState, type Decision, decide } from './decide.js';
export { type ExplainContext, type ExplainSpent, type Explanation, explain } from './explain.js';
export {
  type CounterChange,
  type FundedOffer,
  type FundedPayment,
  FundingLedger,
} from './FundingLedger.js';
export type { LiabilityFigure, LiabilitySummary } from './Liability.js';
export type { Outcome, Payment, PaymentStatus, TransactionError } from './outcome.js';
export { createReplay } from './replay/createReplay.js';
export { LateTransactionError } from './replay/LateTransactionError.js';
export type {
  CreateReplayOptions,
  ReplayOptions,
  ReplaySessionOptions,
} from './replay/options.js';
export type { ReplayData } from './replay/ReplayData.js';
export type { ReplayResult } from './replay/ReplayResult.js';
export type { ReplayRetained, ReplaySession } from './replay/ReplaySession.js';
export { replay } from './replay/replay.js';
export {
  type CollectedReplay,
  type ReplayStream,
  type ReplayStreamOptions,
  replayStream,
} from './replay/replayStream.js';
export type { Adjustment, Clawback, ReturnError, ReturnOutcome } from './returns/ReturnOutcome.js';
export type { ExplainedReturn, ReturnsExplanation } from './returns/ReturnsExplanation.js';
export type { OfferTotals, ReplaySummary, ReturnsSummary } from './SummaryBuilder.js';
