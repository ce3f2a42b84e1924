import { readsHistory } from '../../matching/candidates.js';
import type { CompiledOfferSet } from '../../matching/compileOffers.js';
import { isBefore, type WallClock } from '../../model/dateTime.js';
import type { ParsedCustomer } from '../../model/parseCustomer.js';
import type { ParsedTransaction, ParseResult } from '../../model/parseTransaction.js';
import { type ChunkFacts, ITEM } from '../screening.js';

/**
 * What each item of a chunk is, as a session's registered customers and its offers say: the first
 * half of screening, before the screener looks at ids and dates (see `Screener.screen`).
 * @param items - the chunk, parsed
 * @param customers - the registered customers by id
 * @param offers - the offers: which merchants and scopes read history
 * @returns the chunk's facts
 */
export function classify(
  items: readonly ParseResult<ParsedTransaction>[],
  customers: ReadonlyMap<string, ParsedCustomer>,
  offers: CompiledOfferSet,
): ChunkFacts {
  const scoped = offers.scopedHistory.length > 0;
  const kinds = new Uint8Array(items.length);
  const ids: string[] = [];
  const days: number[] = [];
  let latest: WallClock | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as ParseResult<ParsedTransaction>;
    if (!item.ok) continue;
    const tx = item.value;
    ids.push(tx.transactionId);
    if (latest === undefined || isBefore(latest.seconds, latest.nanos, tx.when)) latest = tx.when;
    if (!customers.has(tx.customerId)) kinds[i] = ITEM.unknownCustomer;
    else if (!(scoped ? readsHistoryOf(offers, tx) : offers.historyKeys.has(tx.merchantKey))) {
      kinds[i] = ITEM.known;
    } else {
      kinds[i] = ITEM.knownAtHistoryMerchant;
      days.push(tx.when.day);
    }
  }
  return latest === undefined ? { kinds, ids, days } : { kinds, ids, days, latest };
}

/** Whether some offer reads a purchase at the transaction's merchant as history. */
export function readsHistoryOf(offers: CompiledOfferSet, tx: ParsedTransaction): boolean {
  return readsHistory(offers, tx.merchantKey, tx.merchant.id, tx.merchant.category_code);
}
