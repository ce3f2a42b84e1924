/**
 * Fuzzing the partner API (docs/http.md) over a real server on 127.0.0.1 with real fetch:
 * fast-check draws malformed requests for every route — broken JSON, wrong types, numbers beyond
 * doubles, deep nesting, `__proto__` / `constructor` keys, non-arrays, wrong content types,
 * oversized, chunked and length-lying bodies, batches over the item limit, bad dates and pages,
 * bad tokens and credentials, unknown paths and wrong methods.
 *
 * Every request is answered 4xx with the one error body, whose code belongs to the status, or 200
 * (with an error for each malformed item); never 5xx. Where the answer is decided by the request
 * alone (the token, the content type, the bytes, the JSON, the query) the exact status and code
 * are checked. A 4xx changes nothing in the store (a counting decorator over the memory store;
 * requests run one at a time, so each write belongs to one request), and no payload reaches
 * `Object.prototype`. Every response is checked against the OpenAPI document (_harness.ts).
 * At least 10,000 requests per run, counted.
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/engine/entry.js';
import { STATUS } from '../../src/http/errors.js';
import { keyFingerprint } from '../../src/http/keyFingerprint.js';
import type { Store, StoreSession } from '../../src/store/entry.js';
import { customer, offer, tx } from '../fixtures.js';
import {
  type BodyCase,
  batchOf,
  contentType,
  deepBody,
  GET_ROUTES,
  headerValue,
  type ItemKind,
  isJsonContentType,
  MALFORMED_ESCAPES,
  METHODS,
  PAGE_INPUTS,
  type PageInput,
  POLLUTION_KEYS,
  POST_ROUTES,
  type PostRoute,
  pageValue,
  postBody,
  sentHeader,
  statusValue,
  type TokenCase,
  tokenCase,
  unknownPath,
} from './_fuzzArbitraries.js';
import {
  checkAgainstOpenApi,
  type Harness,
  keyOf,
  startHarness,
  TOKEN_SECRET,
} from './_harness.js';

const BODY_BYTES = 128 * 1024;
const BATCH_ITEMS = 50;
const PARTNERS = ['bank-a', 'bank-b'] as const;
const MIN_REQUESTS = 10_000;

// ---------------------------------------------------------------------------------------------
// The store, counted

/** Units of work that committed, and repository writes that were kept. */
interface Activity {
  commits: number;
  writes: number;
}

/** The repositories of `s`, each write reported to `wrote` once it resolves. */
function countedSession(s: StoreSession, wrote: () => void): StoreSession {
  const write = async <T>(p: Promise<T>): Promise<T> => {
    const r = await p;
    wrote();
    return r;
  };
  return {
    offers: {
      list: () => s.offers.list(),
      history: (ids) => s.offers.history(ids),
      revision: () => s.offers.revision(),
      upsert: (offers) => write(s.offers.upsert(offers)),
    },
    customers: {
      get: (partner, ids) => s.customers.get(partner, ids),
      upsert: (partner, customers) => write(s.customers.upsert(partner, customers)),
    },
    activations: {
      get: (partner, query) => s.activations.get(partner, query),
      add: (partner, activations) => write(s.activations.add(partner, activations)),
    },
    transactions: {
      existing: (partner, ids) => s.transactions.existing(partner, ids),
      get: (partner, ids) => s.transactions.get(partner, ids),
      insert: (partner, txs) => write(s.transactions.insert(partner, txs)),
      purchases: (partner, query) => s.transactions.purchases(partner, query),
    },
    payments: {
      insert: (partner, payments) => write(s.payments.insert(partner, payments)),
      list: (partner, query) => s.payments.list(partner, query),
      get: (partner, ids) => s.payments.get(partner, ids),
      adjust: (partner, adjustments) => write(s.payments.adjust(partner, adjustments)),
      record: (partner, changes) => write(s.payments.record(partner, changes)),
      history: (partner, id) => s.payments.history(partner, id),
      clawbacks: (partner, query) => s.payments.clawbacks(partner, query),
    },
    outbox: {
      add: (partner, events) => write(s.outbox.add(partner, events)),
      list: (partner, query) => s.outbox.list(partner, query),
    },
    returns: {
      existing: (partner, ids) => s.returns.existing(partner, ids),
      hold: (partner, ids) => s.returns.hold(partner, ids),
      ofTransactions: (partner, ids) => s.returns.ofTransactions(partner, ids),
      insert: (partner, returns) => write(s.returns.insert(partner, returns)),
    },
    funding: {
      hold: (partner, ranges) => s.funding.hold(partner, ranges),
      add: (partner, changes) => write(s.funding.add(partner, changes)),
      recount: (query) => write(s.funding.recount(query)),
    },
    confirmations: {
      take: (query) => write(s.confirmations.take(query)),
    },
  };
}

/**
 * The memory store, counting committed units of work and kept writes: a write on the store
 * itself counts when it resolves, a write inside a unit of work when the unit commits.
 */
function countingStore(inner: Store): { store: Store; activity: Activity } {
  const activity: Activity = { commits: 0, writes: 0 };
  const direct = countedSession(inner, () => activity.writes++);
  const store: Store = {
    ...direct,
    async transaction(fn) {
      let pending = 0;
      const result = await inner.transaction((s) => fn(countedSession(s, () => pending++)));
      activity.commits++;
      activity.writes += pending;
      return result;
    },
    close: () => inner.close?.() ?? Promise.resolve(),
  };
  return { store, activity };
}

// ---------------------------------------------------------------------------------------------
// Prototypes

const PROTOTYPES = {
  Object: Object.prototype,
  Array: Array.prototype,
  Function: Function.prototype,
  String: String.prototype,
  Number: Number.prototype,
  Boolean: Boolean.prototype,
} as const;

type PrototypeState = Record<
  string,
  { extensible: boolean; proto: object | null; props: Map<PropertyKey, PropertyDescriptor> }
>;

