/**
 * On PGlite, a batch with one item no store can keep (U+0000, a lone surrogate, an amount of
 * 20,000 decimals) is answered 200: that item gets its per-item error naming the field, and every
 * other item of the batch is decided and stored as on the memory store (docs/http.md).
 */
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { createPgliteStore, migrate } from '../../src/store/postgres/index.js';
import { customer, history, offer, tx } from '../fixtures.js';
import { EMPTY, sharedPglite } from '../postgres/_databases.js';
import { type Harness, startHarness } from './_harness.js';

const A = 'bank-a';
const NUL = 'must not contain the character U+0000';
const LONE = 'must not contain an unpaired surrogate (U+D800 to U+DFFF without its pair)';

const shared = sharedPglite();
afterAll(() => shared.close());
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The partner API over an empty PGlite store, with one offer. */
async function ready(): Promise<Harness> {
  const db = await shared.db();
  await migrate({ db });
  await db.exec(EMPTY);
  h = await startHarness({ store: await createPgliteStore({ db }) });
  await h.engine.upsertOffers([offer()]);
  return h;
}

describe('one item no store can keep leaves the rest of its batch decided, on PGlite', () => {
  test('POST /customers/: lone surrogates and U+0000 are per-item errors', async () => {
    const s = await ready();
    const r = await s.post(A, '/customers/', [
      customer({ customer_id: 'c1' }),
      customer({ customer_id: 'y-\ud800' }),
      customer({ customer_id: 'y-\ud801' }),
      customer({ customer_id: 'c2', location: { country: 'FR', city: 'Par\u0000is' } }),
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      Added: 1,
      Updated: 0,
      Errors: {
        '#1': `Invalid customer: customer_id ${LONE}`,
        '#2': `Invalid customer: customer_id ${LONE}`,
        c2: `Invalid customer: location.city ${NUL}`,
      },
    });
  });

  test('POST /transactions-history and POST /transactions', async () => {
    const s = await ready();
    await s.post(A, '/customers/', [customer({ customer_id: 'c1' })]);
    const up = await s.post(A, '/transactions-history', [
      history({ transaction_id: 'h1', description: 'a\u0000' }),
      history({ transaction_id: 'h2' }),
    ]);
    expect(up.status).toBe(200);
    expect(up.body[0].errors).toEqual({ h1: `Invalid history transaction: description ${NUL}` });

    const batch = [
      tx({ transaction_id: 't1' }),
      tx({
        transaction_id: 't2',
        merchant: { id: 'm\u0000', name: 'Coffee House', category_code: '1' },
      }),
      tx({ transaction_id: 'y-\ud800' }),
      tx({ transaction_id: 't3', amount: `1.${'1'.repeat(20_000)}` }),
      tx({ transaction_id: 't4', amount: 20 }),
      tx({ transaction_id: 'h2' }),
    ];
    const r = await s.post(A, '/transactions', batch);
    expect(r.status).toBe(200);
    expect(r.body[0].payments.map((p: { transaction_id: string }) => p.transaction_id)).toEqual([
      't1',
      't4',
    ]);
    expect(r.body[0].errors).toEqual({
      t2: `Invalid transaction: merchant.id ${NUL}`,
      '#2': `Invalid transaction: transaction_id ${LONE}`,
      t3: 'Invalid transaction: amount must have at most 1000 digits before the decimal point and 1000 after it',
      h2: "Transaction 'h2' is already in the service",
    });
    // Sent again, the valid items are duplicates and the invalid ones still invalid: nothing
    // was stored under an id the partner never sent.
    const again = await s.post(A, '/transactions', batch);
    expect(again.status).toBe(200);
    expect(again.body[0].payments).toEqual([]);
    expect(Object.keys(again.body[0].errors).sort()).toEqual(['#2', 'h2', 't1', 't2', 't3', 't4']);
    const listed = await s.get(A, '/cashback-payments?date_from=2025-01-01&date_to=2025-12-31');
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain('\ufffd');
    expect(listed.body.total_count).toBe(2);
  });
});
