/**
 * Exactly-once payments across processes, on a PostgreSQL server: four engines in four child
 * processes, each with its own pool, submit the same 2,000 transactions in different orders and
 * batch sizes, plus 50 copies at once of one more transaction, all at the same time. Every call
 * answers, each transaction is paid exactly once, and the listing adds up to `replay` of the
 * same data.
 */
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/entry.js';
import { replay } from '../../src/index.js';
import { createPostgresStore } from '../../src/store/postgres/index.js';
import { offer } from '../fixtures.js';
import type { ChildJob } from './_child.js';
import { buildChild, runChildren } from './_children.js';
import { freshServerDatabase, SKIP_SERVER, warnWhenSkipped } from './_databases.js';

warnWhenSkipped('exactly-once payments across four processes on a PostgreSQL server');

const PARTNER = 'bank-a';
const offers = [
  offer(),
  offer({
    offer_id: 2,
    name: 'Books 3.5%',
    merchant_name: 'Book Corner',
    warranty: 30,
    discount: '3.5',
  }),
];
const customers = Array.from({ length: 200 }, (_, i) => ({
  customer_id: `c${i}`,
  birthday: `19${50 + (i % 50)}-0${1 + (i % 9)}-1${i % 10}`,
  gender: i % 2 === 0 ? 'female' : 'male',
  location: { country: 'DE', city: 'Berlin' },
}));
const MERCHANTS = ['Coffee House', 'Book Corner', 'Bakery'];
const transaction = (i: number) => ({
  transaction_id: `t${i}`,
  description: '',
  customer_id: `c${(i * 7) % 200}`,
  date: `2025-0${1 + (i % 9)}-1${i % 10}T0${i % 10}:15:00`,
  amount: `${1 + (i % 97)}.${i % 100}`,
  merchant: { id: 'm', name: MERCHANTS[i % 3] as string, category_code: '5812' },
  location: { country: 'DE', city: 'Berlin' },
});
const transactions = Array.from({ length: 2000 }, (_, i) => transaction(i));
/** The transaction sent 50 times at once: at a merchant with an offer, so it is paid. */
const copied = {
  ...transaction(2000),
  merchant: { id: 'm', name: 'Coffee House', category_code: '5812' },
};

/** A deterministic shuffle (mulberry32). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let a = seed >>> 0;
  const rnd = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe.skipIf(SKIP_SERVER)('exactly-once payments across processes', () => {
  let database: Awaited<ReturnType<typeof freshServerDatabase>> | undefined;
  let child: Awaited<ReturnType<typeof buildChild>> | undefined;
  beforeAll(async () => {
    [database, child] = await Promise.all([freshServerDatabase(), buildChild()]);
  }, 120_000);
  afterAll(async () => {
    child?.remove();
    await database?.drop();
  });

  it('pays each transaction once when four engines in four processes submit the same ones at once', async () => {
    const url = (database as { url: string }).url;
    const store = await createPostgresStore({ connectionString: url });
    const engine = createEngine({ store });
    await engine.upsertOffers(offers);
    await engine.upsertCustomers(PARTNER, customers);

    const batches = [1000, 200, 50, 7];
    // The 50 copies of one transaction are spread over the four processes: they race there too.
    const copies = [13, 13, 12, 12];
    const jobs: ChildJob[] = batches.map((batch, index) => ({
      mode: 'submit',
      url,
      index,
      partner: PARTNER,
      transactions: index === 0 ? transactions : shuffled(transactions, index),
      batch,
      concurrency: 3,
      copies: { transaction: copied, count: copies[index] as number },
    }));
    const results = await runChildren((child as { file: string }).file, jobs);

    for (const r of results) {
      expect(r.rejected, 'every call answers').toEqual([]);
    }
    expect(results.reduce((n, r) => n + (r.calls ?? 0), 0)).toBe(
      batches.reduce((n, b) => n + Math.ceil(2000 / b), 0) + 50,
    );
    const paid = results.flatMap((r) => r.paid ?? []);
    expect(paid.length, 'no transaction paid twice').toBe(new Set(paid).size);
    expect(paid.filter((id) => id === copied.transaction_id)).toHaveLength(1);

    const expected = replay(
      { offers, customers, history: [], transactions: [...transactions, copied] },
      {},
    );
    expect(new Set(paid)).toEqual(new Set(expected.payments.map((p) => p.transaction_id)));

    const listed = [];
    for (let page = 1; ; page++) {
      const r = await engine.listPayments(PARTNER, {
        date_from: '2025-01-01',
        date_to: '2026-12-31',
        page_size: 1000,
        current_page: page,
      });
      listed.push(...r.transactions);
      expect(r.total_count).toBe(expected.payments.length);
      if (r.transactions.length < 1000) break;
    }
    const sum = (amounts: readonly number[]) =>
      amounts.reduce((s, a) => s.plus(String(a)), new Decimal(0)).toString();
    expect(listed).toHaveLength(expected.payments.length);
    expect(sum(listed.map((p) => p.cashback_amount))).toBe(
      sum(expected.payments.map((p) => p.cashback)),
    );
    await store.close?.();
  }, 240_000);
});
