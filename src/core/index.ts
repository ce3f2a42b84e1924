export { TransactionIdSet } from '../model/TransactionIdSet.js';
export {
  type BacktestData,
  type BacktestOptions,
  type BacktestResult,
  type BacktestRow,
  backtest,
} from './backtest.js';
export { screenCustomers } from './customers.js';
export { type DecideState, type Decision, decide, screenHistory } from './decide.js';
export { type ExplainContext, type Explanation, explain } from './explain.js';
export type { Outcome, Payment, TransactionError } from './outcome.js';
export {
  createReplay,
  LateTransactionError,
  type ReplayData,
  type ReplayOptions,
  type ReplayResult,
  type ReplayRetained,
  type ReplaySession,
  type ReplaySessionOptions,
  replay,
} from './replay.js';
export {
  type CollectedReplay,
  type ReplayStream,
  type ReplayStreamOptions,
  replayStream,
} from './replayStream.js';
export type { OfferTotals, ReplaySummary } from './SummaryBuilder.js';
