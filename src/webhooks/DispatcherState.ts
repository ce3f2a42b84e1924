import type { DeliveryRepository } from '../store/index.js';
import type { AttemptContext } from './attempt.js';
import type { Endpoint } from './partners.js';
import type { WebhookAttempt } from './WebhookAttempt.js';

/**
 * What the parts of one dispatcher share (docs/webhooks.md): its options, checked, and the
 * endpoints, which `setPartners` replaces and a 410 disables.
 */
export interface DispatcherState {
  readonly deliveries: DeliveryRepository;
  readonly clock: () => Date;
  /** Jitter's random source. */
  readonly random: () => number;
  readonly schedule: readonly number[];
  /** What each attempt needs: the HTTP client, whether to check addresses first, the timeout. */
  readonly attempt: AttemptContext;
  /** Events claimed at once, so attempts in flight. */
  readonly concurrency: number;
  readonly leaseMs: number;
  readonly onAttempt: ((attempt: WebhookAttempt) => void) | undefined;
  /** Partner → endpoint; replaced as a whole by `setPartners`. */
  endpoints: ReadonlyMap<string, Endpoint>;
  /** Partner → the settings a 410 disabled: the endpoint is back once its settings change. */
  readonly gone: Map<string, string>;
}

/**
 * Whether a 410 disabled this endpoint in its current settings.
 * @param state - the dispatcher's state
 * @param endpoint - a partner's endpoint
 * @returns true while disabled
 */
export const isDisabled = (state: DispatcherState, endpoint: Endpoint): boolean =>
  state.gone.get(endpoint.partner) === endpoint.settings;

/**
 * The partners whose endpoint is enabled, or disabled by a 410.
 * @param state - the dispatcher's state
 * @param disabled - which of the two lists
 * @returns their application ids, in the order of the partners
 */
export const partnersWhere = (state: DispatcherState, disabled: boolean): string[] =>
  [...state.endpoints.values()]
    .filter((e) => isDisabled(state, e) === disabled)
    .map((e) => e.partner);
