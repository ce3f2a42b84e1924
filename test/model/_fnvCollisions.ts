/**
 * Ids that share one 32-bit FNV-1a hash, built the way an attacker would: FNV-1a has no length
 * padding, so once two blocks lead from one state to the same state, every string made of
 * choices among such pairs, block after block, ends in the same hash (Joux's multicollisions).
 * Each pair is found by the birthday bound over random three-character blocks of CJK ideographs
 * (well-formed text, about 60,000 blocks per pair).
 */
import { hashId } from '../../src/model/TransactionIdSet.js';

const PRIME = 0x01000193;

function stepHash(h: number, block: string): number {
  for (let i = 0; i < block.length; i++) h = Math.imul(h ^ block.charCodeAt(i), PRIME);
  return h | 0;
}

/**
 * `2 ** pairs` distinct ids of `3 × pairs` characters, all with one FNV-1a hash.
 * @param pairs - how many colliding block pairs to chain (at most 20)
 * @param seed - seed of the block generator
 * @returns the ids, in binary-counting order of their choices
 */
export function collidingIds(pairs: number, seed = 1): string[] {
  let state = seed | 0;
  const random = (): number => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
    return state >>> 0;
  };
  const ideograph = (bits: number): number => 0x4e00 + (bits & 0x3fff);
  let h = hashId('');
  const chosen: [string, string][] = [];
  while (chosen.length < pairs) {
    const seen = new Map<number, string>();
    for (;;) {
      const r = random();
      const block = String.fromCharCode(ideograph(r), ideograph(r >>> 14), ideograph(random()));
      const next = stepHash(h, block);
      const other = seen.get(next);
      if (other !== undefined && other !== block) {
        chosen.push([other, block]);
        h = next;
        break;
      }
      seen.set(next, block);
    }
  }
  const ids: string[] = [];
  for (let n = 0; n < 2 ** pairs; n++) {
    ids.push(chosen.map((pair, i) => pair[(n >>> i) & 1]).join(''));
  }
  return ids;
}
