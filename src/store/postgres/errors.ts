import { StoreUnavailableError } from '../errors.js';

/** The SQLSTATE of a database error, or the Node error code of a socket error. */
function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** Deadlock (40P01) or serialization failure (40001): the unit may simply run again. */
export function isRetryable(error: unknown): boolean {
  const code = codeOf(error);
  return code === '40P01' || code === '40001';
}

/** Socket errors of a connection that could not be made or was lost. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** What node-postgres says when a connection ends under a query or cannot be had in time. */
const LOST =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable/;

/**
 * Whether an error means the database cannot be reached: a socket error, a connection exception
 * (class 08), the server shutting down or starting (57P01–57P03), too many connections (53300),
 * or node-postgres reporting a lost connection.
 */
function isUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  const code = codeOf(error);
  if (code !== undefined) {
    if (NETWORK_CODES.has(code) || code.startsWith('08')) return true;
    if (code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true;
  }
  return error instanceof Error && LOST.test(error.message);
}

/** What a unique violation means, by constraint. */
const UNIQUE: Readonly<Record<string, string>> = {
  cashback_payments_pkey:
    'A transaction id already has a payment (stored, or twice in the call): no payment of the call was stored',
  cashback_outbox_event_id:
    'An outbox event id already exists (stored, or twice in the call): no event of the call was added',
};

/**
 * The error a store call rejects with: a `StoreUnavailableError` naming the cause when the
 * database cannot be reached, the error itself otherwise.
 * @param error - what the driver threw
 * @param atCommit - whether it failed the `COMMIT` of a unit of work whose statements had all
 *   succeeded: a connection lost then may have lost only the answer, so whether the unit was
 *   kept is unknown, and the message says so instead of "nothing was kept"
 * @returns the error to throw
 */
export function storeError(error: unknown, atCommit = false): unknown {
  if (error instanceof StoreUnavailableError) return error;
  if (codeOf(error) === '23505') {
    const constraint = (error as { constraint?: unknown }).constraint;
    const what = UNIQUE[typeof constraint === 'string' ? constraint : ''];
    if (what !== undefined) return new Error(what, { cause: error });
  }
  if (!isUnavailable(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  if (atCommit) {
    return new StoreUnavailableError(
      `PostgreSQL cannot be reached (${reason}): the connection was lost during COMMIT, so whether the unit of work was kept is unknown; make the call again once the database is back, which is safe: transaction ids and payments are stored exactly once`,
      { cause: error, outcomeUnknown: true },
    );
  }
  return new StoreUnavailableError(
    `PostgreSQL cannot be reached (${reason}): the call was not applied and nothing of its unit of work was kept; make it again once the database is back`,
    { cause: error },
  );
}
