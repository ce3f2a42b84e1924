import assert from 'node:assert/strict';
import type { DeliveryClaimQuery, DeliveryRepository, Store } from '../../store/index.js';
import { idsOf, makeEvent, PARTNER_A, PARTNER_B, type Suite } from './storeConformanceKit.js';

const A = PARTNER_A;
const B = PARTNER_B;
const LEASE_MS = 30_000;
const T0 = 1_750_000_000_000;

/** The store's delivery state, which the checks need. */
function deliveriesOf(store: Store): DeliveryRepository {
  assert.ok(store.deliveries !== undefined, 'the store must have `deliveries` (docs/stores.md)');
  return store.deliveries;
}

let leases = 0;

/** A claim of both partners' events at `now`, with a fresh lease. */
function claimAt(now: number, limit = 100, partners = [A, B]): DeliveryClaimQuery {
  leases++;
  return { partners, now, leaseUntil: now + LEASE_MS, lease: `lease-${leases}-${now}`, limit };
}

/** The store's delivery state, after A added events a1 and a2 and B added b1. */
async function deliveriesWithEvents(store: Store): Promise<DeliveryRepository> {
  const d = deliveriesOf(store);
  await store.outbox.add(A, [makeEvent('a1'), makeEvent('a2')]);
  await store.outbox.add(B, [makeEvent('b1')]);
  return d;
}

