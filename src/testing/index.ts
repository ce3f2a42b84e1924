/**
 * `cashback-engine/testing`: fast-check arbitraries of offers, customers, transactions and whole
 * data sets, and invariants of replay results, for users who fuzz their rules.
 *
 * @packageDocumentation
 */

export type { RoundingName } from '../model/money.js';
export { type CustomerArbitraryOptions, customerArbitrary } from './customerArbitrary.js';
export type { DayRange } from './DayRange.js';
export { historyTransactionArbitrary } from './historyTransactionArbitrary.js';
export {
  type InvariantOptions,
  type Invariants,
  invariants,
  type ReplayInput,
  type ReplayOutput,
} from './invariants/index.js';
export { type OfferArbitraryOptions, offerArbitrary } from './offerArbitrary.js';
export {
  type Scenario,
  type ScenarioArbitraryOptions,
  scenarioArbitrary,
} from './scenarioArbitrary.js';
export type {
  CustomerJson,
  HistoryTransactionJson,
  LocationJson,
  OfferJson,
  TransactionJson,
} from './shapes.js';
export { type TransactionArbitraryOptions, transactionArbitrary } from './transactionArbitrary.js';
// The store conformance suite (DESIGN.md §5) will be exported from here too.
