/**
 * The one table of outcome codes, shared by the core, the engine, the HTTP layer and the docs.
 * @public
 */
export const ERROR_CODES = {
  invalid_transaction: 'A field of the transaction is missing or malformed.',
  customer_not_found:
    'The transaction (or activation) names a customer the partner has not registered.',
  duplicate_transaction:
    'The transaction id is already stored, or was stored earlier in the same batch.',
  no_offer: 'No cashback offer is associated with the transaction.',
  zero_cashback: 'An offer matched but its cashback rounds to 0.',
  invalid_customer: 'A field of the customer is missing or malformed.',
  duplicate_customer: 'Several customers with the same id were provided in one request.',
  invalid_return:
    'A field of the return is missing or malformed, or its date is before the transaction.',
  duplicate_return: 'The return id is already stored, or was stored earlier in the same batch.',
  transaction_not_found: 'The return names a transaction the partner has not stored.',
  return_exceeds_amount:
    'The return is for more than what is left of the transaction once its returns are taken off.',
  not_paid: 'The transaction has no payment, or its payment is already 0: nothing to adjust.',
  after_warranty: 'The return came on or after the payment day: the cashback stands.',
  late_return:
    'The return arrived once its payment was confirmed, and late returns are ignored: nothing is taken.',
  invalid_activation: 'A field of the activation is missing or malformed.',
  offer_not_found: 'The activation names an offer that is not loaded.',
  duplicate_activation:
    'Several activations of the same customer and offer were provided in one request.',
} as const;

/** A code for a transaction that earns nothing. @public */
export type TransactionErrorCode =
  | 'invalid_transaction'
  | 'customer_not_found'
  | 'duplicate_transaction'
  | 'no_offer'
  | 'zero_cashback';

/** A code for a rejected customer. @public */
export type CustomerErrorCode = 'invalid_customer' | 'duplicate_customer';

/**
 * A code for a return that adjusts no payment (docs/concepts.md, Returns). `not_paid`,
 * `after_warranty` and `late_return` name returns that were stored all the same.
 * @public
 */
export type ReturnErrorCode =
  | 'invalid_return'
  | 'duplicate_return'
  | 'transaction_not_found'
  | 'return_exceeds_amount'
  | 'not_paid'
  | 'after_warranty'
  | 'late_return';
/** A code for a rejected activation. @public */
export type ActivationErrorCode =
  | 'invalid_activation'
  | 'customer_not_found'
  | 'offer_not_found'
  | 'duplicate_activation';

/** Every outcome code. @public */
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * One problem with one input item: `key` is its id (trimmed), or `#<index>` when the item has no
 * usable id.
 * @public
 */
export interface ItemError<C extends ErrorCode = ErrorCode> {
  /** The item's id, or `#<index>` (0-based position in its array). */
  readonly key: string;
  /** Stable code from {@link ERROR_CODES}. */
  readonly code: C;
  /** Human-readable message. */
  readonly message: string;
}

/** A field-level validation problem. @public */
export interface FieldIssue {
  /** Dotted path of the field, e.g. `merchant.name`; empty for the item itself. */
  readonly path: string;
  /** Why it is invalid. */
  readonly message: string;
}

/** Formats field issues as one message, e.g. `Invalid transaction: amount must be greater than 0`. */
export function issuesMessage(what: string, issues: readonly FieldIssue[]): string {
  const parts = issues.map((i) => (i.path === '' ? i.message : `${i.path} ${i.message}`));
  return `Invalid ${what}: ${parts.join('; ')}`;
}

/** The partner API's message for an unknown customer. */
export function customerNotFound(customerId: string): string {
  return `Customer with id '${customerId}' not found`;
}

/** The partner API's message for a transaction that is already in the service. */
export function duplicateTransaction(transactionId: string): string {
  return `Transaction '${transactionId}' is already in the service`;
}

/** The partner API's message for several customers with one id in one request. */
export function duplicateCustomer(customerId: string): string {
  return `Several customers with the id '${customerId}' were provided in the request`;
}

/** The message for an offer id that no loaded offer has. */
export function offerNotFound(offerId: number): string {
  return `Offer with id ${offerId} not found`;
}

/** The message for several activations of one customer and offer in one request. */
export function duplicateActivation(customerId: string, offerId: number): string {
  return `Several activations of offer ${offerId} by customer '${customerId}' were provided in the request`;
}
