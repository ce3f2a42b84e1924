/**
 * fast-check arbitraries of malformed partner API requests (test/http/fuzz.test.ts). JSON bodies
 * are written as text, so that what `JSON.stringify` cannot write survives: `__proto__` keys,
 * duplicate keys, number texts beyond doubles (`1e400`, 30-digit integers), raw lone surrogates
 * and broken syntax. Each body says whether every item in it is malformed, so the test can tell
 * what a 200 answer must say about it.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { customer, history, tx } from '../fixtures.js';

/** The POST routes and the kind of item each takes. */
export const POST_ROUTES = {
  '/transactions': 'transaction',
  '/transactions-history': 'history',
  '/customers/': 'customer',
  '/customers': 'customer',
  '/returns': 'return',
  '/activations': 'activation',
} as const;
export type PostRoute = keyof typeof POST_ROUTES;
export type ItemKind = (typeof POST_ROUTES)[PostRoute];

/** The GET routes. */
export const GET_ROUTES = [
  '/get-token',
  '/cashback-payments',
  '/clawbacks',
  '/payments/t-paid/history',
  '/active-offers',
  '/openapi.json',
  '/healthz',
] as const;

/** Keys that reach for prototypes. */
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/**
 * What the `__proto__` objects of the payloads carry. None may ever appear on `{}` or `[]`:
 * `then` would make every object a thenable, `toJSON` would change every JSON answer.
 */
export const POLLUTION_KEYS = ['polluted', 'isAdmin', 'then', 'toJSON', 'sub', 'status'] as const;

/** The items' field names (docs/http.md), so that objects look like items. */
const FIELD_KEYS = [
  'return_id',
  'transaction_id',
  'customer_id',
  'offer_id',
  'description',
  'date',
  'amount',
  'merchant',
  'location',
  'birthday',
  'gender',
  'id',
  'name',
  'category_code',
  'country',
  'city',
  'event_id',
  'errors',
  'Errors',
] as const;

/** Number texts at and past the edges of doubles: overflow, underflow, -0, 30 digits. */
const NUMBER_TEXTS = [
  '1e308',
  '-1e308',
  '1e400',
  '-1e400',
  '1e-400',
  '-0',
  '-0.0',
  '0',
  '0e0',
  '1E+2',
  '0.1e1',
  '4.9e-324',
  '1.7976931348623157e308',
  '9007199254740993',
  '123456789012345678901234567890',
  '-123456789012345678901234567890',
  '0.30000000000000004',
  '100000000000000000000000000000000000000.000000000000000000000000000001',
] as const;

/** Text of a JSON string; `JSON.stringify` escapes NUL and lone surrogates (`\ud800`). */
const stringText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }).map((s) => JSON.stringify(s)),
  fc.constantFrom(
    '"\\u0000"',
    '"a\\u0000b"',
    '"\\ud800"',
    '"\\udc00\\ud800"',
    '"\\uFEFF"',
    '"\\u2028\\u2029"',
    // Raw lone surrogates: fetch sends them as U+FFFD.
    '"\ud800"',
    '"x\udfff"',
    '""',
    '"   "',
    `"${'x'.repeat(200)}"`,
    '"2025-02-30"',
    '"2025-06-02T09:15:00.000"',
    '"1e400"',
    '"-0"',
    '"NaN"',
    '"__proto__"',
    '"constructor"',
  ),
);

const numberText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NUMBER_TEXTS),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
);

const keyText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PROTO_KEYS, ...POLLUTION_KEYS, ...FIELD_KEYS).map((k) => JSON.stringify(k)),
  fc.string({ unit: 'binary', maxLength: 8 }).map((s) => JSON.stringify(s)),
);

/** A `__proto__` member whose object carries pollution keys. */
const protoMember: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...PROTO_KEYS),
    fc.subarray([...POLLUTION_KEYS], { minLength: 1 }),
    fc.constantFrom('true', '"yes"', '1', '{}', '[]', 'null'),
  )
  .map(([key, names, value]) => {
    const inner = `{${names.map((n) => `"${n}":${value}`).join(',')}}`;
    return key === 'constructor' ? `"constructor":{"prototype":${inner}}` : `"${key}":${inner}`;
  });

