import type { ReplaySessionOptions } from './options.js';
import { openReplay } from './ReplayCore.js';
import type { ReplayData } from './ReplayData.js';
import type { ReplaySession } from './ReplaySession.js';

/**
 * Starts a replay: compiles offers, applies customers then history, and returns a session that
 * decides transactions chunk by chunk.
 * @param data - offers, customers and optional history
 * @param options - time zone, scale, rounding, operators
 * @returns the session
 * @throws OfferValidationError when an offer is invalid; TypeError when `data` is not an object,
 *   has a key other than `offers`, `customers`, `history` and `transactions`, or one of them has
 *   the wrong shape, and for an unknown option; RangeError for a bad option value
 * @public
 */
export function createReplay(data: ReplayData, options: ReplaySessionOptions = {}): ReplaySession {
  const { rejected, push, summary, retained } = openReplay(data, options);
  return { rejected, push, summary, retained };
}
