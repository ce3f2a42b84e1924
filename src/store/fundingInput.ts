import { parseDay } from '../model/day.js';
import { assertKnownKeys } from '../model/knownKeys.js';
import { textIssue } from '../model/storableText.js';
import { wholeNumber } from '../model/wholeNumber.js';
import type { FundingChange, FundingRange, FundingRecount } from './Store.js';

/** A plain decimal text with an optional minus sign: what a funding change adds. */
const SIGNED_PLAIN_DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;

/** Throws a `TypeError` naming `where` unless `value` is null or an id a store can keep. */
function checkCustomer(value: unknown, where: string): void {
  if (value === null) return;
  if (typeof value !== 'string' || value.length === 0) {
    throw new TypeError(
      `${where}.customer_id must be null (the budget) or a non-empty string, got ${JSON.stringify(value)}`,
    );
  }
  const issue = textIssue(value);
  if (issue !== undefined) throw new TypeError(`${where}.customer_id ${issue}`);
}

/** Throws a `TypeError` naming `field` unless `value` is a real day `YYYY-MM-DD`. */
function checkDay(value: unknown, field: string): void {
  if (typeof value !== 'string' || parseDay(value) === undefined) {
    throw new TypeError(`${field} must be a day YYYY-MM-DD, got ${JSON.stringify(value)}`);
  }
}

/** What a range and a change share: an offer and a budget (`null`) or a customer. */
function checkScope(item: unknown, where: string): void {
  if (typeof item !== 'object' || item === null) {
    throw new TypeError(`${where} must be an object, got ${JSON.stringify(item)}`);
  }
  const scope = item as { readonly offer_id?: unknown; readonly customer_id?: unknown };
  wholeNumber(scope.offer_id, `${where}.offer_id`, { min: 1 });
  checkCustomer(scope.customer_id, where);
}

/**
 * Checks the ranges of `funding.hold` (docs/stores.md, Funding counters) before a store reads
 * anything: every store refuses the same inputs with the same words.
 * @param ranges - the ranges as passed
 * @throws TypeError naming the range and field that is malformed (an offer id that is not a whole
 *   number of at least 1 is a RangeError); RangeError when a range ends before it starts
 */
export function checkFundingRanges(ranges: readonly FundingRange[]): void {
  if (!Array.isArray(ranges)) throw new TypeError('funding ranges must be an array');
  ranges.forEach((range, i) => {
    const where = `ranges[${i}]`;
    checkScope(range, where);
    checkDay(range.from, `${where}.from`);
    checkDay(range.to, `${where}.to`);
    if (range.from > range.to) {
      throw new RangeError(`${where} ends (${range.to}) before it starts (${range.from})`);
    }
  });
}

/**
 * Checks the changes of `funding.add` (docs/stores.md, Funding counters) before a store writes
 * anything: every store refuses the same inputs with the same words.
 * @param changes - the changes as passed
 * @throws TypeError naming the change and field that is malformed (a count or offer id that is a
 *   number out of range is a RangeError)
 */
export function checkFundingChanges(changes: readonly FundingChange[]): void {
  if (!Array.isArray(changes)) throw new TypeError('funding changes must be an array');
  changes.forEach((change, i) => {
    const where = `changes[${i}]`;
    checkScope(change, where);
    checkDay(change.day, `${where}.day`);
    if (typeof change.amount !== 'string' || !SIGNED_PLAIN_DECIMAL.test(change.amount)) {
      throw new TypeError(
        `${where}.amount must be a plain decimal text such as '0.07' or '-1.5', got ${JSON.stringify(change.amount)}`,
      );
    }
    wholeNumber(change.count, `${where}.count`, {
      min: Number.MIN_SAFE_INTEGER,
    });
  });
}

/**
 * Checks the query of `funding.recount` before a store changes anything.
 * @param query - the query as passed
 * @throws TypeError naming the field that is malformed; RangeError for an offer id below 1
 */
export function checkFundingRecount(query: FundingRecount): void {
  if (typeof query !== 'object' || query === null) {
    throw new TypeError(`funding recount query must be an object, got ${JSON.stringify(query)}`);
  }
  assertKnownKeys(query, ['budgets', 'caps'], 'funding recount query', 'field');
  for (const field of ['budgets', 'caps'] as const) {
    const ids: unknown = query[field];
    if (!Array.isArray(ids)) throw new TypeError(`funding recount ${field} must be an array`);
    ids.forEach((id, i) => {
      wholeNumber(id, `funding recount ${field}[${i}]`, { min: 1 });
    });
  }
}
