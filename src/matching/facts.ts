import type { ParsedCustomer } from '../model/parseCustomer.js';
import type { ParsedTransaction } from '../model/parseTransaction.js';
import type { CustomerFacts, FactContext, HistoryFacts, TransactionFacts } from '../rules/index.js';
import { historyFacts, type Purchase } from './history.js';

/** The `transaction` fact of a parsed transaction. */
export function transactionFactsOf(tx: ParsedTransaction): TransactionFacts {
  return {
    transaction_id: tx.transactionId,
    customer_id: tx.customerId,
    description: tx.description,
    date: tx.when.text,
    day: tx.when.dayText,
    amount: Number(tx.amount.text),
    weekday: tx.when.weekday,
    hour: tx.when.hour,
    merchant: tx.merchant,
    location: tx.location ?? { country: '', city: '' },
  };
}

/** The `customer` fact, with `age` on the transaction's day. */
export function customerFactsOf(customer: ParsedCustomer, age: number): CustomerFacts {
  return {
    customer_id: customer.customerId,
    birthday: customer.birthday,
    gender: customer.genderKey,
    age,
    location: customer.location,
  };
}

/**
 * The facts one offer's condition sees. `history` is computed on first read, with the offer's
 * lookback, so conditions that never read it cost nothing.
 */
export function factContext(
  transaction: TransactionFacts,
  customer: CustomerFacts,
  purchases: readonly Purchase[] | undefined,
  tx: ParsedTransaction,
  lookbackDays: number,
): FactContext {
  let history: HistoryFacts | undefined;
  return {
    transaction,
    customer,
    get history(): HistoryFacts {
      if (history === undefined) history = historyFacts(purchases, tx.when, lookbackDays);
      return history;
    },
  };
}