/** JSON texts: leaves, arrays and objects with repeated, prototype and field keys. */
const json = fc.letrec<{ value: string; leaf: string; array: string; object: string }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 3, depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    tie('array'),
    tie('object'),
  ),
  leaf: fc.oneof(numberText, stringText, fc.constantFrom('true', 'false', 'null')),
  array: fc.array(tie('value'), { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`),
  object: fc
    .array(
      fc.oneof(
        fc.tuple(keyText, tie('value')).map(([k, v]) => `${k}:${v}`),
        protoMember,
      ),
      { maxLength: 5 },
    )
    .map((members) => `{${members.join(',')}}`),
}));

/** Any JSON text. */
const jsonText: fc.Arbitrary<string> = json.value;

/** A JSON text that is not an array. */
const nonArrayText: fc.Arbitrary<string> = fc.oneof(
  json.leaf,
  json.object,
  fc
    .jsonValue({ maxDepth: 2 })
    .filter((v) => !Array.isArray(v))
    .map((v) => JSON.stringify(v)),
);

/** Texts that are not JSON (or, for a few of them, barely are). */
const BROKEN = [
  '',
  ' ',
  '[',
  ']',
  '[,]',
  '[1,]',
  '[,1]',
  "[{'a':1}]",
  '[NaN]',
  '[Infinity]',
  '[-Infinity]',
  '[undefined]',
  '[01]',
  '[.5]',
  '[1.]',
  '[+1]',
  '[0x10]',
  '[1e]',
  '[-]',
  '["\\x41"]',
  '["\t"]',
  '["\n"]',
  '["\\u12"]',
  '["\\ud800"',
  '[]]',
  '[] []',
  '\u0000[]',
  '[/*c*/]',
  '[]//',
  '[true false]',
  '["a" "b"]',
  '[{"a"}]',
  '[{a:1}]',
  '[{"a":1,}]',
  '\uFEFF\uFEFF[]',
  '\u00a0[]',
  'null null',
  '[{"__proto__":}]',
  '[{"__proto__"',
] as const;

/** A JSON text with one edit: cut short, a character dropped, added or replaced. */
const brokenText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...BROKEN),
  fc
    .tuple(
      jsonText.filter((t) => t.length > 0),
      fc.nat(),
      fc.constantFrom('cut', 'drop', 'add', 'replace'),
      fc.constantFrom('[', ']', '{', '}', ',', ':', '"', '\\', ' ', '\u0000', 'x', '1', '\ud800'),
    )
    .map(([text, at, edit, c]) => {
      const i = at % text.length;
      if (edit === 'cut') return text.slice(0, i);
      if (edit === 'drop') return text.slice(0, i) + text.slice(i + 1);
      if (edit === 'add') return text.slice(0, i) + c + text.slice(i);
      return text.slice(0, i) + c + text.slice(i + 1);
    }),
);

// ---------------------------------------------------------------------------------------------
// Items

/** A placeholder that `itemText` replaces with raw JSON text (a number beyond doubles, say). */
const raw = (text: string) => `\u0001raw:${text}`;
const DELETE = Symbol('delete');
type Bad = unknown;

/** `JSON.stringify`, then each `raw(...)` string put in as the text it holds. */
function itemText(item: Record<string, unknown>): string {
  // The placeholder's marker U+0001 is escaped by JSON.stringify as `\u0001`.
  return JSON.stringify(item).replace(/"\\u0001raw:((?:[^"\\]|\\.)*)"/g, (_, t: string) =>
    JSON.parse(`"${t}"`),
  );
}

const BAD_ID: Bad[] = [DELETE, '', '   ', 'x'.repeat(129), 1, 0, null, [], {}, true, ['t1']];
const BAD_DATE_TIME: Bad[] = [
  DELETE,
  '2025-02-30T09:15:00',
  '2025-06-02',
  '2025-06-02 09:15:00',
  '2025-06-02T24:00:00',
  '2025-06-02T09:60:00',
  '2025-06-02T09:15:00+25:00',
  '2025-6-2T09:15:00',
  '２０２５-06-02T09:15:00',
  '',
  1717315200000,
  null,
  [],
];
const BAD_AMOUNT: Bad[] = [
  DELETE,
  0,
  -1,
  raw('-0'),
  raw('1e400'),
  raw('-1e400'),
  raw('1e-400'),
  '1e3',
  '12,5',
  '-1',
  '0.00',
  '',
  ' 1',
  '1 ',
  '+1',
  '.5',
  '5.',
  '0x10',
  'NaN',
  'Infinity',
  null,
  [],
  {},
  true,
];
const BAD_DAY: Bad[] = [
  DELETE,
  '2025-02-30',
  '2023-02-29',
  '1990-13-01',
  '1990-5-15',
  '19900515',
  '1990-05-15T00:00:00',
  '',
  19900515,
  null,
];
const BAD_LOCATION: Bad[] = [
  DELETE,
  null,
  'FR',
  [],
  {},
  { country: 'FR' },
  { country: 1, city: 'x' },
];
const NOT_A_STRING: Bad[] = [null, 1, [], {}, false];

/** Per kind of item: the fields and values each of which alone makes the item invalid. */
const BAD_FIELDS: Record<ItemKind, Record<string, Bad[]>> = {
  transaction: {
    transaction_id: BAD_ID,
    customer_id: BAD_ID,
    description: [DELETE, ...NOT_A_STRING],
    date: BAD_DATE_TIME,
    amount: BAD_AMOUNT,
    merchant: [
      DELETE,
      null,
      'Coffee House',
      [],
      { id: 'm1', name: '', category_code: '5812' },
      { id: 'm1', name: '   ', category_code: '5812' },
      { id: 1, name: 'Coffee House', category_code: '5812' },
      { id: 'm1', name: 'Coffee House', category_code: 5812 },
      { name: 'Coffee House' },
    ],
    location: BAD_LOCATION,
  },
  history: {
    transaction_id: BAD_ID,
    customer_id: BAD_ID,
    description: NOT_A_STRING,
    date: BAD_DATE_TIME,
    amount: BAD_AMOUNT,
    merchant: [DELETE, null, 'Coffee House', [], {}, { name: '' }, { name: 1 }, { name: ' ' }],
    location: [null, 'FR', { country: 1, city: 'x' }],
  },
  customer: {
    customer_id: BAD_ID,
    birthday: BAD_DAY,
    gender: [DELETE, '', '  ', ...NOT_A_STRING],
    location: BAD_LOCATION,
  },
  // A return without `amount` is valid: all that is not yet returned comes back.
  return: {
    return_id: BAD_ID,
    transaction_id: BAD_ID,
    date: BAD_DATE_TIME,
    amount: BAD_AMOUNT.filter((bad) => bad !== DELETE),
  },
  activation: {
    customer_id: BAD_ID,
    offer_id: [DELETE, null, 0, -1, 1.5, '1.5', '-1', 'x', '', [], {}, true, 2 ** 53],
    // `date` may be left out: only a present, malformed one makes the item invalid.
    date: BAD_DATE_TIME.filter((bad) => bad !== DELETE),
  },
};

/** A return of the fixture transaction t1, within its warranty. */
const ret = (): Record<string, unknown> => ({
  return_id: 'r1',
  transaction_id: 't1',
  date: '2025-06-05T10:00:00',
  amount: 4,
});

const VALID: Record<ItemKind, () => Record<string, unknown>> = {
  transaction: tx,
  history,
  customer,
  return: ret,
  activation: () => ({ customer_id: 'c1', offer_id: 1, date: '2025-06-01T08:00:00' }),
};

/** A valid item of the kind with one field made invalid (or dropped). */
function nearValidItem(kind: ItemKind): fc.Arbitrary<string> {
  const edits = Object.entries(BAD_FIELDS[kind]).flatMap(([field, bads]) =>
    bads.map((bad) => [field, bad] as const),
  );
  return fc.constantFrom(...edits).map(([field, bad]) => {
    const item = VALID[kind]();
    if (bad === DELETE) delete item[field];
    else item[field] = bad;
    return itemText(item);
  });
}

/** A valid item hidden where only a prototype lookup would find it; the item itself is empty. */
function hiddenItem(kind: ItemKind): fc.Arbitrary<string> {
  const valid = itemText(VALID[kind]());
  return fc.constantFrom(
    `{"__proto__":${valid}}`,
    `{"constructor":{"prototype":${valid}}}`,
    `{"prototype":${valid}}`,
    `{"__proto__":${valid},"__proto__":{"polluted":true}}`,
  );
}

/** An item that is invalid whatever the route: never an object with the fields of an item. */
function junkItem(kind: ItemKind): fc.Arbitrary<string> {
  return fc.oneof(
    json.leaf,
    json.array,
    json.object,
    nearValidItem(kind),
    hiddenItem(kind),
    fc
      .oneof(
        fc.anything({ maxDepth: 2 }),
        fc.jsonValue({ maxDepth: 2 }),
        fc.object({ key: fc.constantFrom(...PROTO_KEYS, ...FIELD_KEYS), maxDepth: 1 }),
      )
      .map((v) => JSON.stringify(v) ?? 'null'),
  );
}

const VALID_AMOUNTS = [
  1e308,
  raw('123456789012345678901234567890'),
  raw('1E+2'),
  raw('0.1e1'),
  '123456789012345678901234567890.123456789',
  '0.1',
  '00010.50',
  5e-324,
] as const;

/**
 * A valid item, some with amounts beyond doubles or extra `__proto__` members; each may earn
 * cashback or an error in a 200 answer, and may be stored. Amounts over 10^12 (a 400-digit one
 * among them, whose cashback would not be a finite double) are per-item errors.
 */
function validItem(kind: ItemKind): fc.Arbitrary<string> {
  const id = fc.oneof(
    fc.string({ minLength: 1, maxLength: 10 }).filter((s) => s.trim().length > 0),
    fc.constantFrom(...PROTO_KEYS, 'toString', 'hasOwnProperty'),
  );
  const amount = fc.oneof(
    fc.constantFrom(...VALID_AMOUNTS),
    fc.double({ min: 0.01, max: 1e12, noNaN: true }),
    fc.stringMatching(/^[1-9][0-9]{0,20}(\.[0-9]{1,12})?$/),
    fc.constant('9'.repeat(400)),
  );
  const fields: fc.Arbitrary<Record<string, unknown>> =
    kind === 'customer' || kind === 'activation'
      ? fc.record({ customer_id: id })
      : kind === 'return'
        ? fc.record(
            { return_id: id, transaction_id: fc.constantFrom('t1', 't2', '__proto__'), amount },
            { requiredKeys: ['return_id', 'transaction_id'] },
          )
        : fc.record({
            transaction_id: id,
            customer_id: fc.constantFrom('c1', 'c2', '__proto__'),
            amount,
          });
  return fc.tuple(fields, fc.array(protoMember, { maxLength: 2 })).map(([over, members]) => {
    const text = itemText({ ...VALID[kind](), ...over });
    return members.length === 0 ? text : `{${members.join(',')},${text.slice(1)}`;
  });
}

/** A POST body and whether every item in it is malformed (`allJunk` needs at least one item). */
export interface BodyCase {
  readonly text: string;
  readonly allJunk: boolean;
}

/** Whitespace around a JSON text, some of it not JSON's. */
const padding = fc.constantFrom('', '', '', ' ', '\n', '\t', '\r\n', '\uFEFF', '\u00a0');

const bodies = new Map<string, fc.Arbitrary<BodyCase>>();

/**
 * A body for a POST route: broken JSON, a non-array, junk items, or junk mixed with valid. Built
 * once per kind and size (building arbitraries costs more than drawing from them).
 */
export function postBody(kind: ItemKind, maxItems = 8): fc.Arbitrary<BodyCase> {
  const key = `${kind}:${maxItems}`;
  let body = bodies.get(key);
  if (body === undefined) {
    body = buildPostBody(kind, maxItems);
    bodies.set(key, body);
  }
  return body;
}

function buildPostBody(kind: ItemKind, maxItems: number): fc.Arbitrary<BodyCase> {
  const junk = junkItem(kind);
  return fc.oneof(
    brokenText.map((text) => ({ text, allJunk: false })),
    nonArrayText.map((text) => ({ text, allJunk: false })),
    fc
      .array(junk, { minLength: 1, maxLength: maxItems })
      .map((items) => ({ text: `[${items.join(',')}]`, allJunk: true })),
    fc
      .array(fc.oneof(junk, validItem(kind)), { maxLength: maxItems })
      .map((items) => ({ text: `[${items.join(',')}]`, allJunk: false })),
    fc
      .tuple(padding, jsonText, padding)
      .map(([a, t, b]) => ({ text: `${a}${t}${b}`, allJunk: false })),
  );
}

/** Deep nesting, 10,000 to 100,000 levels; some of these are over a 128 KiB body limit. */
export const deepBody: fc.Arbitrary<BodyCase> = fc
  .tuple(
    fc.integer({ min: 10_000, max: 100_000 }),
    fc.constantFrom('open', 'arrays', 'objects', 'field', 'proto'),
  )
  .map(([n, shape]) => {
    // Levels chosen so that a body of each shape is about n bytes (`arrays`: 2n).
    const nest = (open: string, inner: string, close: string, levels: number) =>
      open.repeat(Math.floor(levels)) + inner + close.repeat(Math.floor(levels));
    switch (shape) {
      case 'open':
        return { text: '['.repeat(n), allJunk: false };
      case 'arrays':
        return { text: nest('[', '', ']', n), allJunk: true };
      case 'objects':
        return { text: `[${nest('{"a":', '1', '}', n / 6)}]`, allJunk: true };
      case 'field':
        return { text: `[{"merchant":${nest('[', '', ']', n / 2)}}]`, allJunk: true };
      default:
        return { text: `[${nest('{"__proto__":', '{"polluted":1}', '}', n / 15)}]`, allJunk: true };
    }
  });

/** A batch of `length` junk items written compactly. */
export function batchOf(length: number): BodyCase {
  return {
    text: `[${Array.from({ length }, (_, i) => (i % 2 ? '{}' : '0')).join(',')}]`,
    allJunk: length > 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Headers

/** Characters fetch lets into a header value (Latin-1, no controls but tab). */
const headerChar = fc
  .oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
    { weight: 1, arbitrary: fc.constant(0x09) },
  )
  .map((c) => String.fromCharCode(c));

/** A header value as fetch sends it (it trims spaces and tabs). */
export const headerValue = (maxLength = 40): fc.Arbitrary<string> =>
  fc.string({ unit: headerChar, maxLength });

/** What a header value arrives as: fetch strips leading and trailing spaces and tabs. */
export const sentHeader = (value: string): string => value.replace(/^[\t ]+|[\t ]+$/g, '');

/** Content types: JSON with odd spellings and parameters, and many that are not JSON. */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constantFrom(
    'application/json',
    'APPLICATION/JSON',
    'Application/Json',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'application/json ; charset=utf-8',
    'application/json;',
    'application/json;;;',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/json; boundary=x; foo="a;b"',
    ' application/json\t',
  ),
  fc.constantFrom(
    undefined,
    '',
    'text/plain',
    'text/plain; charset=utf-8',
    'text/json',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=----x',
    'application/jsonx',
    'application/json-patch+json',
    'application/vnd.api+json',
    'application/javascript',
    'json',
    '*/*',
    'application/*',
    'application/ json',
    'application /json',
    'application/json, text/plain',
  ),
  headerValue(30),
);

/** Whether the API takes this content type as JSON: the media type, parameters ignored. */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  return sentHeader(value).split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}

// ---------------------------------------------------------------------------------------------
// Tokens

/** A Token header and whether the API must accept it. */
export interface TokenCase {
  readonly header: string | undefined;
  readonly valid: boolean;
}

const b64 = (text: string) => Buffer.from(text).toString('base64url');

/** A JWT written by hand: any header and payload text, signed with any HMAC and key. */
function signed(header: string, payload: string, alg: 'sha256' | 'sha384' | 'sha512', key: string) {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac(alg, key).update(input).digest('base64url')}`;
}

/**
 * Tokens: the real one, none, garbage, the real one edited, and tokens forged with the right or a
 * wrong key, other algorithms, odd claims and `__proto__` claims. Valid only when HS256 with the
 * server's key, `sub` a registered partner as an own claim with the fingerprint of its key as
 * `kfp`, `exp` in the future, no `nbf` ahead.
 */
export function tokenCase(
  real: string,
  secret: string,
  fingerprints: Readonly<Record<string, string>>,
  nowSeconds: number,
): fc.Arbitrary<TokenCase> {
  const partners = Object.keys(fingerprints);
  const invalid = (header: string | undefined): TokenCase => ({ header, valid: false });
  const edited = fc
    .tuple(fc.constantFrom(0, 1, 2), fc.nat(), fc.constantFrom('A', 'z', '0', '-', '_'))
    .map(([part, at, c]) => {
      const parts = real.split('.');
      const seg = parts[part] as string;
      // Not the last character: its spare bits may decode to the same bytes.
      const i = at % (seg.length - 1);
      const next = seg[i] === c ? (c === 'A' ? 'B' : 'A') : c;
      parts[part] = seg.slice(0, i) + next + seg.slice(i + 1);
      return invalid(parts.join('.'));
    });
  const forged = fc
    .record({
      alg: fc.constantFrom('HS256', 'HS256', 'HS256', 'HS384', 'HS512', 'none'),
      key: fc.constantFrom('right', 'right', 'wrong'),
      sub: fc.constantFrom(
        ...partners,
        'bank-c',
        '',
        '__proto__',
        'constructor',
        7,
        null,
        undefined,
      ),
      exp: fc.constantFrom(nowSeconds + 3600, nowSeconds - 3600, '9999999999', undefined),
      nbf: fc.constantFrom(undefined, undefined, nowSeconds - 60, nowSeconds + 3600),
      kfp: fc.constantFrom('right', 'right', 'other', 'none'),
      proto: fc.boolean(),
    })
    .map(({ alg, key, sub, exp, nbf, kfp, proto }) => {
      const own = typeof sub === 'string' ? fingerprints[sub] : undefined;
      const fingerprint = kfp === 'none' ? undefined : kfp === 'right' ? own : 'A'.repeat(22);
      const claims: Record<string, unknown> = { sub, exp, nbf, iat: nowSeconds, kfp: fingerprint };
      let payload = JSON.stringify(claims);
      // A sub only under __proto__: an own-property reader sees none.
      if (proto)
        payload = `{"__proto__":{"sub":${JSON.stringify(partners[0])},"polluted":1},${payload.slice(1)}`;
      const hmac = alg === 'HS384' ? 'sha384' : alg === 'HS512' ? 'sha512' : 'sha256';
      const k = key === 'right' ? secret : `${secret}-not`;
      const header = JSON.stringify({ alg, typ: 'JWT' });
      const token =
        alg === 'none' ? `${b64(header)}.${b64(payload)}.` : signed(header, payload, hmac, k);
      const valid =
        alg === 'HS256' &&
        key === 'right' &&
        typeof sub === 'string' &&
        partners.includes(sub) &&
        kfp === 'right' &&
        typeof exp === 'number' &&
        exp > nowSeconds &&
        (nbf === undefined || nbf < nowSeconds);
      return { header: token, valid };
    });
  return fc.oneof(
    fc.constant({ header: real, valid: true }),
    fc.constant(invalid(undefined)),
    fc.constantFrom(
      invalid(''),
      invalid(`Bearer ${real}`),
      invalid(`${real}.`),
      invalid(real.split('.').slice(0, 2).join('.')),
      invalid(`${real} ${real}`),
      invalid('a'.repeat(5000)),
      invalid('eyJhbGciOiJub25lIn0.eyJzdWIiOiJiYW5rLWEiLCJleHAiOjk5OTk5OTk5OTl9.'),
      invalid('...'),
    ),
    headerValue(60).map((v) => invalid(v)),
    edited,
    forged,
  );
}

// ---------------------------------------------------------------------------------------------
// Payments query

/** The four inputs of a payments listing. */
export const PAGE_INPUTS = ['date_from', 'date_to', 'current_page', 'page_size'] as const;
export type PageInput = (typeof PAGE_INPUTS)[number];

const DAYS_GOOD = [
  '2025-01-01',
  '2025-06-16',
  '2024-02-29',
  '2000-02-29',
  '0000-01-01',
  '9999-12-31',
];
const DAYS_BAD = [
  '2025-02-30',
  '2023-02-29',
  '1900-02-29',
  '2025-13-01',
  '2025-00-10',
  '2025-01-00',
  '2025-01-32',
  '2025-1-1',
  '20250101',
  '2025-01-01T00:00:00',
  '+2025-01-01',
  '-2025-01-01',
  '２０２５-01-01',
  '2025/01/01',
  'today',
  'null',
  '',
];
const PAGES_GOOD = ['1', '2', '10', '1000', '0001', '999999999', '1000000000'];
const PAGES_BAD = [
  '0',
  '00',
  '-1',
  '1e3',
  '1.0',
  '1.5',
  '0x10',
  '１',
  'NaN',
  'Infinity',
  '1001',
  '1000000001',
  '99999999999999999999',
  '9007199254740993',
  '',
  'null',
  '[1]',
];

/** A value of one input: drawn from good and bad pools, or any text. */
export function pageValue(name: PageInput): fc.Arbitrary<string> {
  const pool = name.startsWith('date_')
    ? [...DAYS_GOOD, ...DAYS_BAD]
    : [...PAGES_GOOD, ...PAGES_BAD];
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...pool) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9]{1,25}$/) },
  );
}

