/**
 * The OpenAPI document judges request items as the server does (docs/http.md): a validating
 * proxy checks each item against the served document's schema of its route, then sends it to the
 * server; the document must admit exactly the items that the server does not refuse as invalid
 * (`Invalid activation: …`, `Invalid transaction: …`). Tried on the fields whose bounds the
 * document states: an activation's `offer_id` (a positive safe integer, or a string of at most 16
 * digits of one) and the `amount` of transactions, history transactions and returns (greater than
 * 0, at most 10^12, at most 1,000 digits after the point, trailing zeros aside), first on named
 * edge values, then on values fast-check draws around those bounds; and a return's `reported_at`
 * (a date-time of the format of `date`), whose two checks no pattern can state (a real day, not
 * before `date`) the document states in words.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { history, tx } from '../fixtures.js';
import { type Harness, startHarness } from './_harness.js';

const A = 'bank-a';
const MAX_SAFE = '9007199254740991';

/** A route whose items carry the field tried, each item valid but for that field. */
interface ItemRoute {
  /** The component schema of the route's items. */
  readonly schema: string;
  /** What the server calls an item in its message for an invalid one (`Invalid <what>: …`). */
  readonly what: string;
  /** The item of index `i` with `value` in the field tried. */
  readonly item: (i: number, value: unknown) => Record<string, unknown>;
  /** The item's message in the answer, if any. */
  readonly outcome: (body: unknown, i: number) => string | undefined;
}

type ErrorMap = Record<string, string>;
/** The error map of a one-element batch answer (`[{event_id, …, errors}]`). */
const batchErrors = (body: unknown) => (body as [{ errors: ErrorMap }])[0].errors;

const ROUTES: Record<string, ItemRoute> = {
  '/activations': {
    schema: 'Activation',
    what: 'activation',
    // A customer of its own per item: two ids of one offer would be duplicates of one pair.
    item: (i, value) => ({ customer_id: `c-${i}`, offer_id: value }),
    outcome: (body, i) => {
      const errors = (body as { Errors: ErrorMap }).Errors;
      const key = Object.keys(errors).find((k) => k === `#${i}` || k.startsWith(`c-${i}/`));
      return key === undefined ? undefined : errors[key];
    },
  },
  '/transactions': {
    schema: 'Transaction',
    what: 'transaction',
    item: (i, value) => tx({ transaction_id: `t-${i}`, amount: value }),
    outcome: (body, i) => batchErrors(body)[`t-${i}`],
  },
  '/transactions-history': {
    schema: 'HistoryTransaction',
    what: 'history transaction',
    item: (i, value) => history({ transaction_id: `h-${i}`, amount: value }),
    outcome: (body, i) => batchErrors(body)[`h-${i}`],
  },
  '/returns': {
    schema: 'Return',
    what: 'return',
    // Of a transaction never stored: past the checks of its fields, it is only "not found".
    item: (i, value) => ({
      return_id: `r-${i}`,
      transaction_id: 't-404',
      date: '2025-06-05T10:00:00',
      amount: value,
    }),
    outcome: (body, i) => batchErrors(body)[`r-${i}`],
  },
};

const AMOUNT_ROUTES = ['/transactions', '/transactions-history', '/returns'] as const;

let h: Harness;
let ajv: Ajv2020;
beforeAll(async () => {
  h = await startHarness();
  const served = await h.call('GET', '/openapi.json');
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(served.body, 'openapi');
});
afterAll(() => h.close());

/** One value where the document and the server disagree. */
interface Disagreement {
  readonly value: string;
  readonly document: 'admits' | 'refuses';
  readonly server: string;
}

/** The value as it reads in a report: JSON, a run of over 20 of one digit as ‹digit×count›. */
const shown = (value: unknown) =>
  JSON.stringify(value).replace(/(\d)\1{20,}/g, (run, d) => `‹${d}×${run.length}›`);

/**
 * Sends one item per value to `path` in one batch, and judges each against the served document:
 * the values on which the document's verdict is not the server's.
 */
async function disagreements(
  path: string,
  values: readonly unknown[],
  route: ItemRoute = ROUTES[path] as ItemRoute,
): Promise<Disagreement[]> {
  const admits = ajv.compile({ $ref: `openapi#/components/schemas/${route.schema}` });
  const items = values.map((v, i) => route.item(i, v));
  const r = await h.post(A, path, items);
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  const out: Disagreement[] = [];
  values.forEach((value, i) => {
    const message = route.outcome(r.body, i);
    const refused = message?.startsWith(`Invalid ${route.what}:`) === true;
    // Round-tripped as the server reads it: the document judges JSON, not JavaScript values.
    if (admits(JSON.parse(JSON.stringify(items[i]))) === refused) {
      out.push({
        value: shown(value),
        document: refused ? 'admits' : 'refuses',
        server: message ?? 'accepted',
      });
    }
  });
  return out;
}

/** `count` decimal digits. */
const digits = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });

const zeros = (n: number) => '0'.repeat(n);

