import {
  type ParsedTransaction,
  type ParseResult,
  parseTransaction,
} from '../model/parseTransaction.js';
import { requireArray } from './requireInput.js';

/**
 * Parses one request's or chunk's transactions, item by item.
 * @param transactions - the items as sent
 * @param timeZone - the zone of their wall-clock dates
 * @param history - whether they are history items (fewer required fields)
 * @param offset - index of the first item in its stream: item keys are `#<offset + i>`
 * @returns one parse result per item
 * @throws TypeError when `transactions` is not an array
 */
export function parseTransactions(
  transactions: readonly unknown[],
  timeZone: string,
  history = false,
  offset = 0,
): ParseResult<ParsedTransaction>[] {
  requireArray(transactions, 'transactions');
  const items = new Array<ParseResult<ParsedTransaction>>(transactions.length);
  for (let i = 0; i < transactions.length; i++) {
    items[i] = parseTransaction(transactions[i], offset + i, timeZone, history);
  }
  return items;
}
