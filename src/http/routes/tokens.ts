import type { webcrypto } from 'node:crypto';
import { Hono } from 'hono';
import { SignJWT } from 'jose';
import type { AppEnv } from '../env.js';
import { errorResponse } from '../errors.js';
import type { KeyChecks } from '../keyChecks.js';
import { KEY_CLAIM, keyFingerprint } from '../keyFingerprint.js';
import type { ResolvedOptions } from '../options.js';

const BAD_CREDENTIALS = 'Unknown application id or wrong application key';

/**
 * `GET /get-token`: a token for an application id and its key (docs/http.md), its key checked
 * by {@link KeyChecks}. The token names the key it was issued under (`kfp`, see
 * `keyFingerprint`), so that a changed key revokes it.
 * @param options - the app's options
 * @param key - the HMAC key tokens are signed with
 * @param checks - the app's key checks
 * @returns the route group
 */
export function tokenRoutes(
  options: ResolvedOptions,
  key: Promise<webcrypto.CryptoKey>,
  checks: KeyChecks,
): Hono<AppEnv> {
  const { clock, clientAddress, tokenTtl } = options;
  return new Hono<AppEnv>().get('/get-token', async (c) => {
    const applicationId = c.req.header('applicationId');
    const outcome = await checks.check(
      applicationId,
      c.req.header('applicationKey'),
      clientAddress(c) ?? 'unknown',
    );
    switch (outcome.kind) {
      case 'invalid':
        return errorResponse(c, 'invalid_credentials', BAD_CREDENTIALS);
      case 'rate_limited': {
        const seconds = String(outcome.seconds);
        return errorResponse(
          c,
          'rate_limited',
          `Too many token requests; retry in ${seconds} s`,
          [],
          { 'Retry-After': seconds },
        );
      }
      case 'busy': {
        const seconds = String(outcome.seconds);
        return errorResponse(
          c,
          'busy',
          `Too many key checks in progress; retry in ${seconds} s`,
          [],
          { 'Retry-After': seconds },
        );
      }
    }
    const now = Math.floor(clock().getTime() / 1000);
    const token = await new SignJWT({ [KEY_CLAIM]: keyFingerprint(outcome.hash) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(applicationId as string)
      .setIssuedAt(now)
      .setExpirationTime(now + tokenTtl)
      .sign(await key);
    return c.json({ Token: token });
  });
}
