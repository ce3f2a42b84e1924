import type { CreateReplayOptions } from './options.js';
import { openReplay } from './ReplayCore.js';
import type { ReplayData } from './ReplayData.js';
import type { ReplaySession } from './ReplaySession.js';

/**
 * Starts a replay: compiles offers, applies customers then history, and returns a session that
 * decides transactions chunk by chunk, and returns too when opened with `returns: true`.
 * @param data - offers, customers and optional history
 * @param options - time zone, scale, rounding, operators, `maxLatenessDays`, `returns`
 * @returns the session
 * @throws OfferValidationError when an offer is invalid; TypeError when `data` is not an object,
 *   has a key other than `offers`, `customers`, `history`, `transactions` and `returns`, or one of
 *   them has the wrong shape, for an unknown option, and when `returns` is not a boolean;
 *   RangeError for a bad option value
 * @public
 */
export function createReplay(data: ReplayData, options: CreateReplayOptions = {}): ReplaySession {
  const { rejected, push, pushReturns, summary, retained } = openReplay(data, options);
  return { rejected, push, pushReturns, summary, retained };
}
