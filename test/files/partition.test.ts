/**
 * How `cashback replay --workers N` shares out customers and sends outcomes between threads:
 * a line routed from its bytes goes where its parsed `customer_id` goes, and outcomes come back
 * from their wire form as they were.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { duplicateOutcome } from '../../src/core/replay/duplicateOutcome.js';
import { Routes } from '../../src/files/parallel/Routes.js';
import {
  LineRouter,
  partitionOf,
  partitionOfId,
} from '../../src/files/parallel/routeByCustomer.js';
import { encodeOutcomes, OutcomeReader } from '../../src/files/parallel/wireOutcomes.js';
import { createReplay, type Outcome, parseTransaction } from '../../src/index.js';
import { compileOfferSet } from '../../src/matching/compileOffers.js';
import { ExactMoney } from '../../src/model/money.js';
import { sampleData } from './generated.js';

/** The partition of each of `lines`, routed from its bytes, lines taken in order. */
function routeLines(lines: readonly string[], partitions: number): number[] {
  const bytes = Buffer.from(lines.map((l) => `${l}\n`).join(''));
  const router = new LineRouter(bytes, partitions);
  const out: number[] = [];
  let start = 0;
  for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
    out.push(router.route(start, nl));
    start = nl + 1;
  }
  return out;
}

const id = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    'c-1',
    ' c-1 ',
    'c-é',
    'c-\u00a0',
    'c-"q"',
    'c-\\',
    '\tc-2',
    'c-2\t',
    'c/3',
    'c\n4',
  ),
);
/** Text whose JSON has every kind of escape: harmless ones (`\t`, `\/`, …) and the others. */
const escaped = fc.constantFrom(
  '"\\t A\\tB "',
  '"a\\/b\\n\\r\\b\\f"',
  '"q\\"customer_id\\":\\"c-9"',
  '"\\\\"',
  '"\\u0063-1"',
  '"\\\\\\t"',
);
const line = fc.oneof(
  fc.record({ customer_id: id, amount: fc.integer() }).map((o) => JSON.stringify(o)),
  fc
    .record({ customer_id: id, merchant: fc.record({ customer_id: id }), note: id })
    .map((o) => JSON.stringify(o)),
  fc
    .tuple(id, id)
    .map(
      ([top, nested]) =>
        `{"customer\\u005fid":${JSON.stringify(top)},"m":{"customer_id":${JSON.stringify(nested)}}}`,
    ),
  fc
    .tuple(id, id)
    .map(([a, b]) => `{"customer_id" : ${JSON.stringify(a)}, "customer_id":${JSON.stringify(b)}}`),
  fc
    .tuple(id, escaped, escaped)
    .map(
      ([c, a, b]) =>
        `{"note":${a},"customer_id":${JSON.stringify(c)},"merchant":{"name":${b}},"x":"\\t"}`,
    ),
  fc.tuple(escaped, escaped).map(([a, b]) => `{"customer_id":${a},"note":${b}}`),
  // A key that starts with an escaped quote: the key's bytes, but not the key.
  fc.constantFrom('{"\\"customer_id":"c-9"}', '{"a":"\\\\","\\"customer_id":"c-9"}'),
  fc.string({ maxLength: 30 }).filter((s) => !s.includes('\n')),
);

describe('LineRouter', () => {
  it('routes every line of JSON to the partition of its parsed customer_id', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), fc.integer({ min: 1, max: 5 }), (lines, n) => {
        const want = lines.map((l) => {
          try {
            return partitionOf(JSON.parse(l), n);
          } catch {
            return 0;
          }
        });
        expect(routeLines(lines, n)).toEqual(want);
      }),
    );
  });

  it('gives the main thread half the share of each worker thread', () => {
    const counts = [0, 0, 0];
    for (let i = 0; i < 30_000; i++) {
      const p = partitionOfId(`c-${i}`, 3);
      counts[p] = (counts[p] ?? 0) + 1;
    }
    expect(counts.map((c) => Math.round((c / 30_000) * 10) / 10)).toEqual([0.2, 0.4, 0.4]);
  });
});

/** Offers at three merchants, two of them with a budget. */
const budgetedOffers = compileOfferSet(
  [
    ['Coffee House', { amount: 10 }],
    ['Café Zoë', { amount: 5, period: 'day' }],
    ['Book Nook', undefined],
  ].map(([merchant_name, budget], i) => ({
    ...(sampleData().offers[0] as object),
    offer_id: i + 1,
    merchant_name,
    ...(budget === undefined ? {} : { budget }),
  })),
);

const merchantName = fc.oneof(
  fc.constantFrom(
    'Coffee House',
    ' coffee  HOUSE ',
    'Ｃｏｆｆｅｅ Ｈｏｕｓｅ',
    'Café Zoë',
    'cafe\u0301 zoe\u0308',
    'Book Nook',
    'Corner Shop',
    ' \tCoffee House ',
    'Coffee\tHouse',
  ),
  fc.string({ maxLength: 8 }),
);
/** The fields of a valid transaction but its customer and merchant, as JSON members. */
const FIELDS =
  '"transaction_id":"t-1","description":"card","date":"2025-03-01T10:00:00","amount":10,"location":{"country":"FR","city":"Paris"}';
const merchant = (name: string): string =>
  `{"id":"m-1","name":${JSON.stringify(name)},"category_code":"5812"}`;

/**
 * Transactions (as lines) whose merchant name may be escaped, missing, twice, elsewhere too, or
 * the value of another field; most are valid but for their customer id and name.
 */