/** Values of the payments listing's `status` filter: the two it takes, and others. */
export const statusValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('pending', 'confirmed') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('cancelled', 'PENDING', ' pending', 'confirmed ', '', 'all', '1'),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
);

/** Percent escapes that do not decode to a valid value. */
export const MALFORMED_ESCAPES = ['%', '%ZZ', '%E0%A4%A', '%00', '%C0%AF', '%ED%A0%80'] as const;

// ---------------------------------------------------------------------------------------------
// Paths and methods

/** Methods the HTTP parser knows; fetch refuses CONNECT, TRACE and TRACK. */
export const METHODS = [
  'GET',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'HEAD',
  'PROPFIND',
  'MKCOL',
  'COPY',
  'MOVE',
  'LOCK',
  'SEARCH',
  'PURGE',
  'REPORT',
  'QUERY',
] as const;

/** A path that is none of the routes (after fetch normalises it and the router decodes it). */
export const unknownPath: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(
      '/transactions/',
      '/TRANSACTIONS',
      '//transactions',
      '/transactions/x',
      '/get-token/',
      '/customers//',
      '/customers/x',
      '/healthz/',
      '/openapi',
      '/openapi.json/',
      '/active-offers/',
      '/cashback-payments/1',
      '/clawbacks/',
      '/payments',
      '/payments/t-paid',
      '/payments//history',
      '/payments/t-paid/history/',
      '/payments/t-paid/HISTORY',
      '/__proto__',
      '/constructor',
      '/prototype',
      '/%2Ftransactions',
      '/transactions%2F',
      '/%00',
      '/%ZZ',
      '/%',
      '/',
      '/index.html',
      '/.env',
    ),
    fc.array(
      fc
        .string({ unit: 'grapheme', minLength: 1, maxLength: 10 })
        .map((s) => encodeURIComponent(s))
        .filter((s) => s !== '.' && s !== '..'),
      { maxLength: 3 },
    ),
  )
  .map(([base, segments]) =>
    segments.length === 0 ? base : `/zz-${segments.join('/')}${base === '/' ? '' : base}`,
  );
