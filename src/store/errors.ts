import { assertKnownKeys } from '../model/knownKeys.js';

/**
 * Thrown by a store when a write would take it past its size bound: the whole call is refused and
 * nothing of it is stored; reads still work. The partner HTTP API answers it 503 `storage_full`.
 * See docs/stores.md.
 * @public
 */
export class StorageFullError extends Error {
  /** Stable code, also the HTTP error code. */
  readonly code = 'storage_full';

  /**
   * @param message - what bound was reached
   * @param options - the underlying cause, if any
   */
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = 'StorageFullError';
  }
}

/**
 * Thrown by a store when it cannot be reached (a lost connection, a database that is down): the
 * call was not applied, nothing of its unit of work is kept, and the same call may be made again
 * later; except when `outcomeUnknown` is set: the connection was lost while the unit was being
 * committed, so it may have been kept, and only making the call again (safe: transaction ids and
 * payments are stored once) tells. The partner HTTP API answers it 503 `store_unavailable` with
 * `Retry-After`. See docs/stores.md.
 * @public
 */
export class StoreUnavailableError extends Error {
  /** Stable code, also the HTTP error code. */
  readonly code = 'store_unavailable';
  /** Whether the unit of work may have been kept (the connection was lost during its commit). */
  readonly outcomeUnknown: boolean;

  /**
   * @param message - what failed, without credentials
   * @param options - the underlying cause, if any, and whether the outcome is unknown
   *   (default `false`: nothing was kept)
   * @throws TypeError for an unknown option or an `outcomeUnknown` that is not a boolean
   */
  constructor(
    message: string,
    options?: { readonly cause?: unknown; readonly outcomeUnknown?: boolean },
  ) {
    assertKnownKeys(options, ['cause', 'outcomeUnknown'], 'StoreUnavailableError options');
    if (options?.outcomeUnknown !== undefined && typeof options.outcomeUnknown !== 'boolean') {
      throw new TypeError(
        `StoreUnavailableError options: outcomeUnknown must be a boolean, got ${typeof options.outcomeUnknown}`,
      );
    }
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StoreUnavailableError';
    this.outcomeUnknown = options?.outcomeUnknown === true;
  }
}