const budgetLine = fc.oneof(
  fc
    .tuple(id, merchantName)
    .map(([c, a]) => `{"customer_id":${JSON.stringify(c)},${FIELDS},"merchant":${merchant(a)}}`),
  fc
    .tuple(id, merchantName, merchantName)
    .map(
      ([c, a, b]) =>
        `{"customer_id":${JSON.stringify(c)},"note":{"name":${JSON.stringify(b)}},${FIELDS},"merchant":${merchant(a)}}`,
    ),
  fc
    .tuple(id, merchantName, merchantName)
    .map(
      ([c, a, b]) =>
        `{"customer_id":${JSON.stringify(c)},${FIELDS},"merchant":{"id":"m","na\\u006de":${JSON.stringify(a)},"category_code":"5812"},"note":{"name":${JSON.stringify(b)}}}`,
    ),
  fc
    .tuple(id, merchantName, merchantName)
    .map(
      ([c, a, b]) =>
        `{"customer_id":${JSON.stringify(c)},${FIELDS},"note":{"name":${JSON.stringify(b)}},"merchant":{"id":"m","category_code":"5812"},"merchant":${merchant(a)}}`,
    ),
  fc
    .tuple(id, merchantName, merchantName)
    .map(
      ([c, a, b]) =>
        `{"customer_id":${JSON.stringify(c)},${FIELDS},"merchant":${merchant(a)},"merchant":{"id":"m","name" :  ${JSON.stringify(b)},"category_code":"5812"}}`,
    ),
  fc
    .tuple(id, merchantName)
    .map(
      ([c, n]) =>
        `{"customer_id":${JSON.stringify(c)},${FIELDS},"d":"name","merchant" : { "id":"m","name" :  ${JSON.stringify(n)} ,"category_code":"5812"}}`,
    ),
  fc
    .tuple(id, merchantName)
    .map(
      ([c, n]) =>
        `{"customer_id":${JSON.stringify(c)},${FIELDS},"merchant":{"name":7},"d":"name","e":{"name":${JSON.stringify(n)}}}`,
    ),
  line,
);

/** Whether parsing a line gives an invalid transaction (wherever it is decided). */
function invalid(value: unknown): boolean {
  return !parseTransaction(value, 0, 'UTC').ok;
}

describe('routes with a budgeted offer', () => {
  it('send a line read from its bytes where its parsed record goes, or else it is invalid', () => {
    fc.assert(
      fc.property(
        fc.array(budgetLine, { maxLength: 20 }),
        fc.integer({ min: 2, max: 5 }),
        (lines, n) => {
          const routes = new Routes(budgetedOffers, n);
          const bytes = Buffer.from(lines.map((l) => `${l}\n`).join(''));
          const router = routes.lines(bytes);
          let start = 0;
          for (const l of lines) {
            const end = start + Buffer.byteLength(l);
            const got = router.route(start, end);
            start = end + 1;
            let value: unknown;
            try {
              value = JSON.parse(l);
            } catch {
              continue;
            }
            if (got !== routes.ofRecord(value)) expect(invalid(value)).toBe(true);
          }
        },
      ),
    );
  });

  it('send every line at a budgeted merchant to one partition, the others by customer', () => {
    const routes = new Routes(budgetedOffers, 4);
    const at = (name: string, customer_id: string) =>
      routes.ofRecord({ customer_id, merchant: { name } });
    const coffee = routes.ofBudgetedMerchant('coffee house');
    expect(coffee).toBeDefined();
    for (const c of ['c-1', 'c-2', 'c-3', 'c-4', 'c-5']) {
      expect(at(' COFFEE   house', c)).toBe(coffee);
      expect(at('Book Nook', c)).toBe(partitionOfId(c, 4));
    }
    expect(routes.ofBudgetedMerchant('book nook')).toBeUndefined();
    expect(routes.decidesBudgets(coffee as number)).toBe(true);
  });
});

describe('wire outcomes', () => {
  it('come back as a replay made them, payments, errors and the key of an invalid item alike', () => {
    const { transactions, ...data } = sampleData();
    const outcomes = createReplay(data).push(transactions);
    expect(outcomes.some((o) => o.ok)).toBe(true);
    expect(outcomes.some((o) => !o.ok && o.error.code === 'invalid_transaction')).toBe(true);
    const reader = new OutcomeReader(encodeOutcomes(outcomes));
    const back = outcomes.map((o) => {
      if (o.ok) return reader.next(o.payment.transaction_id);
      return reader.next(o.error.code === 'invalid_transaction' ? null : o.error.key);
    });
    expect(back).toEqual(outcomes);
  });

  it('carry a cashback too large for integer units as its exact decimal', () => {
    const decimal = new ExactMoney('123456789012345678.25');
    const big: Outcome = {
      ok: true,
      cashback: { units: Number.NaN, decimal, value: decimal.toNumber() },
      payment: {
        transaction_id: 't-1',
        customer_id: 'c-1',
        offer_id: 7,
        cashback: decimal.toNumber(),
        payment_date: '2025-02-01',
      },
    };
    const back = new OutcomeReader(encodeOutcomes([big])).next('t-1');
    expect(back).toEqual(big);
    expect(back.ok && back.cashback.decimal?.toFixed()).toBe('123456789012345678.25');
  });

  it('make a duplicate found in the reading thread as the engine words it', () => {
    expect(duplicateOutcome('t-9')).toEqual({
      ok: false,
      error: {
        key: 't-9',
        code: 'duplicate_transaction',
        message: "Transaction 't-9' is already in the service",
      },
    });
  });
});
