import type { ClaimedDelivery } from '../store/index.js';
import type { AttemptResult } from './attempt.js';
import type { DispatcherState } from './DispatcherState.js';
import type { Endpoint } from './partners.js';
import { delayBefore } from './schedule.js';
import type { WebhookAttempt } from './WebhookAttempt.js';

/**
 * Records what an attempt came to and schedules what follows (docs/webhooks.md): delivered on a
 * 2xx; a 410 disables the endpoint and releases the event, uncounted; otherwise the next attempt
 * on the schedule (`Retry-After` when later), or the dead letter after the last.
 * @param state - the dispatcher's state
 * @param event - the claimed event
 * @param endpoint - its partner's endpoint
 * @param result - the attempt's result
 * @param startedAt - when the attempt started (epoch milliseconds)
 * @returns the attempt as the log reports it; `lost` when the claim's lease had passed
 */
export async function recordOutcome(
  state: DispatcherState,
  event: ClaimedDelivery,
  endpoint: Endpoint,
  result: AttemptResult,
  startedAt: number,
): Promise<WebhookAttempt> {
  const { deliveries } = state;
  const now = state.clock().getTime();
  const base = {
    event_id: event.id,
    type: event.type,
    partner: event.partner,
    attempt: event.attempt,
    status: result.status,
    duration_ms: Math.max(0, now - startedAt),
    ...(result.error === undefined ? {} : { error: result.error }),
  };
  if (result.ok) {
    const n = await deliveries.delivered([event], now);
    return { ...base, outcome: n === 1 ? 'delivered' : 'lost' };
  }
  if (result.gone) {
    state.gone.set(endpoint.partner, endpoint.settings);
    // The event waits, due at once, for the endpoint to come back; the attempt is not counted.
    await deliveries.release([event], now);
    return { ...base, outcome: 'disabled' };
  }
  const delay = delayBefore(state.schedule, event.attempt + 1, state.random);
  if (delay === undefined) {
    const kept = await deliveries.deadLetter(event, { now, error: result.error ?? 'failed' });
    return { ...base, outcome: kept ? 'dead' : 'lost' };
  }
  const nextAttemptAt = now + Math.max(delay, result.retryAfterMs ?? 0);
  const kept = await deliveries.retry(event, { nextAttemptAt, error: result.error ?? 'failed' });
  return kept
    ? { ...base, outcome: 'retry', next_attempt_at: new Date(nextAttemptAt).toISOString() }
    : { ...base, outcome: 'lost' };
}
