import assert from 'node:assert/strict';
import type { Offer } from '../../model/schemas.js';
import {
  makeOffer,
  makeRichOffer,
  plainCopy,
  revisionOf,
  type Suite,
} from './storeConformanceKit.js';

/** The first revision of each offer. */
const first = (offers: readonly Offer[]) => offers.map((o) => revisionOf(o));

/** Registers the tests of `offers`. */
export function offerTests(suite: Suite): void {
  suite.describe('offers', () => {
    suite.test('list returns every offer, active or not, by ascending offer_id', async (store) => {
      assert.deepStrictEqual(await store.offers.list(), []);
      await store.offers.upsert(
        first([makeOffer(3), makeOffer(10), makeOffer(1, { active: false })]),
      );
      await store.offers.upsert(first([makeOffer(2, { active: false })]));
      assert.deepStrictEqual(
        plainCopy(await store.offers.list()),
        plainCopy(
          first([
            makeOffer(1, { active: false }),
            makeOffer(2, { active: false }),
            makeOffer(3),
            makeOffer(10),
          ]),
        ),
      );
    });

    suite.test(
      'upsert makes a new revision current by offer_id and keeps the others',
      async (store) => {
        await store.offers.upsert(first([makeOffer(1), makeOffer(2), makeOffer(3)]));
        const changed = makeOffer(2, {
          name: 'Changed',
          discount: 12.5,
          active: false,
          warranty: 0,
        });
        await store.offers.upsert([revisionOf(changed, 2), revisionOf(makeOffer(4))]);
        const expected = [
          revisionOf(makeOffer(1)),
          revisionOf(changed, 2),
          revisionOf(makeOffer(3)),
          revisionOf(makeOffer(4)),
        ];
        assert.deepStrictEqual(plainCopy(await store.offers.list()), plainCopy(expected));
        await store.offers.upsert([]);
        assert.deepStrictEqual(plainCopy(await store.offers.list()), plainCopy(expected));
      },
    );

    suite.test('history keeps every revision as it was, oldest first', async (store) => {
      await store.offers.upsert(first([makeOffer(1), makeOffer(2)]));
      await store.offers.upsert([revisionOf(makeOffer(1, { discount: '7' }), 2)]);
      await store.offers.upsert([revisionOf(makeOffer(1, { discount: '9', active: false }), 3)]);
      assert.deepStrictEqual(
        plainCopy(await store.offers.history([2, 1, 99, 1])),
        plainCopy([
          revisionOf(makeOffer(1)),
          revisionOf(makeOffer(1, { discount: '7' }), 2),
          revisionOf(makeOffer(1, { discount: '9', active: false }), 3),
          revisionOf(makeOffer(2)),
        ]),
      );
      assert.deepStrictEqual(await store.offers.history([]), []);
    });

    suite.test(
      'upsert refuses a revision that is not its offer next one, and stores nothing of the call',
      async (store) => {
        await store.offers.upsert(first([makeOffer(1)]));
        for (const wrong of [1, 3]) {
          await assert.rejects(
            store.offers.upsert([
              revisionOf(makeOffer(2)),
              revisionOf(makeOffer(1, { name: 'again' }), wrong),
            ]),
          );
        }
        await assert.rejects(store.offers.upsert([revisionOf(makeOffer(5), 2)]));
        assert.deepStrictEqual(
          plainCopy(await store.offers.list()),
          plainCopy(first([makeOffer(1)])),
        );
        assert.deepStrictEqual(
          plainCopy(await store.offers.history([1, 2, 5])),
          plainCopy(first([makeOffer(1)])),
        );
      },
    );

    suite.test('an offer keeps every field as given, optional ones included', async (store) => {
      await store.offers.upsert(first([makeRichOffer(1), makeOffer(2)]));
      assert.deepStrictEqual(
        plainCopy(await store.offers.list()),
        plainCopy(first([makeRichOffer(1), makeOffer(2)])),
      );
    });

    suite.test(
      'revision changes after an upsert that writes, and stays the same without writes',
      async (store) => {
        const r0 = await store.offers.revision();
        assert.strictEqual(typeof r0, 'number');
        await store.offers.list();
        assert.strictEqual(await store.offers.revision(), r0);

        await store.offers.upsert(first([makeOffer(1)]));
        const r1 = await store.offers.revision();
        assert.notStrictEqual(r1, r0, 'an upsert that creates an offer must change the revision');
        assert.strictEqual(await store.offers.revision(), r1);

        await store.offers.upsert([revisionOf(makeOffer(1, { discount: '7' }), 2)]);
        const r2 = await store.offers.revision();
        assert.notStrictEqual(r2, r1, 'an upsert that changes an offer must change the revision');

        await store.transaction((s) => s.offers.upsert(first([makeOffer(2)])));
        const r3 = await store.offers.revision();
        assert.notStrictEqual(r3, r2, "a unit of work's upsert must change the revision");
        await store.offers.list();
        assert.strictEqual(await store.offers.revision(), r3);
      },
    );
  });
}
