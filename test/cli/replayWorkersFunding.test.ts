/**
 * `cashback replay --workers N` with funding controls, as users run it (the built command as a
 * child process): budgets shared by customers of different partitions, per offer, day, week and
 * month, caps and activations give the files and summary of one worker, equal to `replay()`'s,
 * from NDJSON (lines routed from their bytes) and CSV (records) alike; so do scoped offers with a
 * budget spanning many merchants, caps and history over a scope (their lines pooled).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionOfId } from '../../src/files/parallel/routeByCustomer.js';
import { replay } from '../../src/index.js';
import { generatedData, nested } from '../files/generated.js';
import { type BuiltCli, buildCli } from './_buildCli.js';

let built: BuiltCli | undefined;
let work: string;

beforeAll(async () => {
  built = await buildCli();
  work = built.dir;
}, 60_000);

afterAll(() => built?.remove());

const file = (name: string, content: string | Uint8Array): string => {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
};
const ndjson = (items: readonly unknown[]): string =>
  items.map((t) => JSON.stringify(t)).join('\n');
const cashback = (args: readonly string[]) => (built as BuiltCli).run(['replay', ...args]);

/** Payments of a CSV output file, with numbers as replay() gives them. */
function paymentsCsv(path: string): unknown[] {
  return (parse(readFileSync(path, 'utf8'), { columns: true }) as Record<string, string>[]).map(
    (r) => ({ ...r, offer_id: Number(r.offer_id), cashback: Number(r.cashback) }),
  );
}