function prototypeState(): PrototypeState {
  const state: PrototypeState = {};
  for (const [name, p] of Object.entries(PROTOTYPES)) {
    const props = new Map<PropertyKey, PropertyDescriptor>();
    for (const key of Reflect.ownKeys(p)) {
      props.set(key, Object.getOwnPropertyDescriptor(p, key) as PropertyDescriptor);
    }
    state[name] = { extensible: Object.isExtensible(p), proto: Object.getPrototypeOf(p), props };
  }
  return state;
}

/** What differs between two prototype states, as readable lines. */
function prototypeChanges(before: PrototypeState, after: PrototypeState): string[] {
  const changes: string[] = [];
  for (const [name, b] of Object.entries(before)) {
    const a = after[name] as PrototypeState[string];
    if (a.extensible !== b.extensible) changes.push(`${name}.prototype extensibility changed`);
    if (a.proto !== b.proto) changes.push(`${name}.prototype's prototype changed`);
    for (const key of new Set([...b.props.keys(), ...a.props.keys()])) {
      const x = b.props.get(key);
      const y = a.props.get(key);
      const same =
        x !== undefined &&
        y !== undefined &&
        x.value === y.value &&
        x.get === y.get &&
        x.set === y.set &&
        x.writable === y.writable &&
        x.enumerable === y.enumerable &&
        x.configurable === y.configurable;
      if (!same)
        changes.push(
          `${name}.prototype[${String(key)}] ${x ? (y ? 'changed' : 'deleted') : 'added'}`,
        );
    }
  }
  return changes;
}

/** Quick check after each request: no payload key shows through `{}` or `[]`. */
function expectNoPollution(objectKeys: number) {
  const plain: Record<string, unknown> = {};
  const list = [] as unknown as Record<string, unknown>;
  for (const key of POLLUTION_KEYS) {
    expect(plain[key], `({}).${key}`).toBeUndefined();
    expect(list[key], `[].${key}`).toBeUndefined();
  }
  expect(Reflect.ownKeys(Object.prototype)).toHaveLength(objectKeys);
}

// ---------------------------------------------------------------------------------------------
// Sending

/** A request: `chunks` sends the body as a stream of those chunk sizes, without a length. */
interface Req {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: Uint8Array;
  readonly chunks?: readonly number[];
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed body; undefined for HEAD. */
  // biome-ignore lint/suspicious/noExplicitAny: tests index into arbitrary JSON answers
  readonly body: any;
}

/** The expected answer, when the request alone decides it. */
interface Expected {
  readonly status: number;
  readonly code?: string;
}

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text);

let h: Harness;
/** Each partner's key fingerprint, the `kfp` claim of its tokens. */
let fingerprints: Record<string, string> = {};
let activity: Activity;
let token: string;
let nowSeconds: number;
let prototypesBefore: PrototypeState;
let objectKeys: number;
let sent = 0;
/** The app's request log: lines written, and every failure (an error, or a 5xx logged). */
const log = { lines: 0, failures: [] as unknown[] };

beforeAll(async () => {
  const counting = countingStore(createMemoryStore());
  activity = counting.activity;
  h = await startHarness({
    store: counting.store,
    logger: {
      info(fields) {
        log.lines++;
        if (typeof fields.status !== 'number' || fields.status >= 500) log.failures.push(fields);
      },
      error(fields) {
        log.failures.push(fields);
      },
    },
    limits: {
      bodyBytes: BODY_BYTES,
      batchItems: BATCH_ITEMS,
      tokenRequestsPerAddress: 1_000_000_000,
      tokenFailuresPerApplicationAndAddress: 1_000_000_000,
      tokenFailuresPerAddress: 1_000_000_000,
      keyChecksInFlight: 1_000,
    },
  });
  await h.engine.upsertOffers([offer()]);
  expect((await h.post('bank-a', '/customers/', [customer()])).status).toBe(200);
  // A payment whose history the history route answers.
  const paid = await h.post('bank-a', '/transactions', [tx({ transaction_id: 't-paid' })]);
  expect(paid.body[0].payments).toHaveLength(1);
  token = await h.token('bank-a');
  fingerprints = Object.fromEntries(
    PARTNERS.map((id) => [id, keyFingerprint(h.partners.byId.get(id)?.application_key_hash ?? '')]),
  );
  nowSeconds = Math.floor(Date.now() / 1000);
  // Warm every route once, so that whatever a library sets up lazily is in the snapshot.
  for (const path of GET_ROUTES) await h.get('bank-a', path);
  prototypesBefore = prototypeState();
  objectKeys = Reflect.ownKeys(Object.prototype).length;
  expect(log.failures).toEqual([]);
  // From here on, a line per request sent.
  log.lines = 0;
});
afterAll(() => h?.close());

function stream(body: Uint8Array, sizes: readonly number[]): ReadableStream<Uint8Array> {
  // At most about 64 chunks, so a large body with tiny sizes stays quick.
  const floor = Math.ceil(body.length / 64);
  return new ReadableStream({
    start(controller) {
      let at = 0;
      for (let i = 0; at < body.length; i++) {
        const size = Math.max(sizes[i % sizes.length] as number, floor, 1);
        controller.enqueue(body.slice(at, at + size));
        at += size;
      }
      controller.close();
    },
  });
}

/**
 * Sends a request through the harness (its fetch and its OpenAPI check of the answer), or for a
 * HEAD request or a streamed body with fetch here and the same check, and checks the app logged
 * it. A body over 32 KiB goes on a connection of its own (`Connection: close`): the app may
 * answer before reading all of it (401, 413, 415), and then @hono/node-server closes that
 * connection half a second later although its answer said keep-alive, failing whichever request
 * fetch has sent on it meanwhile.
 */
async function exchange(req: Req): Promise<Answer> {
  const answer = await send(req);
  // The app logs a request before it answers: the line is there already.
  expect(log.lines, `${req.method} ${req.path}: one log line per request`).toBe(sent);
  return answer;
}

