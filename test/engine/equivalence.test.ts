/**
 * The engine over the memory store decides exactly as `replay` of the same inputs, however the
 * transactions are split into requests: a transaction sees as history everything stored before
 * it (docs/concepts.md), whether it was stored by an earlier request or earlier in its own.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine, replay, type TransactionError } from '../../src/index.js';
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

describe('the engine over the memory store', () => {
  it('pays and rejects exactly as replay, however the transactions are split into requests', async () => {
    await fc.assert(
      fc.asyncProperty(
        scenarioArbitrary({ duplicateRate: 0.2, conditions: true }),
        optionsArbitrary,
        fc.array(fc.nat(), { maxLength: 6 }),
        async (scenario, options, cuts) => {
          const expected = replay(scenario, options);
          let n = 0;
          const engine = createEngine({ ...options, ids: () => `event-${++n}` });
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
          expect(new Set(listed.transactions.map((p) => p.transaction_id))).toEqual(
            new Set(expected.payments.map((p) => p.transaction_id)),
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});
