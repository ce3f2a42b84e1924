/**
 * Every route of the partner API over a real server on 127.0.0.1 with real fetch, in the exact
 * shapes of docs/http.md: each per-item condition, the request-level errors, and what reaches
 * the store. Every response is also checked against the OpenAPI
 * document (test/http/_harness.ts).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/engine/entry.js';
import type { Store } from '../../src/store/entry.js';
import { customer, history, offer, tx } from '../fixtures.js';
import { type Harness, type HarnessOptions, startHarness } from './_harness.js';

const A = 'bank-a';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A server whose engine has the fixture offer (Coffee House, 5 %, warranty 14) and customer c1. */
async function ready(options: HarnessOptions = {}): Promise<Harness> {
  h = await startHarness({ engineClock: () => new Date('2025-06-01T12:00:00Z'), ...options });
  await h.engine.upsertOffers([offer()]);
  expect((await h.post(A, '/customers/', [customer()])).status).toBe(200);
  return h;
}

const elsewhere = (over: Record<string, unknown> = {}) =>
  tx({ merchant: { id: 'm9', name: 'Elsewhere', category_code: '1' }, ...over });

describe('GET /get-token', () => {
  test('answers { Token } for a valid id and key, and the token opens the other routes', async () => {
    const s = await ready();
    const r = await s.call('GET', '/get-token', {
      headers: { applicationId: A, applicationKey: `${A}-key-0123456789abcdef` },
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['Token']);
    expect(r.body.Token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const offers = await s.call('GET', '/active-offers', { headers: { Token: r.body.Token } });
    expect(offers.status).toBe(200);
  });
});

describe('POST /transactions-history: [{ event_id, errors }]', () => {
  test('a clean upload answers one result with its event id and an empty errors object', async () => {
    const s = await ready();
    const r = await s.post(A, '/transactions-history', [
      history(),
      history({ transaction_id: 'h2' }),
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([{ event_id: expect.stringMatching(UUID), errors: {} }]);
    expect(await s.store.transactions.existing(A, ['h1', 'h2'])).toEqual(['h1', 'h2']);
  });

  test('customer not found, already in the service, invalid: each reported by id, none stored', async () => {
    const s = await ready();
    await s.post(A, '/transactions-history', [history({ transaction_id: 'h0' })]);
    const r = await s.post(A, '/transactions-history', [
      history({ transaction_id: 'h1', customer_id: 'nobody' }),
      history({ transaction_id: 'h0' }),
      history({ transaction_id: 'h2', date: '2025-02-30T10:00:00' }),
      history({ transaction_id: 'h3' }),
    ]);
    expect(r.body).toEqual([
      {
        event_id: expect.stringMatching(UUID),
        errors: {
          h1: "Customer with id 'nobody' not found",
          h0: "Transaction 'h0' is already in the service",
          h2: 'Invalid history transaction: date is not a real calendar date',
        },
      },
    ]);
    expect(await s.store.transactions.existing(A, ['h0', 'h1', 'h2', 'h3'])).toEqual(['h0', 'h3']);
  });
});

describe('POST /customers/: { Added, Updated, Errors }', () => {
  test('new customers count in Added; an existing one is replaced and counts in Updated', async () => {
    const s = await ready();
    const r = await s.post(A, '/customers/', [
      customer({ gender: 'M' }),
      customer({ customer_id: 'c2' }),
    ]);
    expect(r.body).toEqual({ Added: 1, Updated: 1, Errors: {} });
    const [c1] = await s.store.customers.get(A, ['c1']);
    expect(c1?.gender).toBe('M');
  });

  test('several customers with the same id in one request: all copies rejected, one entry', async () => {
    const s = await ready();
    const r = await s.post(A, '/customers/', [
      customer({ customer_id: 'c9' }),
      customer({ customer_id: 'c9', gender: 'M' }),
      customer({ customer_id: 'c3', birthday: '1990-02-30' }),
      7,
    ]);
    expect(r.body).toEqual({
      Added: 0,
      Updated: 0,
      Errors: {
        c9: "Several customers with the id 'c9' were provided in the request",
        c3: 'Invalid customer: birthday must be a real date YYYY-MM-DD',
        '#3': 'Invalid customer: must be an object',
      },
    });
    expect(await s.store.customers.get(A, ['c9', 'c3'])).toEqual([]);
  });

  test('the path without the slash is the same route', async () => {
    const s = await ready();
    const r = await s.post(A, '/customers', [customer({ customer_id: 'c2' })]);
    expect(r.body).toEqual({ Added: 1, Updated: 0, Errors: {} });
  });
});

describe('POST /activations: { Added, Updated, Errors }', () => {
  test('activates offers, dated by the engine clock when date is absent; again counts as Updated', async () => {
    const s = await ready();
    await s.engine.upsertOffers([offer({ requires_activation: true })]);
    const r = await s.post(A, '/activations', [{ customer_id: ' c1 ', offer_id: 1 }]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ Added: 1, Updated: 0, Errors: {} });
    const again = await s.post(A, '/activations', [
      { customer_id: 'c1', offer_id: 1, date: '2025-01-01T00:00:00' },
    ]);
    expect(again.body).toEqual({ Added: 0, Updated: 1, Errors: {} });
    expect(await s.store.activations.get(A, { customerIds: ['c1'], offerIds: [1] })).toEqual([
      { customer_id: 'c1', offer_id: 1, date: '2025-06-01T12:00:00.000000000' },
    ]);
  });

  test('names every rejected item: repeated pair, malformed, unknown customer or offer', async () => {
    const s = await ready();
    const r = await s.post(A, '/activations', [
      { customer_id: 'c1', offer_id: 1 },
      { customer_id: 'c1', offer_id: 1, date: '2025-05-01T00:00:00' },
      { customer_id: 'c1', offer_id: 0 },
      { customer_id: 'c1', offer_id: 1.5, date: '2025-02-30T00:00:00' },
      { customer_id: 'nobody', offer_id: 1 },
      { customer_id: 'c1', offer_id: 99 },
    ]);
    expect(r.body).toEqual({
      Added: 0,
      Updated: 0,
      Errors: {
        'c1/1': "Several activations of offer 1 by customer 'c1' were provided in the request",
        '#2': 'Invalid activation: offer_id must be greater than 0',
        '#3': 'Invalid activation: offer_id must be a whole number; date is not a real calendar date',
        'nobody/1': "Customer with id 'nobody' not found",
        'c1/99': 'Offer with id 99 not found',
      },
    });
  });
});

describe('POST /transactions: [{ event_id, payments, errors }]', () => {
  test('every condition in one request: one payment or one error per item', async () => {
    const s = await ready();
    await s.post(A, '/transactions-history', [history({ transaction_id: 'h1' })]);
    const { description: _, ...noDescription } = tx({ transaction_id: 't4' });
    const r = await s.post(A, '/transactions', [
      tx({ transaction_id: 'a', amount: 20 }),
      tx({ transaction_id: 'b', customer_id: 'nobody' }),
      tx({ transaction_id: 'h1' }),
      elsewhere({ transaction_id: 'c' }),
      tx({ transaction_id: 'd', amount: 0.05 }),
      tx({ transaction_id: 'e', amount: 'ten' }),
      tx({ transaction_id: 'a' }),
      tx({ transaction_id: 'f', date: '2026-01-01T00:00:00' }),
      tx({ transaction_id: undefined }),
      42,
      noDescription,
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      {
        event_id: expect.stringMatching(UUID),
        payments: [{ cashback: 1, payment_date: '2025-06-16', transaction_id: 'a' }],
        errors: {
          b: "Customer with id 'nobody' not found",
          h1: "Transaction 'h1' is already in the service",
          c: "No cashback offer associated with merchant 'elsewhere'",
          d: 'Cashback of offer 1 rounds to 0 at 2 decimal places',
          e: 'Invalid transaction: amount must be a number or a plain decimal string',
          a: "Transaction 'a' is already in the service",
          f: 'No cashback offer associated with this transaction: offer 1 failed its valid_dates check',
          '#8': 'Invalid transaction: transaction_id is required',
          '#9': 'Invalid transaction: must be an object',
          t4: 'Invalid transaction: description is required',
        },
      },
    ]);
  });

  test('a transaction already in the service from an earlier request', async () => {
    const s = await ready();
    await s.post(A, '/transactions', [tx()]);
    const r = await s.post(A, '/transactions', [tx()]);
    expect(r.body[0].payments).toEqual([]);
    expect(r.body[0].errors).toEqual({ t1: "Transaction 't1' is already in the service" });
  });

  test('unknown fields in items are ignored and never stored; a body cannot name the partner', async () => {
    const s = await ready();
    const r = await s.post(A, '/transactions', [
      { ...tx(), partner: 'bank-b', application_id: 'bank-b', extra: { deep: [1, 2] } },
    ]);
    expect(r.body[0].payments).toHaveLength(1);
    expect(await s.store.transactions.existing('bank-b', ['t1'])).toEqual([]);
    const [stored] = await s.store.transactions.purchases(A, {
      pairs: [{ customerId: 'c1', merchantKey: 'coffee house' }],
      fromDay: '0000-01-01',
    });
    expect(stored?.transaction_id).toBe('t1');
    expect(JSON.stringify(stored)).not.toMatch(/extra|deep|application_id|partner/);
    const c = await s.post(A, '/customers/', [{ ...customer({ customer_id: 'c5' }), vip: true }]);
    expect(c.body.Added).toBe(1);
    const [c5] = await s.store.customers.get(A, ['c5']);
    expect(Object.keys(c5 ?? {}).sort()).toEqual(['birthday', 'customer_id', 'gender', 'location']);
  });
});

describe('GET /cashback-payments', () => {
  async function paid(): Promise<Harness> {
    const s = await ready();
    await s.engine.upsertOffers([offer({ offer_id: 2, merchant_name: 'Tea Room', warranty: 0 })]);
    const tea = { id: 'm2', name: 'Tea Room', category_code: '5812' };
    await s.post(A, '/transactions', [
      tx({ transaction_id: 't3', date: '2025-06-03T10:00:00' }),
      tx({ transaction_id: 't1' }),
      tx({ transaction_id: 't2', merchant: tea, amount: 40 }),
    ]);
    return s;
  }

  test('the query string selects the range; order by payment day, then transaction id', async () => {
    const s = await paid();
    const r = await s.get(A, '/cashback-payments?date_from=2025-06-01&date_to=2025-06-30');
    expect(r.body).toEqual({
      total_count: 3,
      current_page: 1,
      page_size: 100,
      date_from: '2025-06-01',
      date_to: '2025-06-30',
      transactions: [
        {
          transaction_id: 't2',
          country: 'FR',
          city: 'Paris',
          date: '2025-06-02T00:00:00.000',
          cashback_amount: 2,
          offer_id: 2,
          customer_id: 'c1',
          offer_revision: 1,
          status: 'pending',
        },
        {
          transaction_id: 't1',
          country: 'FR',
          city: 'Paris',
          date: '2025-06-16T00:00:00.000',
          cashback_amount: 0.5,
          offer_id: 1,
          customer_id: 'c1',
          offer_revision: 1,
          status: 'pending',
        },
        {
          transaction_id: 't3',
          country: 'FR',
          city: 'Paris',
          date: '2025-06-17T00:00:00.000',
          cashback_amount: 0.5,
          offer_id: 1,
          customer_id: 'c1',
          offer_revision: 1,
          status: 'pending',
        },
      ],
    });
  });

  test('inputs travel as headers, as in the interface example; the query string wins over a header', async () => {
    const s = await paid();
    const r = await s.get(A, '/cashback-payments?page_size=1', {
      date_from: '2025-06-01',
      date_to: '2025-06-16',
      current_page: '2',
      page_size: '50',
    });
    expect(r.body).toMatchObject({
      total_count: 2,
      current_page: 2,
      page_size: 1,
      date_from: '2025-06-01',
      date_to: '2025-06-16',
    });
    expect(r.body.transactions.map((t: { transaction_id: string }) => t.transaction_id)).toEqual([
      't1',
    ]);
  });

  test('a bad query is 400 invalid_query naming every bad input', async () => {
    const s = await paid();
    const r = await s.get(
      A,
      '/cashback-payments?date_from=2025-02-30&page_size=1001&current_page=0',
    );
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: {
        code: 'invalid_query',
        message: 'The payments query is invalid',
        details: [
          { path: 'date_from', message: 'must be a real date YYYY-MM-DD' },
          { path: 'date_to', message: 'is required' },
          { path: 'current_page', message: 'must be at least 1' },
          { path: 'page_size', message: 'must be at most 1000' },
        ],
      },
    });
    const reversed = await s.get(A, '/cashback-payments?date_from=2025-06-02&date_to=2025-06-01');
    expect(reversed.body.error.details).toEqual([
      { path: 'date_to', message: 'must not be before date_from' },
    ]);
  });
});

describe('GET /active-offers', () => {
  test('offers active and not expired today (engine clock), by offer_id, with active shown', async () => {
    const s = await ready();
    await s.engine.upsertOffers([
      offer({ offer_id: 3, merchant_name: 'Later', valid_from: '2025-09-01' }),
      offer({ offer_id: 2, merchant_name: 'Off', active: false }),
      offer({ offer_id: 4, merchant_name: 'Gone', valid_to: '2025-05-31' }),
    ]);
    const r = await s.get(A, '/active-offers');
    expect(r.status).toBe(200);
    expect(r.body.map((o: { offer_id: number }) => o.offer_id)).toEqual([1, 3]);
    expect(r.body[0]).toEqual({ ...offer(), active: true });
  });

  test('amounts loaded as decimal strings are listed as JSON numbers; absent age and gender as []', async () => {
    const s = await ready();
    const { age: _a, gender: _g, ...bare } = offer({ offer_id: 5, merchant_name: 'Tea' });
    await s.engine.upsertOffers([{ ...bare, discount: '7.50', max_cashback: '3' }]);
    const r = await s.get(A, '/active-offers');
    const listed = r.body.find((o: { offer_id: number }) => o.offer_id === 5);
    expect(listed).toMatchObject({ discount: 7.5, max_cashback: 3, age: [], gender: [] });
    expect(r.text).toContain('"discount":7.5,');
  });
});

describe('rewards, scopes and channels over HTTP', () => {
  test('lists scoped offers with reward, scope and channels, and pays a transaction on its channel', async () => {
    const s = await ready();
    const { merchant_name: _m, discount: _d, ...bare } = offer({ offer_id: 9 });
    const scoped = {
      ...bare,
      scope: { mcc: ['5411'] },
      channels: ['online'],
      reward: { type: 'fixed', amount: '2.50' },
    };
    await s.engine.upsertOffers([scoped]);
    const offers = await s.get(A, '/active-offers');
    expect(offers.body.find((o: { offer_id: number }) => o.offer_id === 9)).toEqual({
      ...bare,
      scope: { mcc: ['5411'] },
      channels: ['online'],
      reward: { type: 'fixed', amount: 2.5 },
      active: true,
    });
    const grocer = { id: 'g1', name: 'Green Grocer', category_code: '5411' };
    const r = await s.post(A, '/transactions', [
      tx({ merchant: grocer, channel: 'online' }),
      tx({ transaction_id: 't2', merchant: grocer }),
      tx({ transaction_id: 't3', merchant: grocer, channel: 'phone' }),
    ]);
    expect(r.status).toBe(200);
    expect(r.body[0].payments).toEqual([
      { transaction_id: 't1', cashback: 2.5, payment_date: '2025-06-16' },
    ]);
    expect(r.body[0].errors).toEqual({
      t2: 'No cashback offer associated with this transaction: offer 9 failed its channel check',
      t3: "Invalid transaction: channel must be one of 'online', 'in_store'",
    });
  });
});

describe('GET /healthz and GET /openapi.json', () => {
  test('need no token', async () => {
    h = await startHarness();
    expect((await h.call('GET', '/healthz')).body).toEqual({ status: 'ok' });
    const doc = await h.call('GET', '/openapi.json');
    expect(doc.body.openapi).toBe('3.1.0');
  });
});

describe('request-level errors: one body (docs/http.md)', () => {
  const json = { 'content-type': 'application/json' };

  test('404 for an unknown path, 405 with Allow for a known path and another method', async () => {
    const s = await ready();
    const token = await s.token(A);
    const missing = await s.call('GET', '/transaction', { headers: { Token: token } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    for (const [method, path, allow] of [
      ['GET', '/transactions', 'POST'],
      ['DELETE', '/customers/', 'POST'],
      ['POST', '/cashback-payments', 'GET, HEAD'],
      ['PUT', '/get-token', 'GET, HEAD'],
    ] as const) {
      const r = await s.call(method, path, {
        headers: { Token: token, ...json },
        body: method === 'GET' ? undefined : '[]',
      });
      expect(r.status, `${method} ${path}`).toBe(405);
      expect(r.headers.get('allow')).toBe(allow);
      expect(r.body.error.code).toBe('method_not_allowed');
    }
  });

  test('400 for malformed JSON and for a body that is not an array; nothing stored', async () => {
    const s = await ready();
    const token = await s.token(A);
    for (const [body, code] of [
      ['[{"transaction_id": "t1",', 'invalid_json'],
      ['', 'invalid_json'],
      ['{"transaction_id": "t1"}', 'invalid_body'],
      ['null', 'invalid_body'],
      ['"[]"', 'invalid_body'],
    ] as const) {
      const r = await s.call('POST', '/transactions', { headers: { Token: token, ...json }, body });
      expect(r.status, body).toBe(400);
      expect(r.body.error.code).toBe(code);
    }
    expect(await s.store.transactions.existing(A, ['t1'])).toEqual([]);
  });

  test('413 for a body over the byte limit, with content-length or chunked, and a batch over the item limit', async () => {
    const s = await ready({ limits: { bodyBytes: 2048, batchItems: 3 } });
    const token = await s.token(A);
    const big = JSON.stringify([tx({ description: 'x'.repeat(3000) })]);
    const sized = await s.call('POST', '/transactions', {
      headers: { Token: token, ...json },
      body: big,
    });
    expect(sized.status).toBe(413);
    expect(sized.body.error.code).toBe('body_too_large');

    const bytes = new TextEncoder().encode(big);
    const res = await fetch(`${s.url}/transactions`, {
      method: 'POST',
      headers: { Token: token, ...json },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 500) controller.enqueue(bytes.slice(i, i + 500));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('body_too_large');

    const four = [1, 2, 3, 4].map((i) => tx({ transaction_id: `t${i}` }));
    const batch = await s.call('POST', '/transactions', {
      headers: { Token: token, ...json },
      body: JSON.stringify(four),
    });
    expect(batch.status).toBe(413);
    expect(batch.body.error).toEqual({
      code: 'batch_too_large',
      message: 'A request may carry at most 3 items, got 4',
      details: [],
    });
    expect(await s.store.transactions.existing(A, ['t1', 't2', 't3', 't4'])).toEqual([]);
    const three = await s.call('POST', '/transactions', {
      headers: { Token: token, ...json },
      body: JSON.stringify(four.slice(0, 3)),
    });
    expect(three.status).toBe(200);
  });

  test('415 for a POST body not declared as JSON; charset parameters are fine', async () => {
    const s = await ready();
    const token = await s.token(A);
    const body = JSON.stringify([customer({ customer_id: 'c2' })]);
    for (const type of [
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/jsonx',
    ]) {
      const headers: Record<string, string> = { Token: token };
      if (type !== undefined) headers['content-type'] = type;
      const r = await s.call('POST', '/customers/', { headers, body });
      expect(r.status, String(type)).toBe(415);
      expect(r.body.error.code).toBe('unsupported_media_type');
    }
    expect(await s.store.customers.get(A, ['c2'])).toEqual([]);
    const ok = await s.call('POST', '/customers/', {
      headers: { Token: token, 'content-type': 'Application/JSON; charset=utf-8' },
      body,
    });
    expect(ok.body.Added).toBe(1);
  });

  test('500 without internals when the engine fails, and the failure is logged', async () => {
    const lines: Record<string, unknown>[] = [];
    const store = createMemoryStore();
    let fail = false;
    const failing: Store = {
      ...store,
      transaction: (fn) =>
        store.transaction(async (session) => {
          if (fail) throw new Error('disk on fire at /var/lib/secret');
          return fn(session);
        }),
    };
    const s = await ready({
      store: failing,
      logger: { info: (f) => lines.push(f), error: (f) => lines.push({ ...f, level: 'error' }) },
    });
    fail = true;
    const r = await s.post(A, '/transactions', [tx()]);
    expect(r.status).toBe(500);
    expect(r.body).toEqual({
      error: { code: 'internal', message: 'Internal server error', details: [] },
    });
    expect(r.text).not.toContain('fire');
    expect(lines.find((l) => l.level === 'error')).toMatchObject({
      path: '/transactions',
      err: { message: 'disk on fire at /var/lib/secret' },
    });
  });
});

describe('edges the docs promise', () => {
  test('a page past the end is an empty page; /transactions/ is 404; GET routes answer HEAD', async () => {
    const s = await ready();
    const r = await s.get(
      A,
      '/cashback-payments?date_from=2025-01-01&date_to=2025-12-31&current_page=9',
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ total_count: 0, current_page: 9, transactions: [] });
    const slash = await s.post(A, '/transactions/', [tx()]);
    expect(slash.status).toBe(404);
    const head = await fetch(`${s.url}/healthz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});