describe('an activation offer_id', () => {
  const admitted = [1, 7, MAX_SAFE, Number(MAX_SAFE), '7', '0007', '0000000000000007'];
  const refused = [
    '9999999999999999',
    '9007199254740992',
    '9007199254741000',
    '0000000000000000',
    '0',
    '00000000000000007',
    '',
    2 ** 53,
    0,
    -1,
    1.5,
  ];
  test.each([...admitted, ...refused].map((v) => [shown(v), v]))(
    '%s: admitted by the document exactly when the server takes it',
    async (_, value) => {
      expect(await disagreements('/activations', [value])).toEqual([]);
    },
  );

  test('drawn around 16 digits and the largest safe integer: the document and the server agree', async () => {
    const offerId = fc.oneof(
      digits(1, 17),
      // Sixteen digits sharing a first part with the largest safe integer.
      fc
        .integer({ min: 0, max: 16 })
        .chain((k) => digits(16 - k, 16 - k).map((rest) => MAX_SAFE.slice(0, k) + rest)),
      fc
        .tuple(fc.integer({ min: 0, max: 17 }), fc.integer({ min: 1, max: 999 }))
        .map(([z, n]) => `${zeros(z)}${n}`),
      fc.integer({ min: Number.MAX_SAFE_INTEGER - 1000, max: Number.MAX_SAFE_INTEGER }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(offerId, { minLength: 1, maxLength: 300 }), async (values) => {
        expect(await disagreements('/activations', values)).toEqual([]);
      }),
      { numRuns: 5 },
    );
  });
});

describe.each(AMOUNT_ROUTES)('the amount of an item of %s', (path) => {
  const admitted = [
    1,
    0.01,
    1e12,
    5e-324,
    '1000000000000',
    '1000000000000.000',
    '999999999999.999',
    `${zeros(2000)}5`,
    `5.${zeros(2000)}`,
    `0.${zeros(999)}1`,
    `1.${'9'.repeat(1000)}`,
    '00.10',
  ];
  const refused = [
    1e12 + 0.001,
    1e13,
    0,
    '1000000000000.001',
    '1000000000001',
    '9999999999999',
    `1${zeros(1000)}`,
    `0.${zeros(1000)}1`,
    `1.${'9'.repeat(1001)}`,
    `1.${'9'.repeat(1001)}${zeros(5)}`,
    '0.000',
    '0',
    '1e3',
    '.5',
    '',
  ];
  test.each([...admitted, ...refused].map((v) => [shown(v), v]))(
    '%s: admitted by the document exactly when the server takes it',
    async (_, value) => {
      expect(await disagreements(path, [value])).toEqual([]);
    },
  );

  test('drawn around 10^12 and 1,000 digits: the document and the server agree', async () => {
    const fraction = fc.oneof(
      fc.constant(''),
      fc
        .tuple(fc.oneof(digits(1, 4), digits(995, 1003)), fc.oneof(fc.nat(2), fc.constant(1200)))
        .map(([d, z]) => `.${d}${zeros(z)}`),
    );
    const amount = fc.oneof(
      fc
        .tuple(fc.oneof(fc.nat(2), fc.constant(1200)), digits(1, 14), fraction)
        .map(([z, int, frac]) => `${zeros(z)}${int}${frac}`),
      fc
        .tuple(fc.constantFrom('999999999999', '1000000000000', '1000000000001'), fraction)
        .map(([int, frac]) => int + frac),
      fc.double({ min: 0, max: 2e12, noNaN: true }),
      fc.constantFrom(1e12, 1e12 + 0.0001, 1e13, 1e21, 1e-7),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(amount, { minLength: 1, maxLength: 200 }), async (values) => {
        expect(await disagreements(path, values)).toEqual([]);
      }),
      { numRuns: 5 },
    );
  });
});

describe("a return's reported_at", () => {
  /** A return of a transaction never stored, valid but for its reported_at. */
  const reported: ItemRoute = {
    ...(ROUTES['/returns'] as ItemRoute),
    item: (i, value) => ({
      return_id: `r-${i}`,
      transaction_id: 't-404',
      date: '2025-06-05T10:00:00',
      reported_at: value,
    }),
  };
  const admitted = [
    '2025-06-05T10:00:00',
    '2025-06-06T10:00:00.123456789',
    '2025-06-06T10:00:00Z',
    '2025-06-06T10:00:00+02:00',
    '2025-06-06T10:00:00+0200',
    '2026-01-15T00:00:00-05',
  ];
  const refused = [
    'yesterday',
    '2025-06-06',
    '2025-06-06 10:00:00',
    '2025-06-06T10:00',
    '2025-06-06T10:00:00z',
    '2025-06-06T10:00:00.1234567890',
    '',
    20250606,
    null,
    true,
  ];
  test.each([...admitted, ...refused].map((v) => [shown(v), v]))(
    '%s: admitted by the document exactly when the server takes it',
    async (_, value) => {
      expect(await disagreements('/returns', [value], reported)).toEqual([]);
    },
  );

  // What a pattern cannot say, the document says in words: the server refuses these.
  test.each([
    ['a day that does not exist', '2025-02-30T10:00:00'],
    ['before the return date', '2025-06-05T09:59:59'],
  ])('%s: described, and refused by the server', async (_, value) => {
    const Return = ajv.getSchema('openapi#/components/schemas/Return')?.schema as {
      properties: { reported_at: { description: string } };
    };
    expect(Return.properties.reported_at.description).toMatch(/not before it/);
    expect(await disagreements('/returns', [value], reported)).toEqual([
      { value: shown(value), document: 'admits', server: expect.stringMatching(/reported_at/) },
    ]);
  });
});