async function send(req: Req): Promise<Answer> {
  sent++;
  const headers = { ...req.headers };
  if (req.body !== undefined && req.body.length > 32 * 1024) headers.connection = 'close';
  if (req.method !== 'HEAD' && req.chunks === undefined) {
    const r = await h.call(req.method, req.path, {
      headers,
      ...(req.body ? { body: req.body } : {}),
    });
    return { status: r.status, headers: r.headers, body: r.body };
  }
  const res = await fetch(h.url + req.path, {
    method: req.method,
    headers,
    ...(req.body === undefined
      ? {}
      : { body: req.chunks ? stream(req.body, req.chunks) : req.body, duplex: 'half' }),
  } as RequestInit);
  const text = await res.text();
  if (req.method === 'HEAD') {
    expect(text).toBe('');
    return { status: res.status, headers: res.headers, body: undefined };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(
      `${req.method} ${req.path} ${res.status}: the body is not JSON: ${text.slice(0, 200)}`,
    );
  }
  checkAgainstOpenApi(req.method, req.path, res.status, body);
  return { status: res.status, headers: res.headers, body };
}

/** What came back on a raw socket: the first answer, if any (Node's own 400 has no body). */
interface RawAnswer {
  readonly status: number | undefined;
  readonly headers: Headers;
  readonly text: string;
}

/**
 * One request over a raw socket, for what fetch refuses to send: a Content-Length that is not
 * the body's length, a body cut short by closing the sending side (`halfClose`), a broken chunk.
 * Reads the first answer, or what there is when the server closes.
 */
function rawExchange(head: string, body: Uint8Array, halfClose = false): Promise<RawAnswer> {
  sent++;
  const { port } = new URL(h.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let buffer = Buffer.alloc(0);
    let done = false;
    const finish = (complete: boolean) => {
      if (done) return;
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0 && !complete) return;
      const lines = buffer
        .subarray(0, end < 0 ? buffer.length : end)
        .toString('latin1')
        .split('\r\n');
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(lines[0] as string)?.[1];
      const headers = new Headers();
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      const length = Number(headers.get('content-length') ?? Number.NaN);
      const start = end + 4;
      if (!complete && !(Number.isSafeInteger(length) && buffer.length >= start + length)) return;
      done = true;
      socket.destroy();
      const text =
        end < 0
          ? ''
          : buffer
              .subarray(start, Number.isSafeInteger(length) ? start + length : undefined)
              .toString('utf8');
      resolve({ status: status === undefined ? undefined : Number(status), headers, text });
    };
    socket.setTimeout(5000, () => {
      socket.destroy();
      reject(new Error(`no answer in 5 s: ${head.split('\r\n', 1)[0]}`));
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      finish(false);
    });
    // A reset after the answer, or instead of one, ends the exchange with what arrived.
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
    if (halfClose) socket.end();
  });
}

/** A raw answer that must be the app's: JSON, checked against the OpenAPI document. */
function appAnswer(head: string, raw: RawAnswer): Answer {
  const [method, target] = head.split(' ', 2) as [string, string];
  if (raw.status === undefined) throw new Error(`no answer: ${method} ${target}`);
  let body: unknown;
  try {
    body = JSON.parse(raw.text);
  } catch {
    throw new Error(
      `${method} ${target} ${raw.status}: the body is not JSON: ${raw.text.slice(0, 200)}`,
    );
  }
  checkAgainstOpenApi(method, target, raw.status, body);
  return { status: raw.status, headers: raw.headers, body };
}