const lines = (path: string): unknown[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

/** The funding of each sample offer, by `offer_id`. */
const FUNDING: Record<number, object> = {
  // Coffee House: one budget for the whole offer, spent by every customer.
  1: { budget: { amount: 40, period: 'offer' } },
  2: { budget: { amount: '1.5', period: 'day' }, customer_cap: { count: 4, period: 'month' } },
  // Page Turner Books and FastFuel read history, which goes with the merchant's lines.
  3: { budget: { amount: 30, period: 'week' } },
  4: { budget: { amount: 25, period: 'month' }, customer_cap: { amount: 3, period: 'week' } },
  // Volt Electronics: a cap per customer and activation, no budget (lines go by customer).
  5: { customer_cap: { amount: 20, count: 2, period: 'month' }, requires_activation: true },
  7: { requires_activation: true, budget: { amount: '0.2', period: 'week' } },
};

describe('cashback replay --workers with budgets, caps and activations', () => {
  const data = generatedData(2031, 240, 2500);
  const offers = data.offers.map((o) => {
    const offer = o as { offer_id: number; age?: unknown };
    return { ...offer, age: [], ...FUNDING[offer.offer_id] };
  });
  const people = data.customers as { customer_id: string }[];
  const activations: unknown[] = [
    ...people
      .filter((_, i) => i % 3 !== 0)
      .flatMap(({ customer_id }, i) => [
        { customer_id, offer_id: 5, date: '2025-02-01T00:00:00' },
        { customer_id, offer_id: i % 2 === 0 ? 7 : '7', date: '2025-03-15T08:00:00' },
      ]),
    // Rejected as one replay rejects them: a pair given twice, a missing date, an unknown offer.
    { customer_id: 'c-1', offer_id: 5, date: '2025-01-01T00:00:00' },
    { customer_id: 'c-2', offer_id: 5 },
    { customer_id: 'c-3', offer_id: 99, date: '2025-01-01T00:00:00' },
  ];
  const history = Array.from({ length: 400 }, (_, i) => ({
    transaction_id: `h-${i}`,
    customer_id: `c-${(i * 7) % 240}`,
    date: `2024-12-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00`,
    amount: 10 + (i % 50),
    merchant: { name: i % 2 === 0 ? 'FastFuel' : 'Page Turner Books' },
  }));
  const transactions = data.transactions.map(nested);
  const reference = replay({
    offers,
    customers: data.customers,
    activations,
    history,
    transactions,
  });

  it('pays as one replay, budgets running out across the partitions of 2 and 3 workers', async () => {
    // The budgets do run out, and a budget is paid to customers of more than one partition.
    const failed = reference.errors.filter((e) => /failed its budget check/.test(e.message));
    expect(failed.length).toBeGreaterThan(20);
    expect(reference.errors.some((e) => /failed its customer_cap check/.test(e.message))).toBe(
      true,
    );
    expect(reference.errors.some((e) => /failed its activation check/.test(e.message))).toBe(true);
    for (const id of [1, 2, 3, 4, 7]) {
      const paid = reference.payments.filter((p) => p.offer_id === id);
      const partitions = new Set(paid.map((p) => partitionOfId(p.customer_id, 3)));
      expect(partitions.size, `offer ${id}`).toBeGreaterThan(1);
    }
    expect(reference.rejected.activations).toHaveLength(3);

    const inputs = [
      '--offers',
      file('funded-offers.json', JSON.stringify(offers)),
      '--customers',
      file('funded-customers.ndjson', ndjson(data.customers)),
      '--activations',
      file('funded-activations.json', JSON.stringify(activations)),
      '--history',
      file('funded-history.ndjson', ndjson(history)),
      '--json',
    ];
    const ndjsonTx = file('funded-tx.ndjson.gz', gzipSync(ndjson(transactions)));
    const csvTx = file('funded-tx.csv', stringify(data.transactions, { header: true }));
    const runs: [string, string, string][] = [
      ['1', ndjsonTx, 'ndjson'],
      ['2', ndjsonTx, 'ndjson'],
      ['3', ndjsonTx, 'ndjson'],
      ['1', csvTx, 'csv'],
      ['2', csvTx, 'csv'],
      ['3', csvTx, 'csv'],
    ];
    const outputs: Record<string, string[]> = { ndjson: [], csv: [] };
    for (const [workers, tx, kind] of runs) {
      const out = join(work, `funded-${kind}-${workers}.csv`);
      const errors = join(work, `funded-${kind}-${workers}-errors.ndjson`);
      const r = await cashback([
        ...inputs,
        '--transactions',
        tx,
        '--workers',
        workers,
        '--out',
        out,
        '--errors',
        errors,
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr.match(/^cashback: activation /gm)).toHaveLength(3);
      expect(paymentsCsv(out), `${kind}, ${workers} workers`).toEqual(reference.payments);
      // CSV gives every cell as text: the amount -1 is refused with another message.
      if (kind === 'ndjson') {
        expect(JSON.parse(r.stdout)).toMatchObject(reference.summary);
        expect(lines(errors), `${workers} workers`).toEqual(reference.errors);
      }
      const output = readFileSync(out, 'utf8') + readFileSync(errors, 'utf8') + r.stderr + r.stdout;
      outputs[kind]?.push(output);
    }
    for (const kind of ['ndjson', 'csv']) {
      const [one, ...more] = outputs[kind] as string[];
      for (const o of more) expect(o, kind).toBe(one);
    }
  }, 120_000);
});

describe('cashback replay --workers with a scoped offer that has a budget', () => {
  const data = generatedData(2032, 240, 2500);
  const ids = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => `m-${from + i}`);
  const base = { name: 'scoped', warranty: 7, valid_from: '2025-01-01', valid_to: '2026-12-31' };
  const offers = [
    ...data.offers.map((o) => {
      const offer = o as { offer_id: number };
      return { ...offer, age: [], ...FUNDING[offer.offer_id] };
    }),
    // A budget across ten merchant ids, whatever their names.
    {
      ...base,
      offer_id: 20,
      scope: { merchant_ids: ids(1, 10), exclude_merchants: ['Penny Candy'] },
      reward: { type: 'fixed', amount: 1.5 },
      budget: { amount: 20, period: 'month' },
    },
    // History over two merchants; the lines of the others at these names go by customer.
    {
      ...base,
      offer_id: 21,
      scope: { merchants: ['Corner Shop', 'Green Grocer'] },
      reward: {
        type: 'tiers',
        mode: 'marginal',
        tiers: [
          { from: 0, rate: 1 },
          { from: 50, rate: 4 },
        ],
      },
      audience: 'returning',
      lookback_days: 20,
    },
    // A cap per customer over ten other ids, online purchases only.
    {
      ...base,
      offer_id: 22,
      scope: { merchant_ids: ids(40, 49) },
      discount: 6,
      channels: ['online'],
      customer_cap: { count: 2, period: 'month' },
    },
  ];
  const people = data.customers as { customer_id: string }[];
  const activations = people.map(({ customer_id }) => ({
    customer_id,
    offer_id: 5,
    date: '2025-02-01T00:00:00',
  }));
  const transactions = data.transactions.map((t, i) => ({
    ...nested(t),
    ...(i % 3 === 0 ? {} : { channel: i % 3 === 1 ? 'online' : 'in_store' }),
  }));
  const reference = replay({ offers, customers: data.customers, activations, transactions });

  it('pays as one replay with 1, 2 and 3 workers, the scoped budget running out across customers', async () => {
    expect(reference.errors.some((e) => /offer 20 failed its budget check/.test(e.message))).toBe(
      true,
    );
    for (const id of [20, 21, 22]) {
      const paid = reference.payments.filter((p) => p.offer_id === id);
      expect(new Set(paid.map((p) => partitionOfId(p.customer_id, 3))).size, `offer ${id}`).toBe(3);
    }
    const inputs = [
      '--offers',
      file('scoped-offers.json', JSON.stringify(offers)),
      '--customers',
      file('scoped-customers.ndjson', ndjson(data.customers)),
      '--activations',
      file('scoped-activations.json', JSON.stringify(activations)),
      '--transactions',
      file('scoped-tx.ndjson', ndjson(transactions)),
      '--json',
    ];
    const outputs: string[] = [];
    for (const workers of ['1', '2', '3']) {
      const out = join(work, `scoped-${workers}.csv`);
      const errors = join(work, `scoped-${workers}-errors.ndjson`);
      const r = await cashback([...inputs, '--workers', workers, '--out', out, '--errors', errors]);
      expect(r.code, r.stderr).toBe(0);
      expect(paymentsCsv(out), `${workers} workers`).toEqual(reference.payments);
      expect(lines(errors), `${workers} workers`).toEqual(reference.errors);
      expect(JSON.parse(r.stdout)).toMatchObject(reference.summary);
      outputs.push(readFileSync(out, 'utf8') + readFileSync(errors, 'utf8') + r.stdout);
    }
    const [one, ...more] = outputs;
    for (const o of more) expect(o).toBe(one);
  }, 120_000);
});
