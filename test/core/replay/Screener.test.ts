/**
 * The replay's screener screens a chunk in stream order: a duplicate wins over an unknown customer,
 * only stored items count for date order, and a late item leaves the screener as it was before the
 * chunk (docs/replay.md, Date order and `maxLatenessDays`).
 */
import { describe, expect, test } from 'vitest';
import { LateTransactionError } from '../../../src/core/replay/LateTransactionError.js';
import { Screener } from '../../../src/core/replay/Screener.js';
import { type ChunkFacts, ITEM, MARK } from '../../../src/core/screening.js';
import { compileOfferSet } from '../../../src/matching/compileOffers.js';

/** Offers that read no history: the screener reads them only for history it stores. */
const NO_OFFERS = compileOfferSet([]);

const { invalid, unknownCustomer, known, knownAtHistoryMerchant: atHistory } = ITEM;

/** A chunk of `[kind, id?, day?]` items. */
function chunk(...items: [number, string?, number?][]): ChunkFacts {
  return {
    kinds: Uint8Array.from(items.map(([kind]) => kind)),
    ids: items.flatMap(([kind, id]) => (kind === invalid ? [] : [id as string])),
    days: items.flatMap(([kind, , day]) => (kind === atHistory ? [day as number] : [])),
  };
}

describe('Screener.screen', () => {
  test('marks an id stored before, or earlier in the chunk, a duplicate whoever the customer', () => {
    const screener = new Screener(NO_OFFERS, 31);
    expect([...screener.screen(chunk([known, 't1']))]).toEqual([MARK.stored]);
    const marks = screener.screen(
      chunk(
        [unknownCustomer, 't1'],
        [invalid],
        [unknownCustomer, 't2'],
        [known, 't2'],
        [known, 't2'],
      ),
    );
    expect([...marks]).toEqual([
      MARK.duplicate,
      MARK.invalid,
      MARK.unknownCustomer,
      MARK.stored,
      MARK.duplicate,
    ]);
    expect(screener.size).toBe(2);
  });

  test('counts only stored items for date order', () => {
    const screener = new Screener(NO_OFFERS, 10);
    screener.screen(chunk([atHistory, 't1', 100]));
    // A duplicate dated long before is a duplicate, not late.
    expect([...screener.screen(chunk([atHistory, 't1', 50]))]).toEqual([MARK.duplicate]);
    expect([...screener.screen(chunk([known, 't2']))]).toEqual([MARK.stored]);
    expect(screener.newest).toBe(100);
  });

  test('throws for a late item and leaves the screener as it was before the chunk', () => {
    const screener = new Screener(NO_OFFERS, 10);
    screener.screen(chunk([atHistory, 't1', 100]));
    const late = chunk([atHistory, 't2', 120], [known, 't3'], [atHistory, 't4', 105]);
    expect(() => screener.screen(late)).toThrow(LateTransactionError);
    expect(screener.size).toBe(1);
    expect(screener.newest).toBe(100);
    // The chunk can be pushed again without the late item.
    const again = chunk([atHistory, 't2', 120], [known, 't3']);
    expect([...screener.screen(again)]).toEqual([MARK.stored, MARK.stored]);
    expect(screener.newest).toBe(120);
  });
});
