import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decideReturns } from '../../../src/core/returns/decideReturns.js';
import { parseReturns } from '../../../src/core/returns/parseReturns.js';
import type { ReturnDecision } from '../../../src/core/returns/ReturnOutcome.js';
import type { ReturnableTransaction, ReturnState } from '../../../src/core/returns/ReturnState.js';
import { compileOfferSet } from '../../../src/matching/compileOffers.js';
import { parseDateTime, type WallClock } from '../../../src/model/dateTime.js';
import { type ExactAmount, Money, parseAmount } from '../../../src/model/money.js';
import { resolveOptions } from '../../../src/model/options.js';
import { offer } from '../../fixtures.js';

const OFFER = compileOfferSet([offer({ max_cashback: 7, min_amount: 20 })]).compiled[0];
const OPTIONS = resolveOptions();
const IDS = ['t0', 't1', 't2'];

/** A stored transaction: amount in cents, cashback paid (cents) or none, returned so far. */
interface Stored {
  readonly amount: number;
  readonly paid: number | undefined;
}

/** The state a model keeps: stored return ids, returned and current cashback by transaction. */
interface Model {
  readonly returnIds: Set<string>;
  readonly returned: Map<string, string>;
  readonly cashback: Map<string, string>;
}

const storedArb = fc.record({
  amount: fc.integer({ min: 1, max: 20_000 }),
  paid: fc.option(fc.integer({ min: 0, max: 700 }), { nil: undefined }),
});

const returnArb = fc.record({
  return_id: fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5', 'r6'),
  transaction_id: fc.constantFrom('t0', 't1', 't2', 'tx'),
  date: fc
    .integer({ min: 1, max: 20 })
    .map((d) => `2025-06-${String(d).padStart(2, '0')}T08:00:00`),
  amount: fc.option(
    fc.integer({ min: 1, max: 12_000 }).map((c) => (c / 100).toFixed(2)),
    { nil: undefined },
  ),
});

const cents = (n: number) => (n / 100).toFixed(2);

function stateOf(stored: readonly Stored[], model: Model): ReturnState {
  const txs = new Map<string, ReturnableTransaction>();
  stored.forEach((s, i) => {
    const id = IDS[i] as string;
    const cashback = model.cashback.get(id);
    txs.set(id, {
      transactionId: id,
      customerId: 'c1',
      when: parseDateTime('2025-06-02T09:15:00', 'UTC') as WallClock,
      amount: parseAmount(cents(s.amount)) as ExactAmount,
      returned: model.returned.get(id) ?? '0',
      payment:
        cashback === undefined || OFFER === undefined
          ? undefined
          : {
              offer: OFFER,
              offerRevision: 1,
              cashback,
              paymentDate: '2025-06-12',
              clawedBack: '0',
            },
    });
  });
  return {
    options: OPTIONS,
    hasReturn: (id) => model.returnIds.has(id),
    transaction: (id) => txs.get(id),
  };
}

function modelOf(stored: readonly Stored[]): Model {
  const cashback = new Map<string, string>();
  stored.forEach((s, i) => {
    if (s.paid !== undefined) cashback.set(IDS[i] as string, cents(s.paid));
  });
  return { returnIds: new Set(), returned: new Map(), cashback };
}

/** What storing a decision does to the model, as the engine stores it. */
function apply(model: Model, d: ReturnDecision): void {
  for (const r of d.accepted) {
    model.returnIds.add(r.returnId);
    const before = model.returned.get(r.transactionId) ?? '0';
    model.returned.set(r.transactionId, new Money(before).plus(r.amount).toFixed());
  }
  for (const c of d.changes) model.cashback.set(c.transactionId, c.cashback);
}

describe('decideReturns, properties', () => {
  test('a batch decides as its consecutive chunks, each on what the ones before stored', () => {
    fc.assert(
      fc.property(
        fc.array(storedArb, { minLength: 3, maxLength: 3 }),
        fc.array(returnArb, { maxLength: 10 }),
        fc.nat(10),
        (stored, returns, cut) => {
          const at = Math.min(cut, returns.length);
          const whole = decideReturns(
            parseReturns(returns, 'UTC'),
            stateOf(stored, modelOf(stored)),
          );
          const model = modelOf(stored);
          const first = decideReturns(
            parseReturns(returns.slice(0, at), 'UTC'),
            stateOf(stored, model),
          );
          apply(model, first);
          const second = decideReturns(
            parseReturns(returns.slice(at), 'UTC', at),
            stateOf(stored, model),
          );
          expect([...first.outcomes, ...second.outcomes]).toEqual(whole.outcomes);
          expect([...first.accepted, ...second.accepted]).toEqual(whole.accepted);
        },
      ),
    );
  });

  test('never raises a payment, and never returns more than bought', () => {
    fc.assert(
      fc.property(
        fc.array(storedArb, { minLength: 3, maxLength: 3 }),
        fc.array(returnArb, { maxLength: 12 }),
        (stored, returns) => {
          const model = modelOf(stored);
          const d = decideReturns(parseReturns(returns, 'UTC'), stateOf(stored, model));
          expect(d.outcomes).toHaveLength(returns.length);
          for (const o of d.outcomes) {
            if (o.ok && o.kind === 'adjustment')
              expect(new Money(o.cashback).lte(o.previous)).toBe(true);
          }
          apply(model, d);
          stored.forEach((s, i) => {
            const id = IDS[i] as string;
            expect(new Money(model.returned.get(id) ?? '0').lte(cents(s.amount))).toBe(true);
            const now = model.cashback.get(id);
            if (now !== undefined) expect(new Money(now).lte(cents(s.paid ?? 0))).toBe(true);
          });
        },
      ),
    );
  });
});
