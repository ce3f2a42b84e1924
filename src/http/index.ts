// cashback-engine/http: the partner HTTP API as a Hono app (docs/http.md).

// The service's lifecycle (start, reload, graceful stop) lives in its own layer, above the app
// and the webhook dispatcher it starts (docs/http.md, "The service's lifecycle").
export type { ConfirmDueOptions } from '../service/confirmTimer.js';
export type { ServicePartner } from '../service/partners.js';
export {
  type Service,
  type ServiceChanges,
  type ServiceOptions,
  type ServiceReloaded,
  startService,
} from '../service/startService.js';
export { createHttpApp } from './app.js';
export { hashApplicationKey } from './credentials.js';
export type { HttpApp, HttpAppVariables } from './env.js';
export type { HttpErrorBody, HttpErrorCode, HttpErrorDetail } from './errors.js';
export { openApiDocument } from './openapi.js';
export type { HttpAppOptions, HttpLimits, HttpLogger } from './options.js';
export { type RunningServer, type ServeOptions, serveHttp } from './serve.js';
