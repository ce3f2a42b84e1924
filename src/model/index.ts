export type { WallClock } from './dateTime.js';
export {
  type ActivationErrorCode,
  type CustomerErrorCode,
  ERROR_CODES,
  type ErrorCode,
  type FieldIssue,
  type ItemError,
  type ReturnErrorCode,
  type TransactionErrorCode,
} from './errors.js';
export { type ExactAmount, Money, type MoneyValue, type RoundingName } from './money.js';
export { merchantKey } from './normalise.js';
export {
  type CoreOptions,
  type LateReturns,
  type ResolvedOptions,
  resolveOptions,
} from './options.js';
export { type ParsedCustomer, parseCustomer } from './parseCustomer.js';
export { type ParsedTransaction, type ParseResult, parseTransaction } from './parseTransaction.js';
export type {
  Channel,
  CustomerInput,
  HistoryTransactionInput,
  Location,
  Merchant,
  Offer,
  OfferInput,
  RewardInput,
  ScopeInput,
  TransactionInput,
} from './schemas.js';
