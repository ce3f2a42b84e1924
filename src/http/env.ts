import type { Hono } from 'hono';

/** Hono variables set by the app's middleware. @public */
export interface HttpAppVariables {
  /** The partner (application id) of a request with a valid token. */
  partner: string;
  /** The request's id, also sent back in `X-Request-Id`. */
  requestId: string;
}

/** The Hono environment of the app and of each of its route groups. */
export interface AppEnv {
  Variables: HttpAppVariables;
}

/** The Hono app `createHttpApp` returns. @public */
export type HttpApp = Hono<{ Variables: HttpAppVariables }>;
