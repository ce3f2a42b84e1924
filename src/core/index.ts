export { TransactionIdSet } from '../model/TransactionIdSet.js';
export {
  type BacktestAmounts,
  type BacktestData,
  type BacktestFigures,
  type BacktestNet,
  type BacktestOptions,
  type BacktestResult,
  type BacktestRow,
  backtest,
} from './backtest.js';
export type { BacktestCharts, VegaLiteSpec } from './backtestCharts.js';
export { type CustomerBatch, screenCustomers } from './customers.js';
export { type DecideState, type Decision, decide, purchaseOf, screenHistory } from './decide.js';
export { type ExplainContext, type Explanation, explain } from './explain.js';
export type { Outcome, Payment, TransactionError } from './outcome.js';
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
export {
  type AcceptedReturn,
  type Adjustment,
  decideReturns,
  type ExplainedReturn,
  type PaymentChange,
  parseReturns,
  type ReturnableTransaction,
  type ReturnDecision,
  type ReturnError,
  type ReturnOutcome,
  type ReturnPaymentState,
  type ReturnState,
  type ReturnsExplanation,
} from './returns/index.js';
export type { OfferTotals, ReplaySummary, ReturnsSummary } from './SummaryBuilder.js';
