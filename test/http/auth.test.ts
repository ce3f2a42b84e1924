/**
 * Authentication of the partner API (docs/http.md, "Security"): tokens are HS256 JWTs from jose with
 * `sub` = application id and a required `exp`; every way a token or credential can be wrong is a
 * 401 with one body that does not say which part was wrong. Wrong keys are limited per
 * (application id, client address) and per address, never refusing the right key from elsewhere.
 * Request logs never carry tokens, keys or bodies.
 */
import { Writable } from 'node:stream';
import { base64url, SignJWT, UnsecuredJWT } from 'jose';
import pino from 'pino';
import { afterEach, describe, expect, test } from 'vitest';
import { hashApplicationKey } from '../../src/http/index.js';
import { keyFingerprint } from '../../src/http/keyFingerprint.js';
import { customer, tx } from '../fixtures.js';
import {
  type Harness,
  type HarnessOptions,
  keyOf,
  startHarness,
  TOKEN_SECRET,
} from './_harness.js';

const A = 'bank-a';
const secret = new TextEncoder().encode(TOKEN_SECRET);
const now = () => Math.floor(Date.now() / 1000);

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(options: HarnessOptions = {}): Promise<Harness> {
  h = await startHarness(options);
  return h;
}

const UNAUTHORIZED = {
  error: {
    code: 'unauthorized',
    message: 'A valid token is required in the Token header',
    details: [],
  },
};
const BAD_CREDENTIALS = {
  error: {
    code: 'invalid_credentials',
    message: 'Unknown application id or wrong application key',
    details: [],
  },
};

/** The `kfp` claim of the tokens of a partner of the running harness: its key's fingerprint. */
const kfpOf = (id: string) => keyFingerprint(h?.partners.byId.get(id)?.application_key_hash ?? '');

/**
 * A token signed with the server's secret, claims and header as given; the `kfp` claim of its
 * subject is added unless the claims name one (or `kfp: undefined` leaves it out).
 */
function signed(claims: Record<string, unknown>, alg = 'HS256', key: Uint8Array = secret) {
  const withKey = 'kfp' in claims ? claims : { kfp: kfpOf(String(claims.sub)), ...claims };
  return new SignJWT(withKey).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);
}

