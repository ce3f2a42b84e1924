/**
 * The OpenAPI document of the partner API (`GET /openapi.json`, docs/http.md): a valid OpenAPI 3.1
 * document, byte for byte the committed `docs/openapi.json`, covering every route with its
 * method, security, inputs, error statuses and response headers; real answers of each error
 * status are documented on their route; and the response check every HTTP test relies on
 * (test/http/_harness.ts) really rejects bodies the document does not allow.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/engine/entry.js';
import { openApiDocument } from '../../src/http/index.js';
import type { Store } from '../../src/store/entry.js';
import { customer, history, offer, tx } from '../fixtures.js';
import { checkAgainstOpenApi, type Harness, type Reply, startHarness } from './_harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Record<string, unknown>;
}
interface Response {
  description: string;
  headers?: Record<string, { required?: boolean; schema: Record<string, unknown> }>;
  content?: Record<string, { schema: Record<string, unknown> }>;
}
interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: {
    required?: boolean;
    content: Record<string, { schema: { type?: string; items?: { $ref?: string } } }>;
  };
  responses: Record<string, Response>;
}
interface Document {
  openapi: string;
  info: { version: string };
  security?: Record<string, string[]>[];
  components: {
    securitySchemes: Record<string, Record<string, string>>;
    schemas: Record<string, object>;
  };
  paths: Record<string, Record<string, Operation>>;
}

/**
 * Every route of the app: its method, whether it needs a token, and every error status it can
 * answer (404 aside: a route that exists is never "not found"). Body routes add 400 (JSON), 413
 * (bytes, items) and 415 (content type); /cashback-payments 400 (query); /get-token 429.
 */
const ROUTES: Record<string, { method: 'get' | 'post'; auth: boolean; errors: number[] }> = {
  '/get-token': { method: 'get', auth: false, errors: [401, 405, 429, 500] },
  '/transactions-history': { method: 'post', auth: true, errors: [400, 401, 405, 413, 415, 500] },
  '/customers/': { method: 'post', auth: true, errors: [400, 401, 405, 413, 415, 500] },
  '/customers': { method: 'post', auth: true, errors: [400, 401, 405, 413, 415, 500] },
  '/activations': { method: 'post', auth: true, errors: [400, 401, 405, 413, 415, 500] },
  '/transactions': { method: 'post', auth: true, errors: [400, 401, 405, 413, 415, 500] },
  '/returns': { method: 'post', auth: true, errors: [400, 401, 405, 413, 415, 500] },
  '/cashback-payments': { method: 'get', auth: true, errors: [400, 401, 405, 500] },
  '/clawbacks': { method: 'get', auth: true, errors: [400, 401, 405, 500] },
  '/payments/{transaction_id}/history': {
    method: 'get',
    auth: true,
    errors: [400, 401, 404, 405, 500],
  },
  '/active-offers': { method: 'get', auth: true, errors: [401, 405, 500] },
  '/openapi.json': { method: 'get', auth: false, errors: [405, 500] },
  '/healthz': { method: 'get', auth: false, errors: [405, 500] },
};

/** The component schema each POST route takes an array of. */
const BODY_ITEM: Record<string, string> = {
  '/transactions-history': 'HistoryTransaction',
  '/customers/': 'Customer',
  '/customers': 'Customer',
  '/activations': 'Activation',
  '/transactions': 'Transaction',
  '/returns': 'Return',
};

const PAGE_INPUTS = ['date_from', 'date_to', 'current_page', 'page_size'];

/** A path to request for each route: templated paths with a value in each parameter. */
const requestPath = (path: string) => path.replace('{transaction_id}', 't1');

let h: Harness;
let served: Reply;
let doc: Document;

beforeAll(async () => {
  h = await startHarness();
  served = await h.call('GET', '/openapi.json');
  doc = served.body as Document;
});
afterAll(() => h.close());

const operation = (path: string): Operation => {
  const route = ROUTES[path];
  const op = route === undefined ? undefined : doc.paths[path]?.[route.method];
  if (op === undefined) throw new Error(`The document has no operation for ${path}`);
  return op;
};

