import type { MiddlewareHandler } from 'hono';
import type { PartnerRegistry } from '../../engine/partners.js';
import type { AppEnv } from '../env.js';
import { errorResponse } from '../errors.js';
import { keyFingerprint } from '../keyFingerprint.js';
import type { TokenVerifier } from '../tokenVerifier.js';

const UNAUTHORIZED = 'A valid token is required in the Token header';

/** Longest `Token` header looked at; a longer one is refused unread. */
const MAX_TOKEN_LENGTH = 4096;

/**
 * 401 unless the `Token` header holds a valid token of a partner the registry still has, issued
 * under the key the registry holds for it now (docs/http.md, "Security"); sets the `partner`
 * variable.
 * @param tokens - checks tokens
 * @param partners - the registry, asked on every request
 * @returns the middleware
 */
export function authenticate(
  tokens: TokenVerifier,
  partners: PartnerRegistry,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = c.req.header('Token');
    if (token === undefined || token.length === 0 || token.length > MAX_TOKEN_LENGTH) {
      return errorResponse(c, 'unauthorized', UNAUTHORIZED);
    }
    const subject = await tokens.subject(token);
    const hash =
      subject === undefined ? undefined : (await partners.get(subject.sub))?.application_key_hash;
    if (subject === undefined || hash === undefined || keyFingerprint(hash) !== subject.kfp) {
      return errorResponse(c, 'unauthorized', UNAUTHORIZED);
    }
    c.set('partner', subject.sub);
    await next();
  };
}
