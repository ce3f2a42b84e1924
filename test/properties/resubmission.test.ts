/**
 * Property 4: pushing the same transactions again in the same session. docs/concepts.md, Outcomes and error codes: checks run
 * validation, duplicate, customer, then matching; valid transactions of known customers are stored
 * whatever they earn, invalid ones and those of unknown customers are not. So the second time:
 * - an invalid item is invalid again (its `#<index>` key counts on from the stream's start);
 * - any other item whose id was stored by the end of the first pass (history included) is a
 *   `duplicate_transaction`: everything accepted the first time, every first-time duplicate, and
 *   an unknown customer's item whose id a later item got stored;
 * - the rest, unknown customers' items with ids never stored, are `customer_not_found` again.
 * Nothing pays twice.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReplay, type Outcome } from '../../src/index.js';
import { scenarioArbitrary } from '../../src/testing/index.js';
import { optionsArbitrary } from './_options.js';

const keyOf = (o: Outcome): string => (o.ok ? o.payment.transaction_id : o.error.key);
const codeOf = (o: Outcome): string => (o.ok ? 'paid' : o.error.code);

describe('submitting the same transactions twice in one session', () => {
  it('gives duplicate_transaction for every id stored by then, and the same error again for the rest', () => {
    fc.assert(
      fc.property(
        scenarioArbitrary({ invalidRate: 0.15, unknownCustomerRate: 0.2, duplicateRate: 0.2 }),
        optionsArbitrary,
        (scenario, options) => {
          // Transactions come in any date order here: a session that accepts any order.
          const session = createReplay(scenario, { ...options, maxLatenessDays: Infinity });
          const first = session.push(scenario.transactions);
          const second = session.push(scenario.transactions);
          const n = scenario.transactions.length;
          // Stored by the end of the first pass, as far as these items can tell: every id that
          // was accepted or found already stored. (A history id that no item met does not matter.)
          const stored = new Set(
            first
              .filter((o) =>
                ['paid', 'no_offer', 'zero_cashback', 'duplicate_transaction'].includes(codeOf(o)),
              )
              .map(keyOf),
          );

          expect(second).toHaveLength(n);
          second.forEach((again, i) => {
            const before = first[i] as Outcome;
            const key = keyOf(before);
            if (before.ok || before.error.code !== 'invalid_transaction') {
              if (stored.has(key)) {
                expect({ i, key: keyOf(again), code: codeOf(again) }).toEqual({
                  i,
                  key,
                  code: 'duplicate_transaction',
                });
              } else {
                // Only an unknown customer's item whose id nothing stored.
                expect({ i, code: codeOf(before) }).toEqual({ i, code: 'customer_not_found' });
                expect(again).toEqual(before);
              }
            } else {
              // The same problems; an item without a usable id is keyed by its stream position.
              const expectedKey = /^#\d+$/.test(key) ? `#${n + i}` : key;
              expect(again).toEqual({ ok: false, error: { ...before.error, key: expectedKey } });
            }
          });
        },
      ),
      { numRuns: 150 },
    );
  });
});
