import assert from 'node:assert/strict';
import { makeOffer, makeRichOffer, plainCopy, type Suite } from './storeConformanceKit.js';

/** Registers the tests of `offers`. */
export function offerTests(suite: Suite): void {
  suite.describe('offers', () => {
    suite.test('list returns every offer, active or not, by ascending offer_id', async (store) => {
      assert.deepStrictEqual(await store.offers.list(), []);
      await store.offers.upsert([makeOffer(3), makeOffer(10), makeOffer(1, { active: false })]);
      await store.offers.upsert([makeOffer(2, { active: false })]);
      assert.deepStrictEqual(
        plainCopy(await store.offers.list()),
        plainCopy([
          makeOffer(1, { active: false }),
          makeOffer(2, { active: false }),
          makeOffer(3),
          makeOffer(10),
        ]),
      );
    });

    suite.test('upsert replaces offers by offer_id and keeps the others', async (store) => {
      await store.offers.upsert([makeOffer(1), makeOffer(2), makeOffer(3)]);
      const changed = makeOffer(2, { name: 'Changed', discount: 12.5, active: false, warranty: 0 });
      await store.offers.upsert([changed, makeOffer(4)]);
      assert.deepStrictEqual(
        plainCopy(await store.offers.list()),
        plainCopy([makeOffer(1), changed, makeOffer(3), makeOffer(4)]),
      );
      await store.offers.upsert([]);
      assert.deepStrictEqual(
        plainCopy(await store.offers.list()),
        plainCopy([makeOffer(1), changed, makeOffer(3), makeOffer(4)]),
      );
    });

    suite.test('an offer keeps every field as given, optional ones included', async (store) => {
      await store.offers.upsert([makeRichOffer(1), makeOffer(2)]);
      assert.deepStrictEqual(
        plainCopy(await store.offers.list()),
        plainCopy([makeRichOffer(1), makeOffer(2)]),
      );
    });

    suite.test(
      'revision changes after an upsert that writes, and stays the same without writes',
      async (store) => {
        const r0 = await store.offers.revision();
        assert.strictEqual(typeof r0, 'number');
        await store.offers.list();
        assert.strictEqual(await store.offers.revision(), r0);

        await store.offers.upsert([makeOffer(1)]);
        const r1 = await store.offers.revision();
        assert.notStrictEqual(r1, r0, 'an upsert that creates an offer must change the revision');
        assert.strictEqual(await store.offers.revision(), r1);

        await store.offers.upsert([makeOffer(1, { discount: '7' })]);
        const r2 = await store.offers.revision();
        assert.notStrictEqual(r2, r1, 'an upsert that changes an offer must change the revision');

        await store.transaction((s) => s.offers.upsert([makeOffer(2)]));
        const r3 = await store.offers.revision();
        assert.notStrictEqual(r3, r2, "a unit of work's upsert must change the revision");
        await store.offers.list();
        assert.strictEqual(await store.offers.revision(), r3);
      },
    );
  });
}