/** Registers the checks of `deliveries`: claims with leases, outcomes, dead letters. */
export function deliveryTests(suite: Suite): void {
  suite.describe('deliveries', () => {
    suite.test(
      'claim hands out due events per partner in sequence order, counts the attempt and holds them for the lease',
      async (store) => {
        const d = await deliveriesWithEvents(store);
        await store.outbox.add(A, [makeEvent('a3')]);
        const first = await d.claim(claimAt(T0));
        assert.deepStrictEqual(idsOf(first.filter((c) => c.partner === A)), ['a1', 'a2', 'a3']);
        assert.deepStrictEqual(idsOf(first.filter((c) => c.partner === B)), ['b1']);
        assert.ok(first.every((c) => c.attempt === 1));
        assert.deepStrictEqual(first.find((c) => c.id === 'a1')?.payload, makeEvent('a1').payload);
        assert.deepStrictEqual(await d.claim(claimAt(T0 + LEASE_MS - 1)), []);
        // The holder crashed: past the lease, the events are due again.
        const again = await d.claim(claimAt(T0 + LEASE_MS));
        assert.deepStrictEqual(idsOf(again).sort(), ['a1', 'a2', 'a3', 'b1']);
        assert.ok(again.every((c) => c.attempt === 2));
      },
    );

    suite.test(
      'claim takes at most limit events, and only of the partners named',
      async (store) => {
        const d = deliveriesOf(store);
        await store.outbox.add(A, [makeEvent('a1'), makeEvent('a2'), makeEvent('a3')]);
        await store.outbox.add(B, [makeEvent('b1')]);
        assert.deepStrictEqual(idsOf(await d.claim(claimAt(T0, 2, [A]))), ['a1', 'a2']);
        assert.deepStrictEqual(idsOf(await d.claim(claimAt(T0, 5, [A]))), ['a3']);
        assert.deepStrictEqual(idsOf(await d.claim(claimAt(T0, 5, []))), []);
        assert.deepStrictEqual(idsOf(await d.claim(claimAt(T0, 5, [B]))), ['b1']);
      },
    );

    suite.test('a delivered event is never claimed again', async (store) => {
      const d = deliveriesOf(store);
      await store.outbox.add(A, [makeEvent('a1'), makeEvent('a2')]);
      const claims = await d.claim(claimAt(T0));
      assert.equal(await d.delivered(claims.slice(0, 1), T0 + 5), 1);
      const later = await d.claim(claimAt(T0 + 10 * LEASE_MS));
      assert.deepStrictEqual(idsOf(later), ['a2']);
    });

    suite.test('a record made with a lease another claim took is ignored', async (store) => {
      const d = deliveriesOf(store);
      await store.outbox.add(A, [makeEvent('a1')]);
      const [stale] = await d.claim(claimAt(T0));
      const [fresh] = await d.claim(claimAt(T0 + LEASE_MS));
      assert.ok(stale !== undefined && fresh !== undefined);
      assert.equal(await d.delivered([stale], T0 + LEASE_MS + 1), 0);
      assert.equal(await d.retry(stale, { nextAttemptAt: T0, error: 'x' }), false);
      assert.equal(await d.deadLetter(stale, { now: T0, error: 'x' }), false);
      assert.equal(await d.delivered([fresh], T0 + LEASE_MS + 1), 1);
      assert.deepStrictEqual(await d.deadLetters({ limit: 10 }), []);
    });

    suite.test('a retried event is due at its next attempt, not before', async (store) => {
      const d = deliveriesOf(store);
      await store.outbox.add(A, [makeEvent('a1'), makeEvent('a2')]);
      const [a1] = await d.claim(claimAt(T0, 1));
      assert.ok(a1 !== undefined);
      assert.equal(await d.retry(a1, { nextAttemptAt: T0 + 5_000, error: 'HTTP 500' }), true);
      // A failing event does not hold back the partner's later ones.
      assert.deepStrictEqual(idsOf(await d.claim(claimAt(T0 + 1))), ['a2']);
      assert.deepStrictEqual(idsOf(await d.claim(claimAt(T0 + 4_999))), []);
      const [retried] = await d.claim(claimAt(T0 + 5_000));
      assert.equal(retried?.id, 'a1');
      assert.equal(retried?.attempt, 2);
    });

    suite.test('a released claim is due at once, its attempt not counted', async (store) => {
      const d = deliveriesOf(store);
      await store.outbox.add(A, [makeEvent('a1')]);
      const claims = await d.claim(claimAt(T0));
      await d.release(claims, T0 + 1);
      const [again] = await d.claim(claimAt(T0 + 1));
      assert.equal(again?.attempt, 1);
    });

    suite.test(
      'a dead letter is listed with its error until it is redelivered, then claimed from attempt 1',
      async (store) => {
        const d = await deliveriesWithEvents(store);
        for (const c of await d.claim(claimAt(T0))) {
          assert.equal(await d.deadLetter(c, { now: T0 + 7, error: `HTTP 500 for ${c.id}` }), true);
        }
        assert.deepStrictEqual(await d.claim(claimAt(T0 + 100 * LEASE_MS)), []);
        const letters = await d.deadLetters({ limit: 10 });
        assert.deepStrictEqual(
          letters.map((l) => [l.partner, l.id, l.attempts, l.error, l.dead_at]),
          [
            [A, 'a1', 1, 'HTTP 500 for a1', T0 + 7],
            [A, 'a2', 1, 'HTTP 500 for a2', T0 + 7],
            [B, 'b1', 1, 'HTTP 500 for b1', T0 + 7],
          ],
        );
        assert.deepStrictEqual(idsOf(await d.deadLetters({ partner: B, limit: 10 })), ['b1']);
        assert.deepStrictEqual(idsOf(await d.deadLetters({ limit: 1 })), ['a1']);
        assert.deepStrictEqual(await d.redeliver({ ids: ['a2', 'nope'], now: T0 + 8 }), ['a2']);
        const redelivered = await d.claim(claimAt(T0 + 8));
        assert.deepStrictEqual(idsOf(redelivered), ['a2']);
        assert.equal(redelivered[0]?.attempt, 1);
        assert.deepStrictEqual([...(await d.redeliver({ partner: B, now: T0 + 9 }))].sort(), [
          'b1',
        ]);
        assert.deepStrictEqual([...(await d.redeliver({ now: T0 + 9 }))].sort(), ['a1']);
        assert.deepStrictEqual(await d.deadLetters({ limit: 10 }), []);
      },
    );

    suite.test('an event of a unit of work that threw is never claimed', async (store) => {
      const d = deliveriesOf(store);
      await assert.rejects(
        store.transaction(async (s) => {
          await s.outbox.add(A, [makeEvent('gone')]);
          throw new Error('roll back');
        }),
      );
      await store.outbox.add(A, [makeEvent('kept')]);
      assert.deepStrictEqual(idsOf(await d.claim(claimAt(T0))), ['kept']);
    });

    suite.test('concurrent claims never hand out one event twice', async (store) => {
      const d = deliveriesOf(store);
      const events = Array.from({ length: 200 }, (_, i) => makeEvent(`e${i}`));
      await store.outbox.add(A, events.slice(0, 120));
      await store.outbox.add(B, events.slice(120));
      const seen: string[] = [];
      for (let round = 0; round < 10 && seen.length < events.length; round++) {
        const batches = await Promise.all(
          Array.from({ length: 4 }, () => d.claim(claimAt(T0, 17))),
        );
        for (const batch of batches) {
          seen.push(...idsOf(batch));
          await d.delivered(batch, T0 + 1);
        }
      }
      assert.equal(new Set(seen).size, seen.length, 'an event was claimed twice');
      assert.equal(seen.length, events.length);
    });
  });
}
