// cashback-engine/http: the seed's partner HTTP API as a Hono app (DESIGN.md §6).
export {
  createHttpApp,
  type HttpApp,
  type HttpAppOptions,
  type HttpAppVariables,
  type HttpLimits,
  type HttpLogger,
} from './app.js';
export { hashApplicationKey } from './credentials.js';
export type { HttpErrorBody, HttpErrorCode, HttpErrorDetail } from './errors.js';
export { openApiDocument } from './openapi.js';
export { type RunningServer, type ServeOptions, serveHttp } from './serve.js';