/** Waits until the app has logged the request sent after `before` lines (or fails: a hang). */
async function logged(before: number, label: string) {
  for (let waited = 0; log.lines <= before; waited += 5) {
    if (waited > 3000) throw new Error(`${label}: the app did not finish the request in 3 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Where the store and the log stand before a request. */
interface Mark {
  readonly commits: number;
  readonly writes: number;
  readonly failures: number;
}

const mark = (): Mark => ({ ...activity, failures: log.failures.length });

/** The store's activity is what it was at `before`. */
function expectUnchanged(before: Mark, message: string) {
  expect({ ...activity }, message).toEqual({ commits: before.commits, writes: before.writes });
}

/** The server logged no failure since `before`. */
function expectNoFailure(before: Mark, message: string) {
  const failures = log.failures.slice(before.failures);
  if (failures.length > 0) {
    throw new Error(
      `${message}: the server logged a failure: ${JSON.stringify(failures).slice(0, 1500)}`,
    );
  }
}

/**
 * The checks every answer gets: never 5xx; a 4xx carries an error code of its status and leaves
 * the store as it was; 200 otherwise; the expected status and code when known; `X-Request-Id`;
 * no pollution.
 */
function judge(label: string, answer: Answer, before: Mark, expected?: Expected) {
  const context = `${label} → ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 300)}`;
  expect(answer.status, context).toBeLessThan(500);
  expect(answer.headers.get('x-request-id'), context).toMatch(/^[\w=-]{1,255}$/);
  if (answer.status >= 400) {
    if (answer.body !== undefined) {
      const code = answer.body.error.code as keyof typeof STATUS;
      expect(STATUS[code], context).toBe(answer.status);
      if (expected?.code !== undefined) expect(code, context).toBe(expected.code);
    }
    expectUnchanged(before, `${context}: a 4xx must not change the store`);
  } else {
    expect(answer.status, context).toBe(200);
  }
  if (expected !== undefined) expect(answer.status, context).toBe(expected.status);
  expectNoFailure(before, context);
  expectNoPollution(objectKeys);
}

// ---------------------------------------------------------------------------------------------
// What the answers must be

/** Default of `limits.nestingDepth`: levels of arrays and objects a body may nest. */
const NESTING_DEPTH = 32;

/**
 * How deep the brackets of a body nest, strings left out (a string runs to its closing quote,
 * a backslash escaping the next byte, or to the end).
 */
function bracketDepth(bytes: Uint8Array): number {
  let level = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const ch = String.fromCharCode(bytes[i] as number);
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') deepest = Math.max(deepest, ++level);
    else if (ch === ']' || ch === '}') level--;
  }
  return deepest;
}

/**
 * The answer of a POST with a body, in the app's order of checks: token (401), content type
 * (415), bytes (413), nesting (413, counted on the brackets before any parsing), JSON (400),
 * array (400), items (413); else 200. `declared` is a
 * Content-Length other than the body's: the size check reads it, the body is cut to it.
 */
async function expectedPost(
  tokenValid: boolean,
  type: string | undefined,
  body: Uint8Array,
  declared = body.length,
): Promise<Expected> {
  if (!tokenValid) return { status: 401, code: 'unauthorized' };
  if (!isJsonContentType(type)) return { status: 415, code: 'unsupported_media_type' };
  if (declared > BODY_BYTES) return { status: 413, code: 'body_too_large' };
  if (bracketDepth(body.subarray(0, declared)) > NESTING_DEPTH) {
    return { status: 413, code: 'nesting_too_deep' };
  }
  let value: unknown;
  try {
    // Decoded as the server decodes it (UTF-8: one leading BOM dropped, bad bytes replaced).
    value = JSON.parse(new TextDecoder().decode(body.subarray(0, declared)));
  } catch {
    return { status: 400, code: 'invalid_json' };
  }
  if (!Array.isArray(value)) return { status: 400, code: 'invalid_body' };
  if (value.length > BATCH_ITEMS) return { status: 413, code: 'batch_too_large' };
  return { status: 200 };
}

/** A 200 to a POST: counts within the items, and nothing kept of an all-malformed batch. */
async function judgePostResult(
  kind: ItemKind,
  body: BodyCase,
  answer: Answer,
  before: Mark,
  label: string,
) {
  if (answer.status !== 200) return;
  const items = (JSON.parse(await new Response(bytes(body.text)).text()) as unknown[]).length;
  const context = `${label} → ${JSON.stringify(answer.body).slice(0, 300)}`;
  if (kind === 'customer' || kind === 'activation') {
    const { Added, Updated, Errors } = answer.body;
    expect(Added + Updated, context).toBeLessThanOrEqual(items);
    if (body.allJunk) {
      expect(Added + Updated, context).toBe(0);
      expect(Object.keys(Errors).length, context).toBeGreaterThan(0);
    }
  } else {
    const [result] = answer.body;
    const decided = kind === 'return' ? result.adjustments : result.payments;
    if (decided !== undefined) expect(decided.length, context).toBeLessThanOrEqual(items);
    if (body.allJunk) {
      if (decided !== undefined) expect(decided, context).toEqual([]);
      expect(Object.keys(result.errors).length, context).toBeGreaterThan(0);
    }
  }
  if (body.allJunk || items === 0) {
    expect(activity.writes, `${context}: malformed items must not be stored`).toBe(before.writes);
  }
}

const isDay = (s: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
  return days !== undefined && d >= 1 && d <= days;
};

/** A page input: whole numbers in [1, max]; digits past 15 (leading zeros) may go either way. */
function pageInput(value: string, max: number): 'ok' | 'bad' | 'either' {
  if (!/^[0-9]+$/.test(value)) return 'bad';
  const n = BigInt(value);
  if (n < 1n || n > BigInt(max)) return 'bad';
  return value.length <= 15 ? 'ok' : 'either';
}

/** The listings paged as payments are, and the name of their page's items. */
const LISTINGS = { '/cashback-payments': 'transactions', '/clawbacks': 'clawbacks' } as const;
type Listing = keyof typeof LISTINGS;

/**
 * Judges a listing by the inputs as the server receives them: the page's inputs, and for
 * payments the `status` filter (`/clawbacks` takes none and ignores one sent).
 */
function judgeListing(
  route: Listing,
  received: Partial<Record<PageInput | 'status', string>>,
  answer: Answer,
  label: string,
) {
  judgePage(route, received, answer, label);
  if (route !== '/cashback-payments') return;
  const status = received.status;
  const context = `${label} ${JSON.stringify(received)} → ${answer.status}`;
  const valid = status === undefined || status === 'pending' || status === 'confirmed';
  if (answer.status === 400) {
    const paths = (answer.body.error.details as { path: string }[]).map((d) => d.path);
    expect(paths.includes('status'), context).toBe(!valid);
  } else {
    expect(valid, `${context}: a bad status must be a 400`).toBe(true);
    for (const t of answer.body.transactions as { status: string }[]) {
      expect(t.status, context).toBe(status ?? t.status);
    }
  }
}

/** Judges the page of a listing by the page's inputs as the server receives them. */
function judgePage(
  route: Listing,
  received: Partial<Record<PageInput | 'status', string>>,
  answer: Answer,
  label: string,
) {
  const verdict: Record<PageInput, 'ok' | 'bad' | 'either'> = {
    date_from: received.date_from !== undefined && isDay(received.date_from) ? 'ok' : 'bad',
    date_to: received.date_to !== undefined && isDay(received.date_to) ? 'ok' : 'bad',
    current_page:
      received.current_page === undefined ? 'ok' : pageInput(received.current_page, 1_000_000_000),
    page_size: received.page_size === undefined ? 'ok' : pageInput(received.page_size, 1000),
  };
  const bad = PAGE_INPUTS.filter((n) => verdict[n] === 'bad');
  const either = PAGE_INPUTS.some((n) => verdict[n] === 'either');
  if (
    bad.length === 0 &&
    !either &&
    (received.date_from as string) > (received.date_to as string)
  ) {
    bad.push('date_to');
  }
  const context = `${label} ${JSON.stringify(received)} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
  const statusBad =
    route === '/cashback-payments' &&
    received.status !== undefined &&
    received.status !== 'pending' &&
    received.status !== 'confirmed';
  if (bad.length > 0) {
    expect(answer.status, context).toBe(400);
    const paths = (answer.body.error.details as { path: string }[]).map((d) => d.path);
    for (const name of bad) expect(paths, context).toContain(name);
    const named: readonly string[] = statusBad ? [...PAGE_INPUTS, 'status'] : PAGE_INPUTS;
    for (const path of paths) expect(named, context).toContain(path);
  } else if (!either && !statusBad) {
    expect(answer.status, context).toBe(200);
  }
  if (answer.status === 200) {
    expect(answer.body, context).toMatchObject({
      date_from: received.date_from,
      date_to: received.date_to,
      current_page: Number(received.current_page ?? 1),
      page_size: Number(received.page_size ?? 100),
    });
    const items = answer.body[LISTINGS[route]] as unknown[];
    expect(items.length, context).toBeLessThanOrEqual(answer.body.page_size);
  }
}

