/**
 * `confirmations.take` on a PostgreSQL server (docs/postgres.md, Confirmation): it reads the
 * payments table through its indexes only, however many payments a day has (a plan that scanned
 * the day for each 1,000 made a million payments take minutes), and, once the days are open, a
 * take never waits for another unit's confirmations: it skips the day that unit is reading.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/entry.js';
import { createPostgresStore } from '../../src/store/postgres/index.js';
import { freshServerDatabase, SKIP_SERVER, warnWhenSkipped } from './_databases.js';

warnWhenSkipped('confirmations on a PostgreSQL server');

const PAYMENTS = 5_000;

describe.skipIf(SKIP_SERVER)('confirmations on a PostgreSQL server', () => {
  let database: Awaited<ReturnType<typeof freshServerDatabase>> | undefined;
  let store: Store | undefined;
  let client: pg.Client | undefined;
  beforeAll(async () => {
    database = await freshServerDatabase();
    store = await createPostgresStore({ connectionString: database.url });
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    // Payments straight into the table: many of them due on one day.
    await client.query(
      `INSERT INTO cashback_payments (partner, transaction_id, customer_id, offer_id,
         offer_revision, cashback_amount, payment_date, country, city, event_id, order_key)
       SELECT 'bank', id, 'c1', 1, 1, 1.5, '2025-03-01', 'DE', 'Berlin', 'e0',
         decode(regexp_replace(encode(convert_to(id, 'UTF8'), 'hex'), '(..)', '00\\1', 'g'), 'hex')
       FROM (SELECT 't' || lpad(i::text, 6, '0') AS id FROM generate_series(1, $1) AS i) AS s`,
      [PAYMENTS],
    );
    await client.query('VACUUM ANALYZE cashback_payments');
  });
  afterAll(async () => {
    await client?.end();
    await store?.close?.();
    await database?.drop();
  });

  /** Sequential scans of the payments table so far. */
  async function sequentialScans(): Promise<number> {
    const c = client as pg.Client;
    await c.query('SELECT pg_stat_force_next_flush()');
    const r = await c.query(
      `SELECT seq_scan::int AS n FROM pg_stat_user_tables WHERE relname = 'cashback_payments'`,
    );
    return r.rows[0].n as number;
  }

  it('takes 1,000 payments of a day through the indexes, never scanning the table', async () => {
    const before = await sequentialScans();
    const s = store as Store;
    let taken = 0;
    for (let n = 1; n <= 3; n++) {
      const due = await s.transaction((unit) =>
        unit.confirmations.take({ through: '2025-03-01', limit: 1000, event_id: `e${n}` }),
      );
      taken += due?.payments.length ?? 0;
    }
    expect(taken).toBe(3000);
    expect(await sequentialScans()).toBe(before);
  });

  it('skips the day another unit is confirming, without waiting for it', async () => {
    const s = store as Store;
    const c = client as pg.Client;
    await c.query(
      `INSERT INTO cashback_payments (partner, transaction_id, customer_id, offer_id,
         offer_revision, cashback_amount, payment_date, country, city, event_id, order_key)
       SELECT 'bank', id, 'c1', 1, 1, 1.5, '2025-03-02', 'DE', 'Berlin', 'e0',
         decode(regexp_replace(encode(convert_to(id, 'UTF8'), 'hex'), '(..)', '00\\1', 'g'), 'hex')
       FROM (SELECT 'u' || lpad(i::text, 6, '0') AS id FROM generate_series(1, 1000) AS i) AS s`,
    );
    // Opens 2025-03-02 (a take that opens days waits for the units storing payments) and takes
    // 1,000 more of 2025-03-01.
    const opening = await s.confirmations.take({
      through: '2025-03-02',
      limit: 1000,
      event_id: 'opening',
    });
    expect(opening?.payment_date).toBe('2025-03-01');
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let holding: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      holding = r;
    });
    const holder = s.transaction(async (unit) => {
      const due = await unit.confirmations.take({
        through: '2025-03-02',
        limit: 1000,
        event_id: 'held',
      });
      holding();
      await released;
      return due;
    });
    await held;
    try {
      // The holder stays open until released: a take that waited for it would not answer.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const other = await Promise.race([
        s.transaction((unit) =>
          unit.confirmations.take({ through: '2025-03-02', limit: 1000, event_id: 'other' }),
        ),
        new Promise<'waited'>((r) => {
          timer = setTimeout(() => r('waited'), 5_000);
        }),
      ]);
      clearTimeout(timer);
      expect(other === 'waited' ? other : [other?.payment_date, other?.payments.length]).toEqual([
        '2025-03-02',
        1000,
      ]);
    } finally {
      release();
    }
    const due = await holder;
    expect([due?.payment_date, due?.payments.length]).toEqual(['2025-03-01', 1000]);
    const ids = [
      ...Array.from({ length: PAYMENTS }, (_, i) => `t${String(i + 1).padStart(6, '0')}`),
      ...Array.from({ length: 1000 }, (_, i) => `u${String(i + 1).padStart(6, '0')}`),
    ];
    const events = new Map<string, number>();
    for (const p of await s.payments.get('bank', ids)) {
      const e = p.confirmed_event ?? 'none';
      events.set(e, (events.get(e) ?? 0) + 1);
    }
    expect(Object.fromEntries(events)).toEqual({
      e1: 1000,
      e2: 1000,
      e3: 1000,
      opening: 1000,
      held: 1000,
      other: 1000,
    });
  });
});