describe('GET /openapi.json', () => {
  test('is served as JSON and validates as an OpenAPI 3.1 document', async () => {
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^application\/json/);
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(
      structuredClone(doc) as unknown as Record<string, unknown>,
    );
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  test('its schemas compile as JSON Schema 2020-12 in strict mode', () => {
    const ajv = new Ajv2020({ strict: true });
    addFormats.default(ajv);
    const inline = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (op.parameters ?? []).map((p) => p.schema)),
    );
    for (const schema of [...Object.values(doc.components.schemas), ...inline]) {
      expect(() => ajv.compile(schema)).not.toThrow();
    }
  });

  test('equals the committed docs/openapi.json byte for byte', () => {
    const committed = readFileSync(join(root, 'docs', 'openapi.json'), 'utf8');
    expect(
      committed,
      'docs/openapi.json differs from what the app serves: run `npm run openapi:update`',
    ).toBe(`${JSON.stringify(doc, null, 2)}\n`);
    expect(doc).toEqual(openApiDocument());
  });

  test("has the package's version as info.version", () => {
    expect(doc.info.version).toBe(pkg.version);
  });
});

describe('the routes in the document', () => {
  test('every route of the app is a path, with its one method and nothing else', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(ROUTES).sort());
    for (const [path, route] of Object.entries(ROUTES)) {
      expect(Object.keys(doc.paths[path] ?? {}), path).toEqual([route.method]);
    }
  });

  test('every operation has a distinct operationId', () => {
    const ids = Object.keys(ROUTES).map((path) => operation(path).operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test.each(Object.keys(ROUTES))(
    '%s documents 200 and every error status it can answer',
    (path) => {
      const op = operation(path);
      const statuses = Object.keys(op.responses).map(Number);
      expect(statuses).toContain(200);
      for (const status of ROUTES[path]?.errors ?? [])
        expect(statuses, `${path} ${status}`).toContain(status);
      for (const status of statuses.filter((s) => s >= 400)) {
        expect(op.responses[String(status)]?.content?.['application/json']?.schema).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
    },
  );

  test.each(Object.keys(ROUTES))('%s documents its response headers', (path) => {
    const op = operation(path);
    for (const [status, response] of Object.entries(op.responses)) {
      expect(response.headers?.['X-Request-Id'], `${path} ${status}`).toBeDefined();
    }
    expect(op.responses['405']?.headers?.Allow).toMatchObject({ required: true });
    if (ROUTES[path]?.errors.includes(429)) {
      expect(op.responses['429']?.headers?.['Retry-After']).toMatchObject({
        required: true,
        schema: { type: 'integer' },
      });
    }
  });

  test('the Token scheme applies to exactly the authenticated routes', () => {
    expect(doc.components.securitySchemes).toEqual({
      Token: { type: 'apiKey', in: 'header', name: 'Token' },
    });
    for (const [path, route] of Object.entries(ROUTES)) {
      const security = operation(path).security ?? doc.security ?? [];
      expect(security, path).toEqual(route.auth ? [{ Token: [] }] : []);
    }
  });

  test.each([
    ['/cashback-payments', [...PAGE_INPUTS, 'status']],
    ['/clawbacks', PAGE_INPUTS],
  ])('%s documents its inputs as query and as header parameters', (path, inputs) => {
    const params = operation(path).parameters ?? [];
    expect(params.map((p) => `${p.in}:${p.name}`).sort()).toEqual(
      inputs.flatMap((n) => [`query:${n}`, `header:${n}`]).sort(),
    );
    for (const p of params) {
      expect(p.required, p.name).toBe(false);
      if (p.name.startsWith('date_')) expect(p.schema).toMatchObject({ format: 'date' });
      else if (p.name === 'status') {
        expect(p.schema).toEqual({ type: 'string', enum: ['pending', 'confirmed'] });
      } else expect(p.schema).toMatchObject({ type: 'string', pattern: '^[0-9]+$' });
    }
  });

  test('/payments/{transaction_id}/history documents its path parameter, required', () => {
    const params = operation('/payments/{transaction_id}/history').parameters ?? [];
    expect(params).toMatchObject([
      {
        name: 'transaction_id',
        in: 'path',
        required: true,
        schema: { type: 'string', minLength: 1, maxLength: 128 },
      },
    ]);
  });

  test('POST /returns names every per-item code of a return, late_return included', () => {
    const { description } = operation('/returns') as unknown as { description: string };
    for (const code of [
      'invalid_return',
      'duplicate_return',
      'transaction_not_found',
      'return_exceeds_amount',
      'not_paid',
      'after_warranty',
      'late_return',
    ]) {
      expect(description).toContain(`\`${code}\``);
    }
  });

  test('/get-token documents its two headers, both required', () => {
    const params = operation('/get-token').parameters ?? [];
    expect(params).toEqual([
      { name: 'applicationId', in: 'header', required: true, schema: { type: 'string' } },
      { name: 'applicationKey', in: 'header', required: true, schema: { type: 'string' } },
    ]);
  });

  test('the POST routes take a required JSON array of their item schema', () => {
    for (const [path, item] of Object.entries(BODY_ITEM)) {
      const body = operation(path).requestBody;
      expect(body?.required, path).toBe(true);
      expect(Object.keys(body?.content ?? {})).toEqual(['application/json']);
      expect(body?.content['application/json']?.schema).toEqual({
        type: 'array',
        items: { $ref: `#/components/schemas/${item}` },
      });
    }
  });
});

/** A store whose every call fails, as a broken database would. */
function brokenStore(): Store {
  const fail = async (): Promise<never> => {
    throw new Error('connection refused: db.internal:5432 password=hunter2');
  };
  const inner = createMemoryStore();
  return {
    ...inner,
    transaction: fail,
    offers: { list: fail, history: fail, revision: fail, upsert: fail },
    customers: { get: fail, upsert: fail },
    transactions: { existing: fail, get: fail, insert: fail, purchases: fail },
    payments: {
      insert: fail,
      list: fail,
      get: fail,
      adjust: fail,
      record: fail,
      history: fail,
      clawbacks: fail,
    },
    confirmations: { take: fail },
    outbox: { add: fail, list: fail },
    returns: { existing: fail, hold: fail, ofTransactions: fail, insert: fail },
  };
}

describe('real error answers are documented on their route, with their headers', () => {
  /** The answer is documented for the route's method, with the error code of its status. */
  function documented(path: string, r: Reply, status: number, code: string) {
    expect(r.status, r.text).toBe(status);
    expect(r.body.error.code).toBe(code);
    expect(Object.keys(operation(path).responses)).toContain(String(status));
    expect(r.headers.get('x-request-id')).toMatch(/^[\w=-]{1,255}$/);
  }

  test('400, 401, 405, 413 and 415 on every route that can answer them', async () => {
    const token = await h.token('bank-a');
    const json = { Token: token, 'content-type': 'application/json' };
    for (const [path, route] of Object.entries(ROUTES)) {
      const other = route.method === 'get' ? 'POST' : 'GET';
      const r405 = await h.call(other, requestPath(path), { headers: { Token: token } });
      documented(path, r405, 405, 'method_not_allowed');
      expect(r405.headers.get('allow')).toBe(route.method === 'get' ? 'GET, HEAD' : 'POST');
      if (route.auth) {
        const method = route.method.toUpperCase();
        documented(
          path,
          await h.call(method, requestPath(path), { headers: { Token: 'x' } }),
          401,
          'unauthorized',
        );
      }
      if (route.method !== 'post') continue;
      documented(
        path,
        await h.call('POST', path, { headers: json, body: '[' }),
        400,
        'invalid_json',
      );
      documented(
        path,
        await h.call('POST', path, { headers: json, body: '{}' }),
        400,
        'invalid_body',
      );
      const many = JSON.stringify(Array.from({ length: 1001 }, () => ({})));
      documented(
        path,
        await h.call('POST', path, { headers: json, body: many }),
        413,
        'batch_too_large',
      );
      const big = `[${' '.repeat(5 * 1024 * 1024)}]`;
      documented(
        path,
        await h.call('POST', path, { headers: json, body: big }),
        413,
        'body_too_large',
      );
      const text = { Token: token, 'content-type': 'text/plain' };
      documented(
        path,
        await h.call('POST', path, { headers: text, body: '[]' }),
        415,
        'unsupported_media_type',
      );
    }
    const bad = await h.get('bank-a', '/cashback-payments?date_from=2025-02-30&date_to=2025-03-01');
    documented('/cashback-payments', bad, 400, 'invalid_query');
    const status = await h.get(
      'bank-a',
      '/cashback-payments?date_from=2025-06-01&date_to=2025-06-30&status=paid',
    );
    documented('/cashback-payments', status, 400, 'invalid_query');
    const clawbacks = await h.get('bank-a', '/clawbacks?date_from=2025-06-01&page_size=0');
    documented('/clawbacks', clawbacks, 400, 'invalid_query');
    const HISTORY = '/payments/{transaction_id}/history';
    documented(HISTORY, await h.get('bank-a', '/payments/%20/history'), 400, 'invalid_query');
    documented(HISTORY, await h.get('bank-a', '/payments/t1/history'), 404, 'payment_not_found');
    const creds = { applicationId: 'bank-a', applicationKey: 'wrong' };
    documented(
      '/get-token',
      await h.call('GET', '/get-token', { headers: creds }),
      401,
      'invalid_credentials',
    );
  });

  test('429 at /get-token, with Retry-After in whole seconds', async () => {
    const limited = await startHarness({ limits: { tokenRequestsPerAddress: 1 } });
    try {
      const headers = { applicationId: 'bank-a', applicationKey: 'guess' };
      expect((await limited.call('GET', '/get-token', { headers })).status).toBe(401);
      const r = await limited.call('GET', '/get-token', { headers });
      documented('/get-token', r, 429, 'rate_limited');
      expect(r.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    } finally {
      await limited.close();
    }
  });

  test('500 on a failing store, without internals', async () => {
    const broken = await startHarness({ store: brokenStore() });
    try {
      const token = await broken.token('bank-a');
      const calls: [string, string, string][] = [
        ['GET', '/active-offers', ''],
        ['GET', '/cashback-payments?date_from=2025-01-01&date_to=2025-01-31', ''],
        ['GET', '/clawbacks?date_from=2025-01-01&date_to=2025-01-31', ''],
        ['GET', '/payments/t1/history', ''],
        ['POST', '/customers/', JSON.stringify([customer()])],
        ['POST', '/transactions', JSON.stringify([tx()])],
        ['POST', '/transactions-history', JSON.stringify([history()])],
        [
          'POST',
          '/returns',
          JSON.stringify([{ return_id: 'r1', transaction_id: 't1', date: '2025-06-03T10:00:00' }]),
        ],
      ];
      for (const [method, path, body] of calls) {
        const headers = { Token: token, 'content-type': 'application/json' };
        const r = await broken.call(
          method,
          path,
          method === 'POST' ? { headers, body } : { headers },
        );
        const route = (path.split('?', 1)[0] as string).replace(
          /^\/payments\/[^/]+\/history$/,
          '/payments/{transaction_id}/history',
        );
        documented(route, r, 500, 'internal');
        expect(r.body.error).toEqual({
          code: 'internal',
          message: 'Internal server error',
          details: [],
        });
        expect(r.text).not.toMatch(/hunter2|db\.internal|refused/);
      }
    } finally {
      await broken.close();
    }
  });
});

describe('the response check of the HTTP tests', () => {
  const result = { event_id: 'e1', payments: [], errors: {} };

  test('accepts what the document allows', () => {
    expect(() => checkAgainstOpenApi('POST', '/transactions', 200, [result])).not.toThrow();
    expect(() =>
      checkAgainstOpenApi('GET', '/nowhere', 404, {
        error: { code: 'not_found', message: 'No route', details: [] },
      }),
    ).not.toThrow();
  });

  test('rejects a field the document does not name', () => {
    expect(() =>
      checkAgainstOpenApi('POST', '/transactions', 200, [{ ...result, details: {} }]),
    ).toThrow(/does not match the OpenAPI document/);
    expect(() =>
      checkAgainstOpenApi('POST', '/customers/', 200, { Added: 0, Updated: 0, Errors: {}, x: 1 }),
    ).toThrow(/does not match/);
  });

  test('rejects a wrong type, a missing field and a wrong array length', () => {
    const payment = { cashback: '1.50', payment_date: '2025-06-15', transaction_id: 't1' };
    expect(() =>
      checkAgainstOpenApi('POST', '/transactions', 200, [{ ...result, payments: [payment] }]),
    ).toThrow(/does not match/);
    expect(() =>
      checkAgainstOpenApi('POST', '/transactions-history', 200, [{ event_id: 'e1' }]),
    ).toThrow(/does not match/);
    expect(() => checkAgainstOpenApi('POST', '/transactions', 200, [result, result])).toThrow(
      /does not match/,
    );
    expect(() => checkAgainstOpenApi('GET', '/get-token', 200, { Token: 1 })).toThrow(
      /does not match/,
    );
  });

  test('rejects a returns answer with a string cashback or a missing adjustment field', () => {
    const adjustment = {
      return_id: 'r1',
      transaction_id: 't1',
      customer_id: 'c1',
      offer_id: 1,
      previous_cashback: 5,
      cashback: 3,
      payment_date: '2025-06-16',
    };
    const answer = (a: unknown) => [
      { event_id: 'e1', adjustments: [a], clawbacks: [], errors: {} },
    ];
    expect(() => checkAgainstOpenApi('POST', '/returns', 200, answer(adjustment))).not.toThrow();
    const { offer_id: _, ...noOffer } = adjustment;
    for (const broken of [{ ...adjustment, cashback: '3' }, noOffer, { ...adjustment, x: 1 }]) {
      expect(() => checkAgainstOpenApi('POST', '/returns', 200, answer(broken))).toThrow(
        /does not match/,
      );
    }
  });

  test('rejects an offer with a string amount or without age, gender or active', () => {
    const listed = { ...offer(), active: true };
    expect(() => checkAgainstOpenApi('GET', '/active-offers', 200, [listed])).not.toThrow();
    for (const broken of [
      { ...listed, discount: '5' },
      { ...listed, max_cashback: '2.50' },
      { ...listed, age: undefined },
      { ...listed, gender: undefined },
      { ...listed, active: undefined },
    ]) {
      expect(() =>
        checkAgainstOpenApi('GET', '/active-offers', 200, [JSON.parse(JSON.stringify(broken))]),
      ).toThrow(/does not match/);
    }
  });

  test('accepts offers of every reward shape, scope and channels; rejects a reward amount as text', () => {
    const { merchant_name: _, discount: _d, ...bare } = offer({ active: true });
    const scoped = {
      ...bare,
      scope: { mcc: ['5411'], exclude_merchants: ['X'] },
      channels: ['online'],
    };
    const rewards = [
      { type: 'percent', rate: 5, max_eligible_amount: 200 },
      { type: 'fixed', amount: 10 },
      {
        type: 'tiers',
        mode: 'marginal',
        tiers: [
          { from: 0, rate: 0 },
          { from: 20, rate: 5 },
        ],
      },
    ];
    for (const reward of rewards) {
      expect(() =>
        checkAgainstOpenApi('GET', '/active-offers', 200, [{ ...scoped, reward }]),
      ).not.toThrow();
    }
    for (const reward of [
      { type: 'fixed', amount: '10' },
      { type: 'percent', rate: 5, extra: 1 },
      { type: 'tiers', mode: 'stepped', tiers: [{ from: 0, rate: 1 }] },
    ]) {
      expect(() =>
        checkAgainstOpenApi('GET', '/active-offers', 200, [{ ...scoped, reward }]),
      ).toThrow(/does not match/);
    }
  });

  test('rejects an error body off the one shape, or an unknown error code', () => {
    expect(() =>
      checkAgainstOpenApi('POST', '/transactions', 400, { error: 'invalid_json' }),
    ).toThrow(/does not match/);
    expect(() =>
      checkAgainstOpenApi('POST', '/transactions', 400, {
        error: { code: 'teapot', message: 'x', details: [] },
      }),
    ).toThrow(/does not match/);
  });

  test('rejects a status the route does not document', () => {
    expect(() =>
      checkAgainstOpenApi('GET', '/healthz', 400, {
        error: { code: 'invalid_query', message: 'x', details: [] },
      }),
    ).toThrow(/has no 400 response/);
  });
});
