/**
 * The engine decides exactly as `replay` of the same inputs, however the transactions are split
 * into requests (docs/concepts.md): the property every store's engine test runs.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { createEngine } from '../../src/engine/entry.js';
import { replay, type TransactionError } from '../../src/index.js';
import type { Store } from '../../src/store/entry.js';
import { scenarioArbitrary } from '../../src/testing/index.js';
import { optionsArbitrary } from '../properties/_options.js';

/** The items cut at the given positions into consecutive requests. */
function requestsOf<T>(items: readonly T[], cuts: readonly number[]): T[][] {
  const at = [...new Set(cuts.map((c) => c % (items.length + 1)))].sort((a, b) => a - b);
  const requests: T[][] = [];
  let from = 0;
  for (const cut of [...at, items.length]) {
    requests.push(items.slice(from, cut));
    from = cut;
  }
  return requests;
}

/** A request's `#<index>` key counts within its request; replay's counts from the start. */
function rekeyed(errors: readonly TransactionError[], offset: number): TransactionError[] {
  return errors.map((e) =>
    e.key.startsWith('#') ? { ...e, key: `#${Number(e.key.slice(1)) + offset}` } : e,
  );
}

/**
 * The replay property: an engine over a fresh, empty store from `freshStore` (the memory store
 * when it gives `undefined`) pays and rejects exactly as `replay`, however the transactions are
 * split into requests, and lists each payment once; with `funding`, offers have budgets and caps
 * that run out.
 */
export async function decidesAsReplay(
  freshStore: () => Promise<Store | undefined>,
  numRuns: number,
  funding = false,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      scenarioArbitrary({ duplicateRate: 0.2, conditions: true, funding }),
      optionsArbitrary,
      fc.array(fc.nat(), { maxLength: 6 }),
      async (scenario, options, cuts) => {
        const expected = replay(scenario, options);
        const store = await freshStore();
        try {
          let n = 0;
          const engine = createEngine({
            ...options,
            ...(store === undefined ? {} : { store }),
            ids: () => `event-${++n}`,
          });
          const partner = 'bank-a';
          await engine.upsertOffers(scenario.offers);
          const customers = await engine.upsertCustomers(partner, scenario.customers);
          expect(customers.details.errors).toEqual(expected.rejected.customers);
          const history = await engine.addHistory(partner, scenario.history);
          expect(history.details.errors).toEqual(expected.rejected.history);
          const payments = [];
          const errors = [];
          let offset = 0;
          for (const request of requestsOf(scenario.transactions, cuts)) {
            const r = await engine.addTransactions(partner, request);
            payments.push(...r.details.payments);
            errors.push(...rekeyed(r.details.errors, offset));
            offset += request.length;
          }
          expect(payments).toEqual(expected.payments);
          expect(errors).toEqual(expected.errors);
          const listed = await engine.listPayments(partner, {
            date_from: '0001-01-01',
            date_to: '9999-12-31',
            page_size: 1000,
          });
          expect(listed.total_count).toBe(expected.payments.length);
          expect(listed.transactions.map((p) => p.transaction_id).sort()).toEqual(
            expected.payments.map((p) => p.transaction_id).sort(),
          );
        } finally {
          await store?.close?.();
        }
      },
    ),
    { numRuns },
  );
}
