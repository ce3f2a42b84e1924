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
 * later. The partner HTTP API answers it 503 `store_unavailable` with `Retry-After`.
 * See docs/stores.md.
 * @public
 */
export class StoreUnavailableError extends Error {
  /** Stable code, also the HTTP error code. */
  readonly code = 'store_unavailable';

  /**
   * @param message - what failed, without credentials
   * @param options - the underlying cause, if any
   */
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}
