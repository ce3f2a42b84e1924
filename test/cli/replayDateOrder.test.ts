/**
 * `cashback replay` over transactions out of date order: by default it gives `replay()`'s answer
 * for the same data in the same order, with one worker or two; `--max-lateness-days N` keeps the
 * bounded session, which ends the run with exit code 2 at a transaction more than N days older
 * than the newest before it (docs/replay.md, Streaming and date order).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replay } from '../../src/index.js';
import { type BuiltCli, buildCli } from './_buildCli.js';

let built: BuiltCli | undefined;
let work: string;

beforeAll(async () => {
  built = await buildCli();
  work = built.dir;
}, 60_000);

afterAll(() => built?.remove());

const file = (name: string, content: string): string => {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
};
const lines = (path: string): unknown[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

const place = { country: 'FR', city: 'Paris' };
// A returning-customer offer reads history: what a late transaction sees depends on what is kept.
const offers = [
  {
    offer_id: 1,
    name: 'Coffee 10%',
    merchant_name: 'Coffee House',
    discount: 10,
    warranty: 0,
    valid_from: '2024-01-01',
    valid_to: '2025-12-31',
    audience: 'returning',
    lookback_days: 30,
  },
];
const customers = ['c-1', 'c-2'].map((customer_id) => ({
  customer_id,
  birthday: '1990-01-01',
  gender: 'F',
  location: place,
}));
const at = (id: string, customer: string, date: string) => ({
  transaction_id: id,
  customer_id: customer,
  description: '',
  merchant: { id: 'm-1', name: 'Coffee House', category_code: '5814' },
  location: place,
  date,
  amount: 20,
});
// t-3 and t-4 are 90 days older than t-2; t-4 is a returning purchase after t-3.
const transactions = [
  at('t-1', 'c-1', '2025-06-01T10:00:00'),
  at('t-2', 'c-2', '2025-06-02T10:00:00'),
  at('t-3', 'c-2', '2025-03-01T10:00:00'),
  at('t-4', 'c-2', '2025-03-05T10:00:00'),
  at('t-5', 'c-1', '2025-06-03T10:00:00'),
];

describe('cashback replay out of date order', () => {
  const want = replay({ offers, customers, transactions });
  let inputs: string[];
  beforeAll(() => {
    inputs = [
      '--offers',
      file('order-offers.json', JSON.stringify(offers)),
      '--customers',
      file('order-customers.json', JSON.stringify(customers)),
      '--transactions',
      file('order-tx.ndjson', transactions.map((t) => JSON.stringify(t)).join('\n')),
    ];
  });

  it("gives replay()'s payments and errors by default, with one worker or two", async () => {
    expect(want.payments.map((p) => p.transaction_id)).toEqual(['t-4', 't-5']);
    for (const workers of ['1', '2']) {
      const out = join(work, `order-${workers}.ndjson`);
      const errors = join(work, `order-${workers}-errors.ndjson`);
      const r = await (built as BuiltCli).run([
        'replay',
        ...inputs,
        '--workers',
        workers,
        '--out',
        out,
        '--errors',
        errors,
      ]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(lines(out)).toEqual(want.payments);
      expect(lines(errors)).toEqual(want.errors);
    }
  });

  it('ends with exit code 2 at the first late transaction with --max-lateness-days', async () => {
    for (const workers of ['1', '2']) {
      const r = await (built as BuiltCli).run([
        'replay',
        ...inputs,
        '--workers',
        workers,
        '--max-lateness-days',
        '31',
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /^cashback: Transaction 't-3' of 2025-03-01 is more than 31 day\(s\) older than 2025-06-02, .*Push transactions in date order, or raise maxLatenessDays/,
      );
    }
    const wide = await (built as BuiltCli).run(['replay', ...inputs, '--max-lateness-days', '93']);
    expect(wide.code).toBe(0);
  });
});
