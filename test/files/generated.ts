/**
 * A generated data set for the file and CLI tests: the sample offers, `customers` customers and
 * `count` transactions in date order, with what a replay must get right: ids reused by other
 * customers (duplicates across customers, so across workers), unknown customers and invalid
 * amounts. Deterministic: a seeded generator, so a failure replays.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MERCHANTS = [
  'Coffee House',
  'Page Turner Books',
  'FastFuel',
  'Volt Electronics',
  'Green Grocer',
  'Penny Candy',
  'Corner Shop',
];

/** The sample data set of docs/examples. */
export function sampleData(): {
  offers: unknown[];
  customers: unknown[];
  history: unknown[];
  transactions: unknown[];
} {
  const load = (name: string): unknown[] =>
    JSON.parse(readFileSync(join(root, 'docs', 'examples', `${name}.json`), 'utf8')) as unknown[];
  return {
    offers: load('offers'),
    customers: load('customers'),
    history: load('history'),
    transactions: load('transactions'),
  };
}

/** A flat transaction: every field a string or a number, for CSV and Parquet. */
export interface FlatTransaction {
  transaction_id: string;
  customer_id: string;
  description: string;
  date: string;
  amount: number;
  'merchant.id': string;
  'merchant.name': string;
  'merchant.category_code': string;
  'location.country': string;
  'location.city': string;
}

/** The nested shape of a flat transaction. */
export function nested(t: FlatTransaction): Record<string, unknown> {
  return {
    transaction_id: t.transaction_id,
    customer_id: t.customer_id,
    description: t.description,
    date: t.date,
    amount: t.amount,
    merchant: {
      id: t['merchant.id'],
      name: t['merchant.name'],
      category_code: t['merchant.category_code'],
    },
    location: { country: t['location.country'], city: t['location.city'] },
  };
}

/** Generated customers and transactions (flat), seeded. */
export function generatedData(
  seed: number,
  customers: number,
  count: number,
): { offers: unknown[]; customers: unknown[]; transactions: FlatTransaction[] } {
  let state = seed >>> 0;
  const next = (n: number): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
  const people = Array.from({ length: customers }, (_, i) => ({
    customer_id: `c-${i}`,
    birthday: `${1950 + next(55)}-0${1 + next(9)}-1${next(9)}`,
    gender: next(2) === 0 ? 'F' : 'M',
    location: { country: 'FR', city: 'Paris' },
  }));
  const transactions: FlatTransaction[] = [];
  let seconds = Date.UTC(2025, 0, 1) / 1000;
  for (let i = 0; i < count; i++) {
    seconds += next(3600 * 6);
    const roll = next(100);
    const owner = roll === 0 ? `c-unknown-${i}` : `c-${next(customers)}`;
    // Two in a hundred reuse an earlier id, most likely of another customer.
    const id = roll <= 2 && i > 0 ? `t-${next(i)}` : `t-${i}`;
    transactions.push({
      transaction_id: id,
      customer_id: owner,
      description: 'card purchase',
      date: new Date(seconds * 1000).toISOString().slice(0, 19),
      amount: roll === 3 ? -1 : (1 + next(20000)) / 100,
      'merchant.id': `m-${next(50)}`,
      'merchant.name': MERCHANTS[next(MERCHANTS.length)] as string,
      'merchant.category_code': '5999',
      'location.country': 'FR',
      'location.city': 'Paris',
    });
  }
  return { offers: sampleData().offers, customers: people, transactions };
}
