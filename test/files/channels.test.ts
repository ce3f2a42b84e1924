/**
 * Every file format reads a transaction's `channel` (docs/concepts.md, Scopes: channels): NDJSON,
 * a JSON array, CSV (a `channel` column; an empty cell is none) and Parquet (written by DuckDB, an
 * independent writer), gzip-compressed too, give `replayFiles` the payments `replay` gives, and a
 * channel that is neither `online` nor `in_store` is an invalid transaction in each.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { stringify } from 'csv-stringify/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { replayFiles } from '../../src/files/index.js';
import { replay } from '../../src/index.js';
import { customer, offer } from '../fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'cashback-channels-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const offers = [
  offer({ offer_id: 1, discount: 5, channels: ['online'] }),
  offer({ offer_id: 2, discount: 2, channels: ['in_store'] }),
];
const customers = [customer()];
const channels = ['online', 'in_store', '', 'phone'];

/** Flat rows, as CSV and Parquet carry them: a channel, an empty one, one that is wrong. */
const rows = channels.map((channel, i) => ({
  transaction_id: `t${i}`,
  customer_id: 'c1',
  // Not empty: an empty CSV cell is a field left out, and a submitted transaction needs it.
  description: 'coffee',
  date: `2025-06-0${i + 1}T10:00:00`,
  amount: '40',
  'merchant.id': 'm1',
  'merchant.name': 'Coffee House',
  'merchant.category_code': '5812',
  'location.country': 'FR',
  'location.city': 'Paris',
  channel,
}));

/** The same transactions as JSON records: no `channel` where the cell is empty. */
const records = rows.map(({ channel, ...r }) => ({
  transaction_id: r.transaction_id,
  customer_id: r.customer_id,
  description: r.description,
  date: r.date,
  amount: r.amount,
  merchant: { id: 'm1', name: 'Coffee House', category_code: '5812' },
  location: { country: 'FR', city: 'Paris' },
  ...(channel === '' ? {} : { channel }),
}));

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('a transaction channel in every file format', () => {
  it('pays by channel as replay does, from NDJSON, JSON, CSV, Parquet and gzip', async () => {
    const expected = replay({ offers, customers, transactions: records });
    expect(expected.payments.map((p) => [p.transaction_id, p.offer_id])).toEqual([
      ['t0', 1],
      ['t1', 2],
    ]);
    expect(expected.errors.map((e) => [e.key, e.code])).toEqual([
      ['t2', 'no_offer'],
      ['t3', 'invalid_transaction'],
    ]);
    const csv = file('tx.csv', stringify(rows, { header: true }));
    const parquet = join(dir, 'tx.parquet');
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      await duck.run(
        `COPY (SELECT * FROM read_csv('${csv}', all_varchar = true)) TO '${parquet}' (FORMAT PARQUET)`,
      );
    } finally {
      duck.closeSync();
    }
    const inputs = {
      offers: file('offers.json', JSON.stringify(offers)),
      customers: file('customers.json', JSON.stringify(customers)),
    };
    const ndjson = records.map((r) => JSON.stringify(r)).join('\n');
    for (const transactions of [
      file('tx.ndjson', ndjson),
      file('tx.ndjson.gz', gzipSync(ndjson)),
      file('tx.json', JSON.stringify(records)),
      csv,
      parquet,
    ]) {
      const { payments, errors } = await (await replayFiles({ ...inputs, transactions })).collect();
      expect(payments, transactions).toEqual(expected.payments);
      expect(
        errors.map((e) => [e.key, e.code]),
        transactions,
      ).toEqual(expected.errors.map((e) => [e.key, e.code]));
    }
  });
});
