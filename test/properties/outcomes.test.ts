/**
 * Property 1: every submitted transaction has exactly one outcome (docs/concepts.md, Outcomes and error codes), from `replay`
 * and from `decide` itself.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { screenCustomers } from '../../src/core/customers.js';
import { purchaseOf, screenHistory } from '../../src/core/decide.js';
import {
  compileOffers,
  type DecideState,
  decide,
  type ParsedCustomer,
  type Purchase,
  parseTransaction,
  replay,
  resolveOptions,
} from '../../src/index.js';
import { invariants, scenarioArbitrary } from '../../src/testing/index.js';
import { optionsArbitrary } from './_options.js';

const scenarios = scenarioArbitrary({
  invalidRate: 0.15,
  unknownCustomerRate: 0.15,
  duplicateRate: 0.2,
});

describe('every submitted transaction', () => {
  it('has exactly one outcome in a replay, keyed by its id or #<index>', () => {
    fc.assert(
      fc.property(scenarios, optionsArbitrary, (scenario, options) => {
        invariants.oneOutcomePerTransaction(scenario, replay(scenario, options));
      }),
      { numRuns: 200 },
    );
  });

  it('has exactly one outcome from decide, in input order, and is stored only when screened in', () => {
    fc.assert(
      fc.property(scenarios, optionsArbitrary, (scenario, options) => {
        const resolved = resolveOptions(options);
        const customers = new Map<string, ParsedCustomer>(
          screenCustomers(scenario.customers).accepted.map((c) => [c.customerId, c]),
        );
        const ids = new Set<string>();
        const purchases = new Map<string, Purchase[]>();
        const state: DecideState = {
          offers: compileOffers(scenario.offers),
          options: resolved,
          customer: (id) => customers.get(id),
          hasTransaction: (id) => ids.has(id),
          purchases: (customerId, key) => purchases.get(JSON.stringify([customerId, key])),
        };
        const history = screenHistory(
          scenario.history.map((h, i) => parseTransaction(h, i, resolved.timeZone, true)),
          state,
        );
        for (const tx of history.accepted) {
          ids.add(tx.transactionId);
          const key = JSON.stringify([tx.customerId, tx.merchantKey]);
          purchases.set(key, [...(purchases.get(key) ?? []), purchaseOf(tx)]);
        }
        const items = scenario.transactions.map((t, i) =>
          parseTransaction(t, i, resolved.timeZone),
        );
        const { outcomes, accepted } = decide(items, state);

        expect(outcomes).toHaveLength(items.length);
        const stored: string[] = [];
        items.forEach((item, i) => {
          const o = outcomes[i];
          const key = item.ok ? item.value.transactionId : item.key;
          if (o === undefined) throw new Error(`item ${i} has no outcome`);
          if (o.ok) {
            expect(Object.keys(o).sort()).toEqual(['cashback', 'ok', 'payment']);
            expect(o.payment.transaction_id).toBe(key);
          } else {
            expect(Object.keys(o).sort()).toEqual(['error', 'ok']);
            expect(o.error.key).toBe(key);
          }
          const storedHere =
            o.ok || o.error.code === 'no_offer' || o.error.code === 'zero_cashback';
          if (storedHere) stored.push(key);
        });
        expect(accepted.map((t) => t.transactionId)).toEqual(stored);
      }),
      { numRuns: 200 },
    );
  });
});
