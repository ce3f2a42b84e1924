import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { hashId, MAX_PROBES, TransactionIdSet } from '../../src/model/TransactionIdSet.js';
import { collidingIds } from './_fnvCollisions.js';

/** Operations on a set, replayed on `TransactionIdSet` and on a builtin `Set` as the model. */
type Op =
  | { readonly kind: 'add'; readonly id: string }
  | { readonly kind: 'has'; readonly id: string }
  | { readonly kind: 'truncate'; readonly back: number };

/** Slots read by the set's lookups so far (its internal counter). */
function probes(set: TransactionIdSet): number {
  return (set as unknown as { probes: number }).probes;
}

// Few distinct ids, so that adds repeat; some share a hash bucket by construction (short ids
// over two letters collide often in a 16-slot table), and 64 share one hash, more than a
// window holds.
const sharedHash = collidingIds(6, 7);
const idArb = fc.oneof(
  fc.stringMatching(/^[ab]{0,6}$/),
  fc.constantFrom(...sharedHash),
  fc.string({ maxLength: 12 }),
  fc.integer({ min: 0, max: 3000 }).map((n) => `t${n}`),
);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: idArb.map((id) => ({ kind: 'add' as const, id })) },
  { weight: 3, arbitrary: idArb.map((id) => ({ kind: 'has' as const, id })) },
  { weight: 1, arbitrary: fc.nat(40).map((back) => ({ kind: 'truncate' as const, back })) },
);

describe('TransactionIdSet', () => {
  test('behaves as an insertion-ordered Set under add, has, indexOf and truncate', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 3000 }), (ops) => {
        const set = new TransactionIdSet();
        let model: string[] = [];
        for (const op of ops) {
          if (op.kind === 'add') {
            const fresh = !model.includes(op.id);
            expect(set.add(op.id)).toBe(fresh);
            if (fresh) model.push(op.id);
          } else if (op.kind === 'has') {
            expect(set.has(op.id)).toBe(model.includes(op.id));
            expect(set.indexOf(op.id)).toBe(model.indexOf(op.id));
          } else {
            const size = Math.max(0, model.length - op.back);
            set.truncate(size);
            model = model.slice(0, size);
          }
          expect(set.size).toBe(model.length);
        }
        expect([...set]).toEqual(model);
        for (const id of model) expect(set.has(id)).toBe(true);
      }),
    );
  });

  test('gives the position of ids kept in the overflow map, before and after it grows', () => {
    const set = new TransactionIdSet();
    const ids = [...sharedHash, ...collidingIds(14).slice(0, 2000)];
    for (const [i, id] of ids.entries()) {
      set.add(id);
      expect(set.indexOf(id)).toBe(i);
    }
    for (const [i, id] of ids.entries()) expect(set.indexOf(id)).toBe(i);
    expect(set.indexOf('absent')).toBe(-1);
  });

  test('grows past a million ids and still finds each one', () => {
    const set = new TransactionIdSet();
    const n = 1_100_000;
    let added = 0;
    for (let i = 0; i < n; i++) if (set.add(`t${i}`)) added++;
    expect(added).toBe(n);
    expect(set.size).toBe(n);
    let found = 0;
    for (let i = 0; i < n; i += 7) if (set.has(`t${i}`)) found++;
    expect(found).toBe(Math.ceil(n / 7));
    expect(set.has(`t${n}`)).toBe(false);
    expect(set.add('t5')).toBe(false);
  });

  test('starts from the ids given, once each', () => {
    const set = new TransactionIdSet(['a', 'b', 'a']);
    expect([...set]).toEqual(['a', 'b']);
  });

  test('truncate refuses a size it cannot go back to', () => {
    const set = new TransactionIdSet(['a']);
    expect(() => set.truncate(2)).toThrow(RangeError);
    expect(() => set.truncate(-1)).toThrow(RangeError);
    expect(() => set.truncate(0.5)).toThrow(RangeError);
    set.truncate(0);
    expect(set.size).toBe(0);
    expect(set.has('a')).toBe(false);
  });

  test('ids built to share one hash cost a bounded number of probes, as random ids do', () => {
    const n = 2 ** 14;
    const crafted = collidingIds(14);
    expect(new Set(crafted).size).toBe(n);
    expect(new Set(crafted.map(hashId)).size).toBe(1);
    const random = fc.sample(fc.string({ minLength: 8, maxLength: 42 }), {
      numRuns: 4 * n,
      seed: 3,
    });
    const distinct = [...new Set(random)].slice(0, n);
    expect(distinct).toHaveLength(n);
    const perLookup = (ids: readonly string[]): number => {
      const set = new TransactionIdSet();
      for (const id of ids) expect(set.add(id)).toBe(true);
      for (const id of ids) expect(set.has(id)).toBe(true);
      expect(set.add(ids[0] as string)).toBe(false);
      expect(set.has(`${ids[0]}x`)).toBe(false);
      expect([...set]).toEqual(ids);
      set.truncate(n / 2);
      expect(set.has(ids[n / 2] as string)).toBe(false);
      expect(set.has(ids[n / 2 - 1] as string)).toBe(true);
      return probes(set) / (2 * n + 4);
    };
    const craftedCost = perLookup(crafted);
    const randomCost = perLookup(distinct);
    // Before the window, the k-th of these ids read k slots: 4,096 per lookup on average.
    expect(craftedCost).toBeLessThanOrEqual(MAX_PROBES);
    expect(randomCost).toBeLessThan(3);
    expect(craftedCost).toBeLessThan(10 * randomCost);
  });

  test('hashes are FNV-1a over UTF-16 code units', () => {
    // Reference values of 32-bit FNV-1a: '' is the offset basis, 'a' a published test vector.
    expect(hashId('') >>> 0).toBe(0x811c9dc5);
    expect(hashId('a') >>> 0).toBe(0xe40c292c);
    expect(hashId('\u00e9')).not.toBe(hashId('e'));
  });
});
