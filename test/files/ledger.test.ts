/**
 * `replayFiles` and the payment ledger (docs/replay.md, Late returns; Liability): `reported_at`
 * read from returns files of every format (a CSV cell left empty, a Parquet null: none), the
 * options `asOf` and `lateReturns`, and the collected clawbacks and liability, all as `replay()`
 * gives them for the same data.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import { replayFiles } from '../../src/files/index.js';
import { type ReplaySessionOptions, replay } from '../../src/index.js';
import { sampleData } from './generated.js';

const dir = mkdtempSync(join(tmpdir(), 'cashback-ledger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, content: string | Uint8Array): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

const sample = sampleData();
// t-0010 paid 25.00 on 2025-08-09: half returned in June, reported in August (a clawback); t-0004
// returned whole in time (cancelled); t-0012 in part without reported_at.
const RETURNS = [
  {
    return_id: 'r2',
    transaction_id: 't-0004',
    date: '2025-06-10T10:00:00',
    reported_at: '2025-06-12T10:00:00',
  },
  { return_id: 'r3', transaction_id: 't-0012', date: '2025-06-15T10:00:00', amount: '100' },
  {
    return_id: 'r1',
    transaction_id: 't-0010',
    date: '2025-06-20T10:00:00',
    amount: '649.5',
    reported_at: '2025-08-20T10:00:00',
  },
];
const COLUMNS = ['return_id', 'transaction_id', 'date', 'amount', 'reported_at'] as const;

describe('replayFiles with late returns', () => {
  const paths = {
    offers: file('offers.json', JSON.stringify(sample.offers)),
    customers: file('customers.json', JSON.stringify(sample.customers)),
    history: file('history.json', JSON.stringify(sample.history)),
    transactions: file('tx.json', JSON.stringify(sample.transactions)),
  };
  const returnsFiles = {
    json: file('returns.json', JSON.stringify(RETURNS)),
    csv: file('returns.csv', stringify(RETURNS, { header: true, columns: [...COLUMNS] })),
    parquet: file(
      'returns.parquet',
      new Uint8Array(
        parquetWriteBuffer({
          columnData: COLUMNS.map((name) => ({
            name,
            data: RETURNS.map((r) => (r as Record<string, unknown>)[name] ?? null),
            type: 'STRING' as const,
          })),
        }),
      ),
    ),
  };
  const cases: ReplaySessionOptions[] = [
    {},
    { lateReturns: 'ignore' },
    { asOf: '2025-08-01T00:00:00' },
    { asOf: '2025-08-20T10:00:00', timeZone: 'Europe/Paris' },
  ];

  for (const options of cases) {
    it(`collects replay()'s clawbacks and liability from JSON, CSV and Parquet, ${JSON.stringify(options)}`, async () => {
      const want = replay({ ...sample, returns: RETURNS }, options);
      for (const [format, returns] of Object.entries(returnsFiles)) {
        const got = await (await replayFiles({ ...paths, returns }, options)).collect();
        expect(got.clawbacks, format).toEqual(want.clawbacks);
        expect(got.adjustments, format).toEqual(want.adjustments);
        expect(got.returnErrors, format).toEqual(want.returnErrors);
        expect(got.summary, format).toEqual(want.summary);
      }
    });
  }

  it('has a clawback, a cancellation and late returns ignored to show', () => {
    const r = replay({ ...sample, returns: RETURNS });
    expect(r.clawbacks.map((c) => [c.return_id, c.amount])).toEqual([['r1', 5.51]]);
    expect(r.summary.liability.cancelled.count).toBe(1);
    const ignored = replay({ ...sample, returns: RETURNS }, { lateReturns: 'ignore' });
    expect(ignored.summary.returns?.errors.late_return).toBe(1);
    const before = replay({ ...sample, returns: RETURNS }, { asOf: '2025-08-01T00:00:00' });
    expect(before.summary.liability.clawedBack.count).toBe(0);
  });

  it('refuses a bad asOf or lateReturns before reading the transactions', async () => {
    await expect(replayFiles(paths, { asOf: 'soon' })).rejects.toThrow(/asOf must be a date-time/);
    await expect(replayFiles(paths, { lateReturns: 'later' as never })).rejects.toThrow(
      /lateReturns must be 'clawback' or 'ignore'/,
    );
  });
});
