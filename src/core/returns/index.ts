export { decideReturns } from './decideReturns.js';
export { parseReturns } from './parseReturns.js';
export type {
  AcceptedReturn,
  Adjustment,
  PaymentChange,
  ReturnDecision,
  ReturnError,
  ReturnOutcome,
} from './ReturnOutcome.js';
export type { ReturnableTransaction, ReturnPaymentState, ReturnState } from './ReturnState.js';
export type { ExplainedReturn, ReturnsExplanation } from './ReturnsExplanation.js';
