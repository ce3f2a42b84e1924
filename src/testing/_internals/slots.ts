import fc from 'fast-check';
import { corrupt, transactionCorruptions } from './corrupt.js';
import { UNKNOWN_CUSTOMER_IDS } from './pools.js';

/** What a slot becomes. */
export type Kind = 'valid' | 'invalid' | 'unknown' | 'duplicate';

/**
 * Draws a kind with the given rates; shrinks towards `valid`.
 */
export function kindArbitrary(
  invalid: number,
  unknown: number,
  duplicate: number,
): fc.Arbitrary<Kind> {
  const scale = 10_000;
  const valid = Math.round((1 - invalid - unknown - duplicate) * scale);
  const a = valid + Math.round(invalid * scale);
  const b = a + Math.round(unknown * scale);
  return fc
    .noBias(fc.integer({ min: 0, max: scale - 1 }))
    .map((r) => (r < valid ? 'valid' : r < a ? 'invalid' : r < b ? 'unknown' : 'duplicate'));
}

/** One item to be, with every choice drawn up front so that it shrinks. */
export interface Slot<T> {
  readonly item: T;
  readonly kind: Kind;
  readonly unknownId: string;
  readonly pick: number;
  readonly corruption: number;
  readonly variant: number;
  readonly padded: boolean;
  readonly returning: boolean;
}

/** A slot around an item arbitrary. */
export function slotArbitrary<T>(
  item: fc.Arbitrary<T>,
  kind: fc.Arbitrary<Kind>,
): fc.Arbitrary<Slot<T>> {
  return fc.record({
    item,
    kind,
    unknownId: fc.constantFrom(...UNKNOWN_CUSTOMER_IDS),
    pick: fc.nat(),
    corruption: fc.nat(99),
    variant: fc.nat(99),
    padded: fc.boolean(),
    returning: fc.oneof({ weight: 2, arbitrary: fc.constant(false) }, fc.constant(true)),
  });
}

/** Who bought where: a returning customer comes back to a merchant. */
export interface Visit {
  readonly customer_id: string;
  readonly merchant: { readonly name: string };
}

/**
 * Turns slots into items: ids made unique (`<prefix><n>`), then each slot's kind applied. A
 * duplicate takes the id of an earlier item or of `earlier` ids; a returning customer the
 * customer and merchant of an earlier item or of `visits`; invalid items are corrupted.
 */
export function realise<
  T extends { transaction_id: string; customer_id: string; merchant: { name: string } },
>(
  slots: readonly Slot<T>[],
  prefix: string,
  earlier: { readonly ids: readonly string[]; readonly visits: readonly Visit[] },
  required: readonly string[],
): { items: unknown[]; ids: string[]; visits: Visit[] } {
  const corruptions = transactionCorruptions(required);
  const ids: string[] = [];
  const visits: Visit[] = [];
  const items = slots.map((s, i) => {
    let t: T = { ...s.item, transaction_id: `${prefix}${i + 1}` };
    if (s.kind === 'unknown') t = { ...t, customer_id: s.unknownId };
    // Ids are trimmed (docs/concepts.md, Input rules): a padded customer id names the same customer.
    if (s.kind === 'valid' && s.padded && s.pick % 4 === 0)
      t = { ...t, customer_id: ` ${t.customer_id}` };
    if (s.kind === 'duplicate') {
      const pool = [...earlier.ids, ...ids];
      const id = pool[s.pick % Math.max(pool.length, 1)];
      if (id !== undefined) t = { ...t, transaction_id: s.padded ? ` ${id} ` : id };
    }
    if (s.kind === 'valid' && s.returning) {
      const pool = [...earlier.visits, ...visits];
      const visit = pool[s.pick % Math.max(pool.length, 1)];
      if (visit !== undefined) {
        t = {
          ...t,
          customer_id: visit.customer_id,
          merchant: { ...t.merchant, name: visit.merchant.name },
        };
      }
    }
    ids.push(t.transaction_id.trim());
    visits.push({ customer_id: t.customer_id, merchant: { name: t.merchant.name } });
    return s.kind === 'invalid' ? corrupt(t, corruptions, s.corruption, s.variant) : t;
  });
  return { items, ids, visits };
}
