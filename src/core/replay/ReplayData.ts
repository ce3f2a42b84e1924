import { isCompiledOfferSet, type OfferSet } from '../../matching/compileOffers.js';
import { assertKnownKeys } from '../../model/knownKeys.js';
import { describeValue } from '../../rules/_internals/describe.js';
import { requireArray, requireObject } from '../requireInput.js';

/** What a replay starts from. @public */
export interface ReplayData {
  /** Offers in their JSON shape (docs/concepts.md, Offers), or a set from `compileOffers`. */
  readonly offers: readonly unknown[] | OfferSet;
  /** Customers (docs/concepts.md, Input rules), applied first as one request. */
  readonly customers: readonly unknown[];
  /**
   * Activations `{customer_id, offer_id, date}` (docs/concepts.md, Activation; `date` required),
   * applied after the customers, known from the start.
   */
  readonly activations?: readonly unknown[];
  /** History transactions (docs/concepts.md, Input rules), applied after the customers. */
  readonly history?: readonly unknown[];
  /**
   * The transactions to decide: required by `replay`; a session from `createReplay` does not read
   * them (push them), so that one data set can feed both.
   */
  readonly transactions?: readonly unknown[];
  /**
   * Returns (docs/concepts.md, Returns), merged with `transactions` by date-time: read by
   * `replay`; a session from `createReplay` does not read them (push them with `pushReturns`).
   */
  readonly returns?: readonly unknown[];
}

/**
 * The parts of a replay's input, as `ReplayData` names them and `replayFiles` names their files.
 * One data set feeds `replay` and `createReplay` alike; a session leaves `transactions` to `push`.
 */
export const REPLAY_DATA_KEYS: readonly string[] = [
  'offers',
  'customers',
  'activations',
  'history',
  'transactions',
  'returns',
];

/**
 * Checks the input object of `createReplay` and `replay`: an object with no key but `offers`,
 * `customers`, `activations`, `history`, `transactions` and `returns`, `offers` an array or an
 * `OfferSet`, the other lists arrays (`activations`, `history` and `returns` may be left out, and
 * `transactions` too unless `withTransactions`).
 * @param data - the input as given
 * @param withTransactions - whether `transactions` is required
 * @throws TypeError naming what is wrong
 */
export function checkData(data: unknown, withTransactions: boolean): asserts data is ReplayData {
  requireObject(data, 'data');
  assertKnownKeys(data, REPLAY_DATA_KEYS, 'data', 'field');
  const d = data as Record<string, unknown>;
  if (!Array.isArray(d.offers) && !isCompiledOfferSet(d.offers)) {
    throw new TypeError(
      `data.offers must be an array of offers or an OfferSet from compileOffers, got ${describeValue(d.offers)}`,
    );
  }
  requireArray(d.customers, 'data.customers');
  if (d.activations !== undefined) requireArray(d.activations, 'data.activations');
  if (d.history !== undefined) requireArray(d.history, 'data.history');
  if (withTransactions || d.transactions !== undefined) {
    requireArray(d.transactions, 'data.transactions');
  }
  if (d.returns !== undefined) requireArray(d.returns, 'data.returns');
}