// ---------------------------------------------------------------------------------------------
// Generators that need the running server

/** One arbitrary per POST route, built once (`chain` would build one per run). */
const perRoute = <T>(build: (route: PostRoute) => fc.Arbitrary<T>): fc.Arbitrary<T> =>
  fc.oneof(...(Object.keys(POST_ROUTES) as PostRoute[]).map(build));
let tokenArbitrary: fc.Arbitrary<TokenCase> | undefined;
let mostlyValidArbitrary: fc.Arbitrary<{ token: TokenCase; type: string | undefined }> | undefined;

/** Token headers (built once the server has issued the real token). */
const tokens = (): fc.Arbitrary<TokenCase> => {
  tokenArbitrary ??= tokenCase(token, TOKEN_SECRET, fingerprints, nowSeconds);
  return tokenArbitrary;
};
const jsonHeaders = () => ({ Token: token, 'content-type': 'application/json' });

/** Mostly the valid token and a JSON content type, sometimes anything. */
const mostlyValid = () => {
  mostlyValidArbitrary ??= fc.record({
    token: fc.oneof(
      { weight: 4, arbitrary: fc.constant<TokenCase>({ header: token, valid: true }) },
      { weight: 1, arbitrary: tokens() },
    ),
    type: fc.oneof(
      { weight: 5, arbitrary: fc.constant<string | undefined>('application/json') },
      { weight: 1, arbitrary: contentType },
    ),
  });
  return mostlyValidArbitrary;
};

function headersOf(t: TokenCase, type: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (t.header !== undefined) headers.Token = t.header;
  if (type !== undefined) headers['content-type'] = type;
  return headers;
}

/** Chunk sizes of a streamed body: none (a plain body with its length), or a cycle of sizes. */
const transport = fc.option(
  fc.array(fc.integer({ min: 1, max: 65_536 }), { minLength: 1, maxLength: 6 }),
  {
    nil: undefined,
  },
);

