/**
 * A partner id that PostgreSQL's text cannot keep as given (U+0000, an unpaired surrogate) is a
 * TypeError naming the reason on every store, never a driver error on one and a stored partner on
 * another (docs/concepts.md, Input rules).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/engine/entry.js';
import type { Store } from '../../src/store/entry.js';
import { createPgliteStore, migrate } from '../../src/store/postgres/index.js';
import { EMPTY, sharedPglite } from './_databases.js';

const CUSTOMER = {
  customer_id: 'c1',
  birthday: '1990-01-01',
  gender: 'female',
  location: { country: 'FR', city: 'Paris' },
};

describe('a partner id no store can keep', () => {
  const shared = sharedPglite();
  afterAll(() => shared.close());
  const stores: [string, () => Promise<Store>][] = [
    ['the memory store', async () => createMemoryStore()],
    [
      'the PGlite store',
      async () => {
        const db = await shared.db();
        await migrate({ db });
        await db.exec(EMPTY);
        return createPgliteStore({ db });
      },
    ],
  ];

  for (const [name, open] of stores) {
    for (const [label, partner, reason] of [
      ['U+0000', 'bank\u0000a', 'must not contain the character U+0000'],
      ['a lone surrogate', 'bank-\ud800', 'must not contain an unpaired surrogate'],
    ] as const) {
      it(`is a TypeError on ${name} when it holds ${label}, and keeps nothing`, async () => {
        const store = await open();
        const err = await store.customers.upsert(partner, [CUSTOMER]).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(TypeError);
        expect((err as TypeError).message).toContain(`partner ${reason}`);
        expect(await store.customers.get('bank-a', ['c1'])).toEqual([]);
        await store.close?.();
      });
    }
  }
});
