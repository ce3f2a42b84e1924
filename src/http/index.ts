// cashback-engine/http: the partner HTTP API as a Hono app (docs/http.md).
export { createHttpApp } from './app.js';
export { hashApplicationKey } from './credentials.js';
export type { HttpApp, HttpAppVariables } from './env.js';
export type { HttpErrorBody, HttpErrorCode, HttpErrorDetail } from './errors.js';
export { openApiDocument } from './openapi.js';
export type { HttpAppOptions, HttpLimits, HttpLogger } from './options.js';
export { type RunningServer, type ServeOptions, serveHttp } from './serve.js';
