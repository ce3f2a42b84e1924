import assert from 'node:assert/strict';
import type { StoredOutboxEvent } from '../../store/index.js';
import { _event, _increasing, _PARTNER_A, _plain, type _Suite } from './storeConformanceKit.js';

const A = _PARTNER_A;

function ids(events: readonly StoredOutboxEvent[]): string[] {
  return events.map((e) => e.id);
}

/** Registers the tests of `outbox`. @internal */
export function _outboxTests(suite: _Suite): void {
  suite.describe('outbox', () => {
    suite.test(
      'add appends events that list returns in order, with increasing sequence numbers',
      async (store) => {
        await store.outbox.add(A, [_event('e1'), _event('e2', { order: 2 })]);
        await store.outbox.add(A, []);
        await store.outbox.add(A, [_event('e3')]);
        await store.transaction((s) => s.outbox.add(A, [_event('e4'), _event('e5')]));
        const events = await store.outbox.list(A, { limit: 100 });
        assert.deepStrictEqual(
          _plain(events.map(({ sequence: _, ...event }) => event)),
          _plain([
            _event('e1'),
            _event('e2', { order: 2 }),
            _event('e3'),
            _event('e4'),
            _event('e5'),
          ]),
        );
        assert.ok(
          events.every((e) => Number.isFinite(e.sequence)),
          'sequence numbers must be numbers',
        );
        assert.ok(_increasing(events.map((e) => e.sequence)), 'sequence numbers must increase');
      },
    );

    suite.test(
      'list returns the events after a sequence number, at most limit of them',
      async (store) => {
        await store.outbox.add(A, [_event('e1'), _event('e2'), _event('e3'), _event('e4')]);
        const all = await store.outbox.list(A, { limit: 100 });
        const seq = all.map((e) => e.sequence) as [number, number, number, number];
        assert.deepStrictEqual(ids(all), ['e1', 'e2', 'e3', 'e4']);
        assert.deepStrictEqual(ids(await store.outbox.list(A, { limit: 2 })), ['e1', 'e2']);
        assert.deepStrictEqual(ids(await store.outbox.list(A, { after: seq[0], limit: 100 })), [
          'e2',
          'e3',
          'e4',
        ]);
        assert.deepStrictEqual(ids(await store.outbox.list(A, { after: seq[1], limit: 1 })), [
          'e3',
        ]);
        assert.deepStrictEqual(await store.outbox.list(A, { after: seq[3], limit: 100 }), []);
        assert.deepStrictEqual(ids(await store.outbox.list(A, { after: seq[0] - 1, limit: 100 })), [
          'e1',
          'e2',
          'e3',
          'e4',
        ]);
        // Events added later come after every earlier one.
        await store.outbox.add(A, [_event('e5')]);
        const later = await store.outbox.list(A, { after: seq[3], limit: 100 });
        assert.deepStrictEqual(ids(later), ['e5']);
        assert.ok((later[0] as StoredOutboxEvent).sequence > seq[3]);
      },
    );

    suite.test('list of an empty outbox is empty', async (store) => {
      assert.deepStrictEqual(await store.outbox.list(A, { limit: 10 }), []);
      assert.deepStrictEqual(await store.outbox.list(A, { after: 0, limit: 10 }), []);
    });
  });
}
