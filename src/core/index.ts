export { TransactionIdSet } from '../model/TransactionIdSet.js';
export {
  type ActivationBatch,
  type ActivationLookups,
  screenActivations,
  screenActivationTargets,
} from './activations.js';
export {
  type BacktestData,
  type BacktestFigures,
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
export type { ReplayOptions, ReplaySessionOptions } from './replay/options.js';
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
export type { OfferTotals, ReplaySummary } from './SummaryBuilder.js';
