export {
  type BacktestData,
  type BacktestOptions,
  type BacktestResult,
  type BacktestRow,
  backtest,
} from './backtest/backtest.js';
export { type DecideState, type Decision, decide } from './decide.js';
export { type ExplainContext, type Explanation, explain } from './explain.js';
export { type FundedPayment, FundingLedger } from './FundingLedger.js';
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
export type { ReplaySession } from './replay/ReplaySession.js';
export { replay } from './replay/replay.js';
export {
  type CollectedReplay,
  type ReplayStream,
  type ReplayStreamOptions,
  replayStream,
} from './replay/replayStream.js';
export type { OfferTotals, ReplaySummary } from './SummaryBuilder.js';
