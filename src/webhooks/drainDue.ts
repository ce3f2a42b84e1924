import { randomUUID } from 'node:crypto';
import type { ClaimedDelivery } from '../store/index.js';
import { attempt } from './attempt.js';
import { type DispatcherState, isDisabled, partnersWhere } from './DispatcherState.js';
import { recordOutcome } from './recordOutcome.js';

/**
 * Attempts one claimed event and records the outcome; an event whose partner's webhook was
 * removed or disabled since the claim is released instead.
 * @param state - the dispatcher's state
 * @param event - the claimed event
 */
async function deliver(state: DispatcherState, event: ClaimedDelivery): Promise<void> {
  const startedAt = state.clock().getTime();
  const endpoint = state.endpoints.get(event.partner);
  if (endpoint === undefined || isDisabled(state, endpoint)) {
    await state.deliveries.release([event], startedAt);
    return;
  }
  const result = await attempt(state.attempt, endpoint, event);
  const line = await recordOutcome(state, event, endpoint, result, startedAt);
  state.onAttempt?.(line);
}

/**
 * Claims due events of the enabled partners with a lease, `concurrency` at a time, and delivers
 * each batch, until nothing is due or `halt()` says so after a batch.
 * @param state - the dispatcher's state
 * @param halt - asked after each batch
 * @returns how many attempts were made
 */
export async function drainDue(state: DispatcherState, halt: () => boolean): Promise<number> {
  let attempts = 0;
  for (;;) {
    const partners = partnersWhere(state, false);
    if (partners.length === 0) break;
    const now = state.clock().getTime();
    const claims = await state.deliveries.claim({
      partners,
      now,
      leaseUntil: now + state.leaseMs,
      lease: randomUUID(),
      limit: state.concurrency,
    });
    if (claims.length === 0) break;
    await Promise.all(claims.map((event) => deliver(state, event)));
    attempts += claims.length;
    if (halt()) break;
  }
  return attempts;
}