describe('tokens on the data routes', () => {
  test('every bad token is a 401 with one body, on every authenticated route', async () => {
    const s = await start();
    const good = await s.token(A);
    const [head, payload, signature] = good.split('.') as [string, string, string];
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload)));
    const flip = (sig: string) => (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    const otherPayload = base64url.encode(JSON.stringify({ ...claims, sub: 'bank-b' }));
    const bad: Record<string, string | undefined> = {
      'no token': undefined,
      empty: '',
      garbage: 'garbage',
      'three garbage parts': 'a.b.c',
      'tampered signature': `${head}.${payload}.${flip(signature)}`,
      'tampered subject': `${head}.${otherPayload}.${signature}`,
      'alg none': new UnsecuredJWT({ sub: A }).setExpirationTime(now() + 600).encode(),
      'alg none, signature kept': `${base64url.encode('{"alg":"none","typ":"JWT"}')}.${payload}.${signature}`,
      'HS512 with the same secret': await signed({ sub: A, exp: now() + 600 }, 'HS512'),
      'another secret': await signed({ sub: A, exp: now() + 600 }, 'HS256', new Uint8Array(32)),
      expired: await signed({ sub: A, exp: now() - 60 }),
      'no exp': await signed({ sub: A }),
      'no sub': await signed({ exp: now() + 600 }),
      'unknown partner': await signed({ sub: 'bank-z', exp: now() + 600 }),
      'no key fingerprint': await signed({ sub: A, exp: now() + 600, kfp: undefined }),
      "another partner's key fingerprint": await signed({
        sub: A,
        exp: now() + 600,
        kfp: kfpOf('bank-b'),
      }),
      'over 4 KiB': `${good}${'A'.repeat(5000)}`,
    };
    const routes: [string, string][] = [
      ['POST', '/transactions-history'],
      ['POST', '/customers/'],
      ['POST', '/customers'],
      ['POST', '/transactions'],
      ['POST', '/returns'],
      ['GET', '/cashback-payments?date_from=2025-01-01&date_to=2025-12-31'],
      ['GET', '/clawbacks?date_from=2025-01-01&date_to=2025-12-31'],
      ['GET', '/payments/t1/history'],
      ['GET', '/active-offers'],
    ];
    for (const [method, path] of routes) {
      for (const [name, token] of Object.entries(bad)) {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (token !== undefined) headers.Token = token;
        const body = method === 'POST' ? JSON.stringify([customer()]) : undefined;
        const r = await s.call(method, path, { headers, body });
        expect([r.status, r.body], `${name} on ${method} ${path}`).toEqual([401, UNAUTHORIZED]);
      }
    }
    expect(await s.store.customers.get(A, ['c1'])).toEqual([]);
    const ok = await s.call('GET', '/active-offers', { headers: { Token: good } });
    expect(ok.status).toBe(200);
  });

  test('a token within the 5 s clock tolerance passes; past it, 401', async () => {
    const s = await start();
    const fresh = await signed({ sub: A, exp: now() - 2 });
    expect((await s.call('GET', '/active-offers', { headers: { Token: fresh } })).status).toBe(200);
    const stale = await signed({ sub: A, exp: now() - 30 });
    expect((await s.call('GET', '/active-offers', { headers: { Token: stale } })).status).toBe(401);
  });

  test('tokenTtl sets exp; the app clock decides expiry', async () => {
    let t = new Date('2026-01-01T00:00:00Z');
    const s = await start({ tokenTtl: 60, clock: () => t });
    const token = await s.token(A);
    const claims = JSON.parse(
      new TextDecoder().decode(base64url.decode(token.split('.')[1] as string)),
    );
    expect(claims).toEqual({ sub: A, iat: 1767225600, exp: 1767225660, kfp: kfpOf(A) });
    expect((await s.call('GET', '/active-offers', { headers: { Token: token } })).status).toBe(200);
    t = new Date('2026-01-01T00:01:10Z');
    expect((await s.call('GET', '/active-offers', { headers: { Token: token } })).status).toBe(401);
  });

  test('a token checked before expires at the same second as one checked for the first time', async () => {
    const exp = 1767225660; // 2026-01-01T00:01:00Z
    let t = new Date('2026-01-01T00:00:00Z');
    const s = await start({ clock: () => t });
    const token = (n: number) => signed({ sub: A, exp, n });
    const status = async (tok: string) =>
      (await s.call('GET', '/active-offers', { headers: { Token: tok } })).status;
    const [remembered, first, late] = await Promise.all([token(1), token(2), token(3)]);
    expect(await status(remembered)).toBe(200);
    t = new Date((exp + 4) * 1000 + 999); // within the 5 s tolerance
    expect([await status(remembered), await status(first)]).toEqual([200, 200]);
    t = new Date((exp + 5) * 1000);
    expect([await status(remembered), await status(first), await status(late)]).toEqual([
      401, 401, 401,
    ]);
  });

  test('a partner removed from the registry loses access at once, with its valid token', async () => {
    const s = await start();
    const token = await s.token(A);
    expect((await s.call('GET', '/active-offers', { headers: { Token: token } })).status).toBe(200);
    s.partners.byId.delete(A);
    const r = await s.call('GET', '/active-offers', { headers: { Token: token } });
    expect([r.status, r.body]).toEqual([401, UNAUTHORIZED]);
    const again = await s.call('GET', '/get-token', {
      headers: { applicationId: A, applicationKey: keyOf(A) },
    });
    expect([again.status, again.body]).toEqual([401, BAD_CREDENTIALS]);
  });
});

describe('GET /get-token credentials', () => {
  test('wrong key, unknown id, missing headers, a partner without a key hash: one 401 body', async () => {
    const s = await start();
    await s.partners.add('no-hash', { application_key_hash: undefined });
    await s.partners.add('bad-hash', { application_key_hash: 'scrypt$1$1$1$x$y' });
    const cases: Record<string, Record<string, string>> = {
      'wrong key': { applicationId: A, applicationKey: keyOf('bank-b') },
      'unknown id': { applicationId: 'bank-z', applicationKey: keyOf('bank-z') },
      'key of the id, other case': { applicationId: A, applicationKey: keyOf(A).toUpperCase() },
      'no key': { applicationId: A },
      'no id': { applicationKey: keyOf(A) },
      'empty key': { applicationId: A, applicationKey: '' },
      'no hash': { applicationId: 'no-hash', applicationKey: keyOf('no-hash') },
      'unreadable hash': { applicationId: 'bad-hash', applicationKey: keyOf('bad-hash') },
    };
    for (const [name, headers] of Object.entries(cases)) {
      const r = await s.call('GET', '/get-token', { headers });
      expect([r.status, r.body], name).toEqual([401, BAD_CREDENTIALS]);
    }
  });

  test('keys are stored as salted scrypt hashes', async () => {
    const a = await hashApplicationKey('same key');
    const b = await hashApplicationKey('same key');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('same key');
    await expect(hashApplicationKey('')).rejects.toThrow(TypeError);
  });
});

