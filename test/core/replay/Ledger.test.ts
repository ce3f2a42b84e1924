/**
 * The replay's ledger screens a chunk in stream order: a duplicate wins over an unknown customer,
 * only stored items count for date order, and a late item leaves the ledger as it was before the
 * chunk (docs/replay.md, Date order and `maxLatenessDays`).
 */
import { describe, expect, test } from 'vitest';
import { LateTransactionError } from '../../../src/core/replay/LateTransactionError.js';
import { Ledger } from '../../../src/core/replay/Ledger.js';
import { type ChunkFacts, ITEM, MARK } from '../../../src/core/replay/screening.js';

const { invalid, unknownCustomer, known, knownAtHistoryMerchant: atHistory } = ITEM;

/** A chunk of `[kind, id?, day?]` items. */
function chunk(...items: [number, string?, number?][]): ChunkFacts {
  return {
    kinds: Uint8Array.from(items.map(([kind]) => kind)),
    ids: items.flatMap(([kind, id]) => (kind === invalid ? [] : [id as string])),
    days: items.flatMap(([kind, , day]) => (kind === atHistory ? [day as number] : [])),
  };
}

describe('Ledger.screen', () => {
  test('marks an id stored before, or earlier in the chunk, a duplicate whoever the customer', () => {
    const ledger = new Ledger(new Set(), 31);
    expect([...ledger.screen(chunk([known, 't1']))]).toEqual([MARK.stored]);
    const marks = ledger.screen(
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
    expect(ledger.size).toBe(2);
  });

  test('counts only stored items for date order', () => {
    const ledger = new Ledger(new Set(['m']), 10);
    ledger.screen(chunk([atHistory, 't1', 100]));
    // A duplicate dated long before is a duplicate, not late.
    expect([...ledger.screen(chunk([atHistory, 't1', 50]))]).toEqual([MARK.duplicate]);
    expect([...ledger.screen(chunk([known, 't2']))]).toEqual([MARK.stored]);
    expect(ledger.newest).toBe(100);
  });

  test('throws for a late item and leaves the ledger as it was before the chunk', () => {
    const ledger = new Ledger(new Set(['m']), 10);
    ledger.screen(chunk([atHistory, 't1', 100]));
    const late = chunk([atHistory, 't2', 120], [known, 't3'], [atHistory, 't4', 105]);
    expect(() => ledger.screen(late)).toThrow(LateTransactionError);
    expect(ledger.size).toBe(1);
    expect(ledger.newest).toBe(100);
    // The chunk can be pushed again without the late item.
    const again = chunk([atHistory, 't2', 120], [known, 't3']);
    expect([...ledger.screen(again)]).toEqual([MARK.stored, MARK.stored]);
    expect(ledger.newest).toBe(120);
  });
});
