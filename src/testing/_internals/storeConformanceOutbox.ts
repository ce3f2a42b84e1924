import assert from 'node:assert/strict';
import type { StoredOutboxEvent } from '../../store/index.js';
import {
  idsOf,
  isIncreasing,
  makeEvent,
  PARTNER_A,
  PARTNER_B,
  pausedUnit,
  plainCopy,
  type Suite,
  settlesWithin,
} from './storeConformanceKit.js';

const A = PARTNER_A;
const B = PARTNER_B;

/** How long a call that may wait for an open unit of work is given before the test goes on. */
const MAY_WAIT_MS = 500;

/** Registers the tests of `outbox`. */
export function outboxTests(suite: Suite): void {
  suite.describe('outbox', () => {
    suite.test(
      'add appends events that list returns in order, with increasing sequence numbers',
      async (store) => {
        await store.outbox.add(A, [makeEvent('e1'), makeEvent('e2', { order: 2 })]);
        await store.outbox.add(A, []);
        await store.outbox.add(A, [makeEvent('e3')]);
        await store.transaction((s) => s.outbox.add(A, [makeEvent('e4'), makeEvent('e5')]));
        const events = await store.outbox.list(A, { limit: 100 });
        assert.deepStrictEqual(
          plainCopy(events.map(({ sequence: _, ...event }) => event)),
          plainCopy([
            makeEvent('e1'),
            makeEvent('e2', { order: 2 }),
            makeEvent('e3'),
            makeEvent('e4'),
            makeEvent('e5'),
          ]),
        );
        assert.ok(
          events.every((e) => Number.isFinite(e.sequence)),
          'sequence numbers must be numbers',
        );
        assert.ok(isIncreasing(events.map((e) => e.sequence)), 'sequence numbers must increase');
      },
    );

    suite.test(
      'list returns the events after a sequence number, at most limit of them',
      async (store) => {
        await store.outbox.add(A, [
          makeEvent('e1'),
          makeEvent('e2'),
          makeEvent('e3'),
          makeEvent('e4'),
        ]);
        const all = await store.outbox.list(A, { limit: 100 });
        const seq = all.map((e) => e.sequence) as [number, number, number, number];
        assert.deepStrictEqual(idsOf(all), ['e1', 'e2', 'e3', 'e4']);
        assert.deepStrictEqual(idsOf(await store.outbox.list(A, { limit: 2 })), ['e1', 'e2']);
        assert.deepStrictEqual(idsOf(await store.outbox.list(A, { after: seq[0], limit: 100 })), [
          'e2',
          'e3',
          'e4',
        ]);
        assert.deepStrictEqual(idsOf(await store.outbox.list(A, { after: seq[1], limit: 1 })), [
          'e3',
        ]);
        assert.deepStrictEqual(await store.outbox.list(A, { after: seq[3], limit: 100 }), []);
        assert.deepStrictEqual(
          idsOf(await store.outbox.list(A, { after: seq[0] - 1, limit: 100 })),
          ['e1', 'e2', 'e3', 'e4'],
        );
        // Events added later come after every earlier one.
        await store.outbox.add(A, [makeEvent('e5')]);
        const later = await store.outbox.list(A, { after: seq[3], limit: 100 });
        assert.deepStrictEqual(idsOf(later), ['e5']);
        assert.ok((later[0] as StoredOutboxEvent).sequence > seq[3]);
      },
    );

    suite.test(
      'an event id is unique across the store: a used one, or one twice in a call, adds nothing',
      async (store) => {
        await store.outbox.add(A, [makeEvent('e1')]);
        await assert.rejects(store.outbox.add(B, [makeEvent('b1'), makeEvent('e1')]));
        await assert.rejects(store.outbox.add(A, [makeEvent('e2'), makeEvent('e1')]));
        await assert.rejects(store.outbox.add(B, [makeEvent('b2'), makeEvent('b2')]));
        assert.deepStrictEqual(idsOf(await store.outbox.list(A, { limit: 100 })), ['e1']);
        assert.deepStrictEqual(await store.outbox.list(B, { limit: 100 }), []);
        // Nothing of the failed calls was kept, not even their new ids.
        await store.outbox.add(B, [makeEvent('b1'), makeEvent('b2')]);
        await store.outbox.add(A, [makeEvent('e2')]);
        assert.deepStrictEqual(idsOf(await store.outbox.list(B, { limit: 100 })), ['b1', 'b2']);
        assert.deepStrictEqual(idsOf(await store.outbox.list(A, { limit: 100 })), ['e1', 'e2']);
      },
    );

    suite.test(
      'a reader polling with after misses no event when units of work overlap',
      async (store) => {
        // A unit that added its event first but commits last must not get a sequence below
        // one a reader has already passed.
        const slow = pausedUnit(store, async (s, pause) => {
          await s.outbox.add(A, [makeEvent('slow')]);
          await pause();
        });
        await Promise.race([slow.paused, slow.done]);
        const fast = store.transaction((s) => s.outbox.add(A, [makeEvent('fast')]));
        // A store that runs units one at a time makes `fast` and the poll wait for `slow`.
        await settlesWithin(fast, MAY_WAIT_MS);
        const poll = store.outbox.list(A, { limit: 100 });
        await settlesWithin(poll, MAY_WAIT_MS);
        slow.release();
        await Promise.all([slow.done, fast]);
        const seen = await poll;
        const last = seen.at(-1);
        const next = await store.outbox.list(
          A,
          last === undefined ? { limit: 100 } : { after: last.sequence, limit: 100 },
        );
        assert.deepStrictEqual(
          [...idsOf(seen), ...idsOf(next)].sort(),
          ['fast', 'slow'],
          `a reader saw ${JSON.stringify(idsOf(seen))}, then after its last sequence ${JSON.stringify(idsOf(next))}`,
        );
      },
    );

    suite.test('list of an empty outbox is empty', async (store) => {
      assert.deepStrictEqual(await store.outbox.list(A, { limit: 10 }), []);
      assert.deepStrictEqual(await store.outbox.list(A, { after: 0, limit: 10 }), []);
    });
  });
}