describe('token rate limits', () => {
  /** A server whose client address is the `x-client` header of each request (a test stand-in for a proxy's). */
  async function byHeader(limits: HarnessOptions['limits']): Promise<Harness> {
    return start({ limits, clientAddress: (c) => c.req.header('x-client') });
  }
  const ask = (s: Harness, from: string, key: string, id = A) =>
    s.call('GET', '/get-token', {
      headers: { applicationId: id, applicationKey: key, 'x-client': from },
    });

  test('wrong keys from rotating addresses never refuse the right key from its own address', async () => {
    const s = await byHeader({
      tokenFailuresPerApplicationAndAddress: 3,
      tokenFailuresPerAddress: 5,
      tokenRequestsPerAddress: 100,
    });
    for (let i = 0; i < 30; i++) {
      expect((await ask(s, `10.9.0.${i}`, 'guess')).status).toBe(401);
    }
    expect((await ask(s, '10.0.0.1', keyOf(A))).status).toBe(200);
  });

  test('per application id and address: past its wrong keys in a row, 429 with Retry-After for that pair only; the right key resets the count', async () => {
    const s = await byHeader({
      tokenFailuresPerApplicationAndAddress: 3,
      tokenFailuresPerAddress: 100,
      tokenRequestsPerAddress: 100,
    });
    const here = '10.0.0.1';
    for (let i = 0; i < 2; i++) expect((await ask(s, here, 'guess')).status).toBe(401);
    // The right key resets the count: three more wrong keys are counted from zero.
    expect((await ask(s, here, keyOf(A))).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await ask(s, here, 'guess')).status).toBe(401);
    const r = await ask(s, here, 'guess');
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe('rate_limited');
    const retry = Number(r.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(3600);
    // The same pair is refused, its right key too (checked and remembered above: a remembered
    // key answered 200 there would tell a right guess from wrong ones without limit); another id
    // from here, and the same id from elsewhere, are not.
    expect((await ask(s, here, 'guess')).status).toBe(429);
    expect((await ask(s, here, keyOf(A))).status).toBe(429);
    expect((await ask(s, here, keyOf('bank-b'), 'bank-b')).status).toBe(200);
    expect((await ask(s, '10.0.0.2', keyOf(A))).status).toBe(200);
  });

  test('per application id and address: concurrent guesses cannot slip past the limit', async () => {
    const s = await byHeader({
      tokenFailuresPerApplicationAndAddress: 3,
      tokenFailuresPerAddress: 100,
      tokenRequestsPerAddress: 100,
      keyChecksInFlight: 16,
    });
    const replies = await Promise.all(Array.from({ length: 8 }, () => ask(s, '10.0.0.1', 'guess')));
    expect(replies.map((r) => r.status).sort()).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
  });

  test('per address: wrong keys for many application ids count toward one limit', async () => {
    const s = await byHeader({
      tokenFailuresPerApplicationAndAddress: 100,
      tokenFailuresPerAddress: 4,
      tokenRequestsPerAddress: 100,
    });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await ask(s, '10.0.0.1', 'k', `guess-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    expect((await ask(s, '10.0.0.2', keyOf(A))).status).toBe(200);
  });

  test('per client address: rotating application ids does not get around the request limit', async () => {
    const s = await start({
      limits: {
        tokenFailuresPerApplicationAndAddress: 100,
        tokenFailuresPerAddress: 100,
        tokenRequestsPerAddress: 4,
        tokenWindowSeconds: 60,
      },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await s.call('GET', '/get-token', {
        headers: { applicationId: `guess-${i}`, applicationKey: 'k' },
      });
      statuses.push(r.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  });

  test('clientAddress picks the address to limit by', async () => {
    let address = '10.0.0.1';
    const s = await start({
      limits: { tokenFailuresPerApplicationAndAddress: 100, tokenRequestsPerAddress: 1 },
      clientAddress: () => address,
    });
    const get = (key: string) =>
      s.call('GET', '/get-token', { headers: { applicationId: A, applicationKey: key } });
    expect((await get('guess')).status).toBe(401);
    expect((await get('guess')).status).toBe(429);
    expect((await get(keyOf(A))).status).toBe(429);
    address = '10.0.0.2';
    expect((await get('guess')).status).toBe(401);
  });

  test('under the default limits, 30 refused requests a minute per address, then 429 for all its token requests; the right keys among them are not counted', async () => {
    const s = await byHeader({});
    const here = '10.0.0.1';
    const wrong: number[] = [];
    const right: number[] = [];
    for (let i = 0; i < 40; i++) {
      // Wrong keys for the partner and unknown application ids, each followed by the right key
      // (which also resets the partner's count of wrong keys in a row).
      const [id, key] = i % 2 === 0 ? [A, `guess-${i}`] : [`guess-${i}`, 'guess'];
      wrong.push((await ask(s, here, key, id)).status);
      right.push((await ask(s, here, keyOf(A))).status);
    }
    expect(wrong).toEqual([...Array(30).fill(401), ...Array(10).fill(429)]);
    expect(right).toEqual([...Array(29).fill(200), ...Array(11).fill(429)]);
    expect((await ask(s, '10.0.0.2', keyOf(A))).status).toBe(200);
  }, 60_000);
});

describe('key checks in flight', () => {
  test('past keyChecksInFlight a token request is answered 503 busy with Retry-After, and a key checked before still gets its token', async () => {
    const s = await start({
      limits: {
        keyChecksInFlight: 1,
        tokenFailuresPerApplicationAndAddress: 1000,
        tokenFailuresPerAddress: 1000,
        tokenRequestsPerAddress: 1000,
      },
    });
    const right = { applicationId: A, applicationKey: keyOf(A) };
    expect((await s.call('GET', '/get-token', { headers: right })).status).toBe(200);
    const wrong = Array.from({ length: 6 }, (_, i) =>
      s.call('GET', '/get-token', { headers: { applicationId: A, applicationKey: `guess-${i}` } }),
    );
    const again = s.call('GET', '/get-token', { headers: right });
    const replies = await Promise.all(wrong);
    expect((await again).status).toBe(200);
    const busy = replies.filter((r) => r.status === 503);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    expect(replies.filter((r) => r.status !== 503).every((r) => r.status === 401)).toBe(true);
    expect(busy[0]?.body.error.code).toBe('busy');
    expect(busy[0]?.headers.get('retry-after')).toBe('1');
  });

  test("a remembered key is checked again once the partner's key hash changes", async () => {
    const s = await start();
    const right = { applicationId: A, applicationKey: keyOf(A) };
    expect((await s.call('GET', '/get-token', { headers: right })).status).toBe(200);
    const partner = s.partners.byId.get(A);
    s.partners.byId.set(A, {
      ...(partner as NonNullable<typeof partner>),
      application_key_hash: await hashApplicationKey('a-new-key-0123456789'),
    });
    const r = await s.call('GET', '/get-token', { headers: right });
    expect([r.status, r.body]).toEqual([401, BAD_CREDENTIALS]);
    const renewed = await s.call('GET', '/get-token', {
      headers: { applicationId: A, applicationKey: 'a-new-key-0123456789' },
    });
    expect(renewed.status).toBe(200);
  });
});

describe('request logs', () => {
  test('one JSON line per request with id, method, path, status and partner; never a token, key, query or body', async () => {
    const chunks: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    const s = await start({ logger: pino({ level: 'info' }, sink) });
    const key = keyOf(A);
    const r = await s.call('GET', '/get-token', {
      headers: { applicationId: A, applicationKey: key },
    });
    const token = r.body.Token as string;
    await s.call('POST', '/customers/', {
      headers: { Token: token, 'content-type': 'application/json' },
      body: JSON.stringify([customer({ customer_id: 'secret-customer-id' })]),
    });
    await s.call('POST', '/transactions', {
      headers: { Token: token, 'content-type': 'application/json' },
      body: JSON.stringify([tx({ description: 'secret-description' })]),
    });
    await s.call('GET', '/cashback-payments?date_from=2025-01-01&date_to=2025-12-31', {
      headers: { Token: token },
    });
    await s.call('GET', '/active-offers', { headers: { Token: 'garbage-token-value' } });
    await s.call('GET', '/get-token', {
      headers: { applicationId: A, applicationKey: 'wrong-key-value' },
    });
    const text = chunks.join('');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.method, l.path, l.status, l.partner])).toEqual([
      ['GET', '/get-token', 200, undefined],
      ['POST', '/customers/', 200, A],
      ['POST', '/transactions', 200, A],
      ['GET', '/cashback-payments', 200, A],
      ['GET', '/active-offers', 401, undefined],
      ['GET', '/get-token', 401, undefined],
    ]);
    // A failed token request names the application id it asked for; a granted one need not.
    expect(lines.map((l) => l.application_id)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      A,
    ]);
    for (const l of lines) {
      expect(l.req_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(typeof l.ms).toBe('number');
    }
    for (const secretText of [
      token,
      key,
      'garbage-token-value',
      'secret-customer-id',
      'secret-description',
      '2025-12-31',
      'wrong-key-value',
    ]) {
      expect(text).not.toContain(secretText);
    }
  });
});

describe('options', () => {
  test('a short token secret and bad limits are refused at creation', async () => {
    await expect(start({ tokenSecret: 'short' })).rejects.toThrow(/at least 32 bytes/);
    await expect(start({ limits: { batchItems: 0 } })).rejects.toThrow(/limits.batchItems/);
    await expect(start({ tokenTtl: 1.5 })).rejects.toThrow(/tokenTtl/);
  });
});
