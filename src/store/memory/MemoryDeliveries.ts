import type { ClaimedDelivery, DeadLetter, DeliveryRef, DeliveryRepository } from '../Store.js';
import type { MemoryData } from './MemoryData.js';
import type { DeliveryState, PartnerData } from './PartnerData.js';

/** The state of the event at `sequence`, created pending when it has none. */
function stateOf(data: PartnerData, sequence: number): DeliveryState {
  let state = data.deliveries.get(sequence);
  if (state === undefined) {
    state = {
      state: 'pending',
      attempts: 0,
      due: 0,
      lease: undefined,
      error: undefined,
      finishedAt: undefined,
    };
    data.deliveries.set(sequence, state);
  }
  return state;
}

/** The claimed event's state, if `ref`'s lease still holds it. */
function held(db: MemoryData, ref: DeliveryRef): DeliveryState | undefined {
  const state = db.partner(ref.partner)?.deliveries.get(ref.sequence);
  return state?.state === 'pending' && state.lease === ref.lease ? state : undefined;
}

/** Moves the partner's cursor past the events that are finished. */
function advance(data: PartnerData): void {
  let i = data.deliveryCursor;
  while (i < data.outbox.length) {
    const state = data.deliveries.get(i + 1);
    if (state === undefined || state.state === 'pending') break;
    i++;
  }
  data.deliveryCursor = i;
}

/**
 * The delivery state of a memory store. `serial` runs a call in the store's queue, after the
 * units of work before it, so that an event is never claimed before its unit committed.
 */
export function memoryDeliveries(
  db: MemoryData,
  serial: <T>(fn: () => T) => Promise<T>,
): DeliveryRepository {
  return {
    claim: (query) =>
      serial(() => {
        const claimed: ClaimedDelivery[] = [];
        for (const partner of new Set(query.partners)) {
          const data = db.partner(partner);
          if (data === undefined) continue;
          advance(data);
          for (
            let i = data.deliveryCursor;
            i < data.outbox.length && claimed.length < query.limit;
            i++
          ) {
            const event = data.outbox[i] as (typeof data.outbox)[number];
            const state = data.deliveries.get(event.sequence);
            if (state !== undefined && (state.state !== 'pending' || state.due > query.now))
              continue;
            const s = stateOf(data, event.sequence);
            s.attempts++;
            s.due = query.leaseUntil;
            s.lease = query.lease;
            claimed.push({ ...event, partner, lease: query.lease, attempt: s.attempts });
          }
        }
        return claimed;
      }),
    delivered: (claims, now) =>
      serial(() => {
        let n = 0;
        for (const ref of claims) {
          const state = held(db, ref);
          if (state === undefined) continue;
          Object.assign(state, {
            state: 'delivered',
            lease: undefined,
            error: undefined,
            finishedAt: now,
          });
          n++;
        }
        return n;
      }),
    retry: (ref, outcome) =>
      serial(() => {
        const state = held(db, ref);
        if (state === undefined) return false;
        Object.assign(state, {
          due: outcome.nextAttemptAt,
          lease: undefined,
          error: outcome.error,
        });
        return true;
      }),
    deadLetter: (ref, outcome) =>
      serial(() => {
        const state = held(db, ref);
        if (state === undefined) return false;
        Object.assign(state, {
          state: 'dead',
          lease: undefined,
          error: outcome.error,
          finishedAt: outcome.now,
        });
        return true;
      }),
    release: (claims, now) =>
      serial(() => {
        for (const ref of claims) {
          const state = held(db, ref);
          if (state === undefined) continue;
          Object.assign(state, { due: now, lease: undefined, attempts: state.attempts - 1 });
        }
      }),
    deadLetters: (query) =>
      serial(() => {
        const letters: DeadLetter[] = [];
        const partners =
          query.partner === undefined ? [...db.partners.keys()].sort() : [query.partner];
        for (const partner of partners) {
          const data = db.partner(partner);
          if (data === undefined) continue;
          const dead = [...data.deliveries]
            .filter(([, s]) => s.state === 'dead')
            .sort(([a], [b]) => a - b);
          for (const [sequence, s] of dead) {
            if (letters.length >= query.limit) return letters;
            const event = data.outbox[sequence - 1] as (typeof data.outbox)[number];
            letters.push({
              ...event,
              partner,
              attempts: s.attempts,
              error: s.error ?? '',
              dead_at: s.finishedAt ?? 0,
            });
          }
        }
        return letters;
      }),
    redeliver: (query) =>
      serial(() => {
        const wanted = query.ids === undefined ? undefined : new Set(query.ids);
        const done: string[] = [];
        const partners = query.partner === undefined ? [...db.partners.keys()] : [query.partner];
        for (const partner of partners) {
          const data = db.partner(partner);
          if (data === undefined) continue;
          for (const [sequence, s] of data.deliveries) {
            if (s.state !== 'dead') continue;
            const event = data.outbox[sequence - 1] as (typeof data.outbox)[number];
            if (wanted !== undefined && !wanted.has(event.id)) continue;
            Object.assign(s, {
              state: 'pending',
              attempts: 0,
              due: query.now,
              error: undefined,
              finishedAt: undefined,
            });
            data.deliveryCursor = Math.min(data.deliveryCursor, sequence - 1);
            done.push(event.id);
          }
        }
        return done;
      }),
  };
}
