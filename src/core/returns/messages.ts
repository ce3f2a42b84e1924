/** Messages of return outcomes (docs/concepts.md, Returns). */

/** A return id stored already, or earlier in the batch. */
export function duplicateReturn(returnId: string): string {
  return `Return '${returnId}' is already in the service`;
}

/** A return of a transaction the partner has not stored. */
export function transactionNotFound(transactionId: string): string {
  return `Transaction with id '${transactionId}' not found`;
}

/** A return dated before its transaction. */
export function returnBeforeTransaction(transactionDate: string): string {
  return `Invalid return: date is before the transaction's date-time ${transactionDate}`;
}

/** A return of more than what is left of the transaction. */
export function exceedsAmount(transactionId: string, amount: string, left: string): string {
  return `Return of ${amount} exceeds what is left of transaction '${transactionId}': ${left}`;
}

/** A return without an amount of a transaction that is all returned. */
export function nothingLeft(transactionId: string): string {
  return `Nothing is left to return of transaction '${transactionId}': all of it is returned`;
}

/** A stored return of a transaction without a payment. */
export function noPayment(transactionId: string): string {
  return `Transaction '${transactionId}' has no cashback payment to adjust`;
}

/** A stored return of a transaction whose payment is already 0. */
export function paymentAtZero(transactionId: string): string {
  return `The cashback payment of transaction '${transactionId}' is already 0`;
}

/** A stored return on or after the payment day. */
export function afterWarranty(day: string, paymentDate: string): string {
  return `Returned on ${day}, on or after the payment day ${paymentDate}: the cashback stands`;
}

/** A stored return that arrived once its payment was confirmed, with late returns ignored. */
export function lateReturn(arrivedDay: string, paymentDate: string): string {
  return `Arrived on ${arrivedDay}, once the payment of ${paymentDate} was confirmed: late returns are ignored`;
}
