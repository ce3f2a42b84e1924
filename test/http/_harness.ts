/**
 * A real partner API on 127.0.0.1 for the HTTP tests: a memory-store engine, a partner registry
 * that can lose partners, and a `call` that uses real fetch and checks every response it gets
 * against the OpenAPI document the server itself serves.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  type CashbackEngine,
  createEngine,
  createMemoryStore,
  type PartnerRegistry,
  type PartnerSettings,
} from '../../src/engine/entry.js';
import {
  createHttpApp,
  type HttpAppOptions,
  hashApplicationKey,
  openApiDocument,
  serveHttp,
} from '../../src/http/index.js';
import type { Store } from '../../src/store/entry.js';

/** Every test partner's application key is its id with this suffix. */
export const keyOf = (id: string): string => `${id}-key-0123456789abcdef`;

/** A registry held in a Map, so a test can remove a partner while its token is still valid. */
class MapPartners implements PartnerRegistry {
  readonly byId = new Map<string, PartnerSettings>();
  async list() {
    return [...this.byId.values()];
  }
  async get(id: string) {
    return this.byId.get(id);
  }
  async add(id: string, extra: Partial<PartnerSettings> = {}) {
    this.byId.set(id, {
      application_id: id,
      application_key_hash: await hashApplicationKey(keyOf(id)),
      ...extra,
    });
  }
}

/** A response as the tests see it. */
export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON (every response of the app is JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: tests index into arbitrary JSON answers
  readonly body: any;
}

const document = openApiDocument() as {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(document, 'openapi');

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/**
 * The document's path of a request path: itself, or the templated path whose fixed segments it
 * has (`/payments/t1/history` is `/payments/{transaction_id}/history`). A parameter matches one
 * non-empty segment, as the app's router does.
 */
function documentPath(path: string): string {
  if (document.paths[path] !== undefined) return path;
  const segments = path.split('/');
  const templated = Object.keys(document.paths).find((p) => {
    const parts = p.split('/');
    return (
      parts.length === segments.length &&
      parts.every((part, i) =>
        /^\{[^}]+\}$/.test(part) ? (segments[i] ?? '') !== '' : part === segments[i],
      )
    );
  });
  return templated ?? path;
}

/**
 * Checks one response against the served OpenAPI document: the operation's schema for that
 * status, or the error schema for routes and methods the document does not have (404, 405).
 * Throws with ajv's errors when it does not validate.
 */
export function checkAgainstOpenApi(method: string, path: string, status: number, body: unknown) {
  const route = documentPath(path.split('?', 1)[0] as string);
  const op = document.paths[route]?.[method.toLowerCase()];
  let ref: string;
  if (op !== undefined && op.responses[String(status)] !== undefined) {
    ref = `openapi#/${pointer('paths', route, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`;
  } else if (status >= 400 && (op === undefined || status === 405 || status === 404)) {
    ref = 'openapi#/components/schemas/Error';
  } else {
    throw new Error(`The OpenAPI document has no ${status} response for ${method} ${route}`);
  }
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  if (!validate(body)) {
    throw new Error(
      `${method} ${route} ${status}: the body does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
    );
  }
}

/** A started partner API. */
export interface Harness {
  readonly url: string;
  readonly engine: CashbackEngine;
  readonly store: Store;
  readonly partners: MapPartners;
  /** A request with real fetch; the response is checked against the OpenAPI document. */
  call(
    method: string,
    path: string,
    init?: { headers?: Record<string, string>; body?: string | Uint8Array },
  ): Promise<Reply>;
  /** POSTs JSON with the partner's token. */
  post(partner: string, path: string, body: unknown): Promise<Reply>;
  /** GETs with the partner's token. */
  get(partner: string, path: string, headers?: Record<string, string>): Promise<Reply>;
  /** A fresh token for a registered partner. */
  token(partner: string): Promise<string>;
  close(): Promise<void>;
}

/** Options of {@link startHarness}: the app's options, apart from engine and partners. */
export type HarnessOptions = Partial<Omit<HttpAppOptions, 'engine' | 'partners'>> & {
  /** Partners registered at start. */
  readonly partnerIds?: readonly string[];
  /** The engine's clock. */
  readonly engineClock?: () => Date;
  /** What the engine does with late returns. */
  readonly lateReturns?: 'clawback' | 'ignore';
  /** The store; a new memory store by default. */
  readonly store?: Store;
};

export const TOKEN_SECRET = 'test-secret-0123456789-0123456789-abcdef';

/** Starts the app on 127.0.0.1 with a free port. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const store = options.store ?? createMemoryStore();
  const partners = new MapPartners();
  for (const id of options.partnerIds ?? ['bank-a', 'bank-b']) await partners.add(id);
  const engine = createEngine({
    store,
    partners,
    timeZone: 'UTC',
    ...(options.engineClock ? { clock: options.engineClock } : {}),
    ...(options.lateReturns ? { lateReturns: options.lateReturns } : {}),
  });
  const { partnerIds: _p, engineClock: _c, store: _s, lateReturns: _l, ...appOptions } = options;
  const app = createHttpApp({
    tokenSecret: TOKEN_SECRET,
    // Tests ask for many tokens: the rate limits get their own tests.
    limits: {
      tokenRequestsPerAddress: 1_000_000,
      tokenFailuresPerApplicationAndAddress: 1_000_000,
      tokenFailuresPerAddress: 1_000_000,
      keyChecksInFlight: 64,
    },
    ...appOptions,
    engine,
    partners,
  });
  const server = await serveHttp(app, { port: 0, host: '127.0.0.1' });
  const tokens = new Map<string, string>();

  const call: Harness['call'] = async (method, path, init = {}) => {
    const res = await fetch(server.url + path, {
      method,
      headers: init.headers,
      body: init.body,
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(
        `${method} ${path} ${res.status}: the body is not JSON: ${text.slice(0, 200)}`,
      );
    }
    checkAgainstOpenApi(method, path, res.status, body);
    return { status: res.status, headers: res.headers, text, body };
  };

  const token = async (partner: string) => {
    const r = await call('GET', '/get-token', {
      headers: { applicationId: partner, applicationKey: keyOf(partner) },
    });
    if (r.status !== 200) throw new Error(`No token for ${partner}: ${r.text}`);
    return r.body.Token as string;
  };
  const cached = async (partner: string) => {
    let t = tokens.get(partner);
    if (t === undefined) {
      t = await token(partner);
      tokens.set(partner, t);
    }
    return t;
  };

  return {
    url: server.url,
    engine,
    store,
    partners,
    call,
    token,
    post: async (partner, path, body) =>
      call('POST', path, {
        headers: { Token: await cached(partner), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    get: async (partner, path, headers = {}) =>
      call('GET', path, { headers: { Token: await cached(partner), ...headers } }),
    close: () => server.close(),
  };
}
