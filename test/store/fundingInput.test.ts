/**
 * Funding counters refuse malformed input with a clear error, the same in every store of the
 * project, and change nothing: the memory store and the SQL store (on PGlite) check it alike.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/store/index.js';
import { createPgliteStore, migrate } from '../../src/store/postgres/index.js';
import type { FundingChange, FundingRange, Store } from '../../src/store/Store.js';

const P = 'bank-a';
const range: FundingRange = {
  offer_id: 1,
  customer_id: null,
  from: '2025-03-01',
  to: '2025-03-31',
};
const change: FundingChange = {
  offer_id: 1,
  customer_id: null,
  day: '2025-03-10',
  amount: '0.07',
  count: 1,
};

/** Ranges that are refused, with what the error says. */
const BAD_RANGES: readonly [string, unknown, RegExp][] = [
  [
    'a day that does not exist',
    { ...range, to: '2025-02-30' },
    /ranges\[0\]\.to must be a day YYYY-MM-DD, got "2025-02-30"/,
  ],
  [
    'a date-time for a day',
    { ...range, from: '2025-03-01T00:00' },
    /ranges\[0\]\.from must be a day/,
  ],
  [
    'a range that ends before it starts',
    { ...range, from: '2025-04-01' },
    /ranges\[0\] ends \(2025-03-31\) before it starts \(2025-04-01\)/,
  ],
  [
    'an empty customer id',
    { ...range, customer_id: '' },
    /ranges\[0\]\.customer_id must be null \(the budget\) or a non-empty string/,
  ],
  [
    'an offer id that is not a whole number',
    { ...range, offer_id: 1.5 },
    /ranges\[0\]\.offer_id must be a whole number of at least 1, got the number 1\.5/,
  ],
  ['no range object', null, /ranges\[0\] must be an object/],
];

/** Changes that are refused, with what the error says. */
const BAD_CHANGES: readonly [string, unknown, RegExp][] = [
  [
    'an amount as a number',
    { ...change, amount: 0.07 },
    /changes\[0\]\.amount must be a plain decimal text/,
  ],
  [
    'an amount with an exponent',
    { ...change, amount: '7e-2' },
    /changes\[0\]\.amount must be a plain decimal text such as '0\.07' or '-1\.5', got "7e-2"/,
  ],
  ['an amount with a plus sign', { ...change, amount: '+0.07' }, /changes\[0\]\.amount/],
  [
    'a count that is not whole',
    { ...change, count: 0.5 },
    /changes\[0\]\.count must be a whole number/,
  ],
  [
    'a malformed day',
    { ...change, day: '2025-3-10' },
    /changes\[0\]\.day must be a day YYYY-MM-DD/,
  ],
  [
    'a customer id with U+0000',
    { ...change, customer_id: 'c\u00001' },
    /changes\[0\]\.customer_id must not contain the character U\+0000/,
  ],
];

let pglite: PGlite | undefined;
afterAll(() => pglite?.close());

const STORES: readonly [string, () => Promise<Store>][] = [
  ['memory store', async () => createMemoryStore()],
  [
    'PGlite store',
    async () => {
      pglite = await PGlite.create();
      await migrate({ db: pglite });
      return createPgliteStore({ db: pglite });
    },
  ],
];

describe.each(STORES)('funding input on the %s', (_, create) => {
  let store: Promise<Store> | undefined;
  const opened = () => {
    store ??= create();
    return store;
  };

  test.each(BAD_RANGES)('hold refuses %s', async (_name, bad, message) => {
    const s = await opened();
    await expect(s.funding.hold(P, [range, bad as FundingRange].reverse())).rejects.toThrow(
      message,
    );
  });

  test.each(BAD_CHANGES)(
    'add refuses %s and adds nothing of its call',
    async (_name, bad, message) => {
      const s = await opened();
      await expect(
        s.transaction((u) => u.funding.add(P, [bad as FundingChange, change])),
      ).rejects.toThrow(message);
      await expect(s.funding.add(P, [bad as FundingChange, change])).rejects.toThrow(message);
      expect(await s.funding.hold(P, [range])).toEqual([{ amount: '0', count: 0 }]);
    },
  );

  test('hold and add refuse an empty partner', async () => {
    const s = await opened();
    await expect(s.funding.hold('', [range])).rejects.toThrow(TypeError);
    await expect(s.funding.add('', [change])).rejects.toThrow(/partner must be a non-empty string/);
  });
});
