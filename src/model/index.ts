export { dayInZone, parseDateTime, type WallClock } from './dateTime.js';
export { formatDay, parseDay } from './day.js';
export {
  type ActivationErrorCode,
  type CustomerErrorCode,
  ERROR_CODES,
  type ErrorCode,
  type FieldIssue,
  type ItemError,
  type TransactionErrorCode,
} from './errors.js';
export {
  type ExactAmount,
  Money,
  type MoneyValue,
  parseAmount,
  type RoundingName,
} from './money.js';
export { merchantKey, normaliseGender } from './normalise.js';
export { type CoreOptions, type ResolvedOptions, resolveOptions } from './options.js';
export { type ParsedActivation, parseActivation } from './parseActivation.js';
export { type ParsedCustomer, parseCustomer } from './parseCustomer.js';
export { type ParsedTransaction, type ParseResult, parseTransaction } from './parseTransaction.js';
export {
  type ActivationInput,
  ActivationSchema,
  AmountSchema,
  AudienceSchema,
  type CustomerInput,
  CustomerSchema,
  DateTimeSchema,
  DaySchema,
  type HistoryTransactionInput,
  HistoryTransactionSchema,
  IdSchema,
  type Location,
  LocationSchema,
  type Merchant,
  MerchantSchema,
  OfferIdSchema,
  type OfferInput,
  OfferSchema,
  type TransactionInput,
  TransactionSchema,
} from './schemas.js';