describe('fuzzing the partner API: 4xx with the error body or 200, never 5xx, no state change on 4xx', () => {
  test('POST bodies: broken JSON, non-arrays, wrong types, huge numbers, __proto__ keys', async () => {
    const cases = perRoute((route) =>
      fc.record({ route: fc.constant(route), body: postBody(POST_ROUTES[route]) }),
    );
    await fc.assert(
      fc.asyncProperty(cases, async ({ route, body }) => {
        const before = mark();
        const raw = bytes(body.text);
        const label = `POST ${route} ${body.text.slice(0, 200)}`;
        const answer = await exchange({
          method: 'POST',
          path: route,
          headers: jsonHeaders(),
          body: raw,
        });
        judge(label, answer, before, await expectedPost(true, 'application/json', raw));
        await judgePostResult(POST_ROUTES[route], body, answer, before, label);
      }),
      { numRuns: 4200 },
    );
  });

  test('POST headers: tokens, content types (none, wrong, odd parameters), encodings', async () => {
    const cases = perRoute((route) =>
      fc.record({
        route: fc.constant(route),
        token: fc.oneof(
          { weight: 1, arbitrary: fc.constant<TokenCase>({ header: token, valid: true }) },
          { weight: 1, arbitrary: tokens() },
        ),
        type: contentType,
        encoding: fc.constantFrom(undefined, undefined, 'gzip', 'identity', 'br, x'),
        body: fc.oneof(
          fc.constant<BodyCase>({ text: '[]', allJunk: false }),
          postBody(POST_ROUTES[route], 3),
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(cases, async ({ route, token: t, type, encoding, body }) => {
        const before = mark();
        const raw = bytes(body.text);
        const headers = headersOf(t, type);
        if (encoding !== undefined) headers['content-encoding'] = encoding;
        const label = `POST ${route} ${JSON.stringify(headers)} ${body.text.slice(0, 100)}`;
        const answer = await exchange({ method: 'POST', path: route, headers, body: raw });
        // A declared encoding is not undone: the bytes are read as they are.
        judge(label, answer, before, await expectedPost(t.valid, type, raw));
        await judgePostResult(POST_ROUTES[route], body, answer, before, label);
      }),
      { numRuns: 1500 },
    );
  });

  test('oversized, chunked and deeply nested bodies; batches over the item limit', async () => {
    const sized = (length: number): BodyCase => ({
      text: `[${' '.repeat(Math.max(0, length - 2))}]`,
      allJunk: false,
    });
    const cases = perRoute((route) =>
      fc.record({
        route: fc.constant(route),
        body: fc.oneof(
          fc.integer({ min: -2, max: 2 }).map((d) => sized(BODY_BYTES + d)),
          fc.integer({ min: BODY_BYTES + 1, max: BODY_BYTES + 65_536 }).map(sized),
          deepBody,
          fc.integer({ min: BATCH_ITEMS - 2, max: BATCH_ITEMS + 300 }).map(batchOf),
          postBody(POST_ROUTES[route]),
        ),
        chunks: transport,
        headers: mostlyValid(),
      }),
    );
    await fc.assert(
      fc.asyncProperty(cases, async ({ route, body: b, chunks, headers: { token: t, type } }) => {
        const before = mark();
        const raw = bytes(b.text);
        const label = `POST ${route} ${chunks ? `chunked ${chunks}` : 'with length'} ${raw.length} bytes ${b.text.slice(0, 60)}`;
        const answer = await exchange({
          method: 'POST',
          path: route,
          headers: headersOf(t, type),
          body: raw,
          ...(chunks ? { chunks } : {}),
        });
        judge(label, answer, before, await expectedPost(t.valid, type, raw));
        await judgePostResult(POST_ROUTES[route], b, answer, before, label);
      }),
      { numRuns: 700 },
    );
  });

  test('bodies that lie: longer or far shorter than Content-Length, cut off, broken chunks', async () => {
    type Lie =
      | { kind: 'longer'; n: number; crlf: number }
      | { kind: 'huge'; n: number }
      | { kind: 'cut'; n: number; missing: number }
      | { kind: 'chunk'; n: number; tail: string };
    const lie: fc.Arbitrary<Lie> = fc.oneof(
      fc.record({
        kind: fc.constant('longer' as const),
        n: fc.nat(),
        crlf: fc.integer({ min: 1, max: 3 }),
      }),
      fc.record({
        kind: fc.constant('huge' as const),
        n: fc.integer({ min: BODY_BYTES + 1, max: Number.MAX_SAFE_INTEGER }),
      }),
      fc.record({
        kind: fc.constant('cut' as const),
        n: fc.nat(),
        missing: fc.integer({ min: 1, max: 1000 }),
      }),
      fc.record({
        kind: fc.constant('chunk' as const),
        n: fc.nat(),
        tail: fc.constantFrom('', 'ZZ\r\n', '-1\r\n', '5\r\nab', '2\r\nabc\r\n', '0\r\nX'),
      }),
    );
    const cases = perRoute((route) =>
      fc.record({
        route: fc.constant(route),
        body: postBody(POST_ROUTES[route], 4),
        lie,
        headers: mostlyValid(),
      }),
    );
    await fc.assert(
      fc.asyncProperty(cases, async ({ route, body, lie: l, headers: { token: t, type } }) => {
        const before = mark();
        const lines = log.lines;
        const text = bytes(body.text);
        const cut = text.subarray(0, l.n % (text.length + 1));
        let declared: number | undefined;
        let payload: Uint8Array;
        switch (l.kind) {
          case 'longer':
            // The bytes past the declared length are blank lines, which HTTP skips before a
            // next request: the server reads the declared bytes only.
            declared = cut.length;
            payload = Buffer.concat([cut, Buffer.from('\r\n'.repeat(l.crlf))]);
            break;
          case 'huge':
            // Answered from the header alone: send a little of the body.
            declared = l.n;
            payload = text.subarray(0, 64);
            break;
          case 'cut':
            declared = Math.min(cut.length + l.missing, BODY_BYTES);
            payload = cut;
            break;
          default:
            payload = Buffer.concat([
              Buffer.from(`${cut.length.toString(16)}\r\n`),
              cut,
              Buffer.from(`\r\n${l.tail}`),
            ]);
        }
        const head = [
          `POST ${route} HTTP/1.1`,
          'Host: 127.0.0.1',
          ...(t.header === undefined ? [] : [`Token: ${t.header}`]),
          ...(type === undefined ? [] : [`Content-Type: ${sentHeader(type)}`]),
          declared === undefined ? 'Transfer-Encoding: chunked' : `Content-Length: ${declared}`,
          'Connection: close',
          '',
          '',
        ].join('\r\n');
        const label = `POST ${route} ${l.kind} ${declared ?? 'chunked'} / ${payload.length} bytes ${body.text.slice(0, 60)}`;
        const halfClose = l.kind === 'cut' || l.kind === 'chunk';
        const answer = await rawExchange(head, payload, halfClose);
        await logged(lines, label);
        if (!halfClose) {
          const expected = await expectedPost(t.valid, type, payload, declared);
          judge(label, appAnswer(head, answer), before, expected);
          return;
        }
        // The body never completes. Node answers 400 itself and closes (the app's answer then
        // goes nowhere), unless the app answered first from the token or the content type.
        const context = `${label} → ${answer.status} ${answer.text.slice(0, 200)}`;
        if (answer.status !== undefined) {
          expect(answer.status, context).toBeGreaterThanOrEqual(400);
          expect(answer.status, context).toBeLessThan(500);
        }
        if (answer.text !== '') judge(label, appAnswer(head, answer), before);
        expectNoFailure(before, context);
        expectUnchanged(before, `${context}: a broken body must not change the store`);
      }),
      { numRuns: 150 },
    );
  });

  test('GET /cashback-payments and GET /clawbacks: bad dates, pages and statuses, in the query, in headers, repeated', async () => {
    type Placement = 'absent' | 'query' | 'header' | 'both' | 'twice' | 'malformed';
    const placement = (valid: boolean, optional: boolean) =>
      fc.oneof(
        { weight: 4, arbitrary: fc.constant<Placement>('query') },
        { weight: 2, arbitrary: fc.constant<Placement>('header') },
        { weight: 1, arbitrary: fc.constant<Placement>('both') },
        { weight: 1, arbitrary: fc.constant<Placement>('twice') },
        {
          weight: valid && !optional ? 0 : optional ? 3 : 1,
          arbitrary: fc.constant<Placement>('absent'),
        },
        { weight: valid ? 0 : 1, arbitrary: fc.constant<Placement>('malformed') },
      );
    const input = (name: PageInput, value: fc.Arbitrary<string>, valid: boolean) =>
      fc.record({
        place: placement(valid, name.endsWith('page') || name.endsWith('size')),
        value,
        other: pageValue(name),
        escape: fc.constantFrom(...MALFORMED_ESCAPES),
      });
    // Half the cases are valid listings (so a 200 is checked too), half anything.
    const day = fc
      .date({ min: new Date('1900-01-01'), max: new Date('2200-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
    // Mostly small pages: a page of a thousand payments costs its validation time.
    const page = (max: number) =>
      fc
        .tuple(
          fc.oneof(
            { weight: 8, arbitrary: fc.integer({ min: 1, max: 5 }) },
            { weight: 1, arbitrary: fc.integer({ min: 1, max }) },
            { weight: 1, arbitrary: fc.constant(max) },
          ),
          fc.nat({ max: 3 }),
        )
        .map(([n, zeros]) => '0'.repeat(zeros) + String(n));
    const validInputs = fc
      .record({
        date_from: input('date_from', day, true),
        date_to: input('date_to', day, true),
        current_page: input('current_page', page(1_000_000_000), true),
        page_size: input('page_size', page(1000), true),
      })
      .map((c) => {
        // In order: date_from not after date_to.
        const [from, to] = [c.date_from.value, c.date_to.value].sort();
        return {
          ...c,
          date_from: { ...c.date_from, value: from as string },
          date_to: { ...c.date_to, value: to as string },
        };
      });
    const anyInputs = fc.record({
      date_from: input('date_from', pageValue('date_from'), false),
      date_to: input('date_to', pageValue('date_to'), false),
      current_page: input('current_page', pageValue('current_page'), false),
      page_size: input('page_size', pageValue('page_size'), false),
    });
    const noise = fc.subarray([
      '__proto__=1',
      'constructor=x',
      'DATE_FROM=2025-01-01',
      'date_from[]=2025-01-01',
      'page_size%00=1',
      'current_page%20=2',
      '=',
      '&',
      'x',
    ]);
    // The status filter: mostly absent, so the page's inputs decide most answers.
    const status = fc.record({
      place: fc.oneof(
        { weight: 6, arbitrary: fc.constant<Placement>('absent') },
        { weight: 3, arbitrary: fc.constant<Placement>('query') },
        { weight: 1, arbitrary: fc.constant<Placement>('header') },
        { weight: 1, arbitrary: fc.constant<Placement>('both') },
        { weight: 1, arbitrary: fc.constant<Placement>('twice') },
      ),
      value: statusValue,
      other: statusValue,
    });
    const cases = fc
      .tuple(
        fc.oneof(validInputs, anyInputs),
        status,
        fc.constantFrom<Listing>('/cashback-payments', '/clawbacks'),
        noise,
        fc.boolean(),
      )
      .map(([inputs, statusInput, route, noiseParts, noiseFirst]) => ({
        ...inputs,
        status: statusInput,
        route,
        noise: noiseParts,
        noiseFirst,
      }));
    const headerSafe = (v: string) =>
      /^[\t\x20-\x7e\x80-\xff]*$/.test(v) ? v : encodeURIComponent(v);
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const before = mark();
        const query: string[] = [];
        const headers: Record<string, string> = { Token: token };
        const received: Partial<Record<PageInput | 'status', string>> = {};
        for (const name of [...PAGE_INPUTS, 'status'] as const) {
          const { place, value, other } = c[name];
          const malformed = name === 'status' ? '' : c[name].escape;
          if (place === 'query' || place === 'both' || place === 'twice') {
            query.push(`${name}=${encodeURIComponent(value)}`);
            received[name] = value;
          }
          if (place === 'twice') query.push(`${name}=${encodeURIComponent(other)}`);
          if (place === 'header' || place === 'both') {
            const sentValue = headerSafe(place === 'both' ? other : value);
            headers[name] = sentValue;
            if (place === 'header') received[name] = sentHeader(sentValue);
          }
          if (place === 'malformed') {
            query.push(`${name}=${malformed}`);
            // Whatever the router makes of it, it is no date and no number.
            received[name] = malformed;
          }
        }
        const parts = c.noiseFirst ? [...c.noise, ...query] : [...query, ...c.noise];
        const path = `${c.route}${parts.length ? `?${parts.join('&')}` : ''}`;
        const answer = await exchange({ method: 'GET', path, headers });
        const label = `GET ${path} ${JSON.stringify(headers).slice(0, 200)}`;
        judge(label, answer, before);
        judgeListing(c.route, received, answer, label);
        expectUnchanged(before, `${label}: a listing must not change the store`);
      }),
      { numRuns: 2000 },
    );
  });

  test('GET /payments/{transaction_id}/history: any id, percent-encoded or raw', async () => {
    const ids = fc.oneof(
      {
        weight: 2,
        arbitrary: fc.constantFrom('t-paid', ' t-paid\t', 'T-PAID', 't-other', '', ' ', '\u0000'),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom('x'.repeat(128), ` ${'x'.repeat(128)} `, 'x'.repeat(129)),
      },
      { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
      { weight: 1, arbitrary: fc.constantFrom('a/b', '?', '#', '%', '__proto__', 'constructor') },
    );
    const raw = fc.constantFrom(...MALFORMED_ESCAPES, '%2e%2e', 'a%2Fb');
    const cases = fc.oneof(
      { weight: 5, arbitrary: ids.map((id) => ({ id, segment: encodeURIComponent(id) })) },
      { weight: 1, arbitrary: raw.map((segment) => ({ id: undefined, segment })) },
    );
    await fc.assert(
      fc.asyncProperty(cases, async ({ id, segment }) => {
        // fetch resolves dot segments: those are other paths.
        fc.pre(segment !== '.' && segment !== '..');
        const before = mark();
        const path = `/payments/${segment}/history`;
        const answer = await exchange({ method: 'GET', path, headers: { Token: token } });
        const label = `GET ${path}`;
        let expected: Expected | undefined;
        if (id !== undefined) {
          const trimmed = id.trim();
          if (id === '') expected = { status: 404, code: 'not_found' };
          else if (trimmed === '' || trimmed.length > 128 || trimmed.includes('\u0000')) {
            expected = { status: 400, code: 'invalid_query' };
          } else {
            // The other POST properties may have paid any id: the engine knows which.
            const history = await h.engine.paymentHistory('bank-a', trimmed);
            expected =
              history === undefined ? { status: 404, code: 'payment_not_found' } : { status: 200 };
            if (history !== undefined) expect(answer.body, label).toEqual(history);
          }
        }
        judge(label, answer, before, expected);
        if (answer.status === 200)
          expect(answer.body.transaction_id, label).toBe(id?.trim() ?? answer.body.transaction_id);
        else if (answer.status === 400) {
          expect(answer.body.error.details, label).toMatchObject([{ path: 'transaction_id' }]);
        } else {
          expect(answer.status, label).toBe(404);
          expect(['not_found', 'payment_not_found'], label).toContain(answer.body.error.code);
        }
        expectUnchanged(before, `${label}: a history must not change the store`);
      }),
      { numRuns: 600 },
    );
  });

  test('tokens on every authenticated route: missing, garbage, edited, forged', async () => {
    const routes = [
      { method: 'GET', path: '/active-offers' },
      { method: 'GET', path: '/cashback-payments?date_from=2025-01-01&date_to=2025-12-31' },
      { method: 'GET', path: '/clawbacks?date_from=2025-01-01&date_to=2025-12-31' },
      { method: 'GET', path: '/payments/t-paid/history' },
      ...Object.keys(POST_ROUTES).map((path) => ({ method: 'POST', path })),
    ];
    // Query strings no route reads (/active-offers takes none).
    const extra = fc.constantFrom(
      '',
      '',
      'x=1',
      '__proto__[polluted]=1&constructor=2',
      '%ZZ',
      'a=%00',
    );
    const cases = fc.record({ route: fc.constantFrom(...routes), token: tokens(), extra });
    await fc.assert(
      fc.asyncProperty(cases, async ({ route, token: t, extra: q }) => {
        const before = mark();
        const post = route.method === 'POST';
        const path =
          q === '' ? route.path : `${route.path}${route.path.includes('?') ? '&' : '?'}${q}`;
        const answer = await exchange({
          method: route.method,
          path,
          headers: headersOf(t, post ? 'application/json' : undefined),
          ...(post ? { body: bytes('[]') } : {}),
        });
        const label = `${route.method} ${path} Token ${String(t.header).slice(0, 300)}`;
        judge(
          label,
          answer,
          before,
          t.valid ? { status: 200 } : { status: 401, code: 'unauthorized' },
        );
      }),
      { numRuns: 800 },
    );
  });

  test('GET /get-token: missing, wrong and odd application ids and keys', async () => {
    const ID_NAMES = [
      'applicationId',
      'applicationid',
      'APPLICATIONID',
      'application-id',
      'application_id',
    ];
    const KEY_NAMES = ['applicationKey', 'APPLICATIONKEY', 'application-key'];
    const cases = fc.record({
      idName: fc.oneof(fc.constant(ID_NAMES[0] as string), fc.constantFrom(...ID_NAMES)),
      keyName: fc.oneof(fc.constant(KEY_NAMES[0] as string), fc.constantFrom(...KEY_NAMES)),
      id: fc.oneof(
        fc.constantFrom(...PARTNERS),
        fc.constantFrom(
          undefined,
          ...PARTNERS,
          'bank-c',
          '',
          '__proto__',
          'constructor',
          ' bank-a',
          'BANK-A',
        ),
        headerValue(20),
      ),
      key: fc.oneof(
        fc.constant('right'),
        fc.constantFrom(undefined, 'right', 'spaced', 'other', '', 'x'.repeat(4000)),
        headerValue(30),
      ),
    });
    await fc.assert(
      fc.asyncProperty(cases, async ({ idName, keyName, id, key }) => {
        const before = mark();
        const headers: Record<string, string> = {};
        if (id !== undefined) headers[idName] = id;
        const sentId = id === undefined ? '' : sentHeader(id);
        const keyValue =
          key === 'right'
            ? keyOf(sentId)
            : key === 'spaced'
              ? ` ${keyOf(sentId)}\t`
              : key === 'other'
                ? keyOf('bank-b')
                : key;
        if (keyValue !== undefined) headers[keyName] = keyValue;
        const valid =
          idName.toLowerCase() === 'applicationid' &&
          keyName.toLowerCase() === 'applicationkey' &&
          (PARTNERS as readonly string[]).includes(sentId) &&
          keyValue !== undefined &&
          sentHeader(keyValue) === keyOf(sentId);
        const answer = await exchange({ method: 'GET', path: '/get-token', headers });
        judge(
          `GET /get-token ${JSON.stringify(headers).slice(0, 200)}`,
          answer,
          before,
          valid ? { status: 200 } : { status: 401, code: 'invalid_credentials' },
        );
        if (valid) expect(answer.body.Token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      }),
      { numRuns: 60 },
    );
  });

  test('unknown paths, wrong methods and HEAD', async () => {
    const ROUTES: Record<string, string> = {
      ...Object.fromEntries(GET_ROUTES.map((p) => [p, 'GET'])),
      ...Object.fromEntries(Object.keys(POST_ROUTES).map((p) => [p, 'POST'])),
    };
    const known = fc.constantFrom(...Object.keys(ROUTES));
    const target = fc.oneof(
      unknownPath.map((path) => ({ path, known: false })),
      known.map((path) => ({ path, known: true })),
    );
    const cases = fc.record({
      target,
      method: fc.constantFrom(...METHODS),
      query: fc.constantFrom('', '', '?x=1', '?__proto__[polluted]=1', '?constructor=1&&='),
      token: fc.oneof(fc.constant<TokenCase>({ header: token, valid: true }), tokens()),
      type: contentType,
      body: fc.option(postBody('transaction', 2), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(
        cases,
        async ({ target: { path, known: isKnown }, method, query, token: t, type, body }) => {
          const routeMethod = ROUTES[path];
          // The right method on a known route is the other properties' business, but for HEAD.
          fc.pre(!(isKnown && method === routeMethod));
          const before = mark();
          const bodyAllowed = method !== 'GET' && method !== 'HEAD';
          const answer = await exchange({
            method,
            path: path + query,
            headers: headersOf(t, type),
            ...(bodyAllowed && body !== undefined ? { body: bytes(body.text) } : {}),
          });
          let expected: Expected;
          if (!isKnown) expected = { status: 404, code: 'not_found' };
          else if (method === 'HEAD' && routeMethod === 'GET') {
            // HEAD is GET without the body.
            if (path === '/get-token') expected = { status: 401 };
            else if (path === '/healthz' || path === '/openapi.json') expected = { status: 200 };
            else if (!t.valid) expected = { status: 401 };
            else {
              // The listings need their range: without a query string they are a 400.
              const listing = path === '/cashback-payments' || path === '/clawbacks';
              expected = { status: listing && !query.includes('date_') ? 400 : 200 };
            }
          } else {
            expected = { status: 405, code: 'method_not_allowed' };
            expect(answer.headers.get('allow')).toBe(routeMethod === 'GET' ? 'GET, HEAD' : 'POST');
          }
          judge(`${method} ${path}${query}`, answer, before, expected);
        },
      ),
      { numRuns: 1200 },
    );
  });

  test(`sends at least ${MIN_REQUESTS} requests, and leaves the prototypes as they were`, () => {
    expect(sent).toBeGreaterThanOrEqual(MIN_REQUESTS);
    expect(prototypeChanges(prototypesBefore, prototypeState())).toEqual([]);
    const plain: Record<string, unknown> = {};
    for (const key of POLLUTION_KEYS) expect(plain[key]).toBeUndefined();
  });
});
