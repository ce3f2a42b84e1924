import { describe, expect, test } from 'vitest';
import { explain } from '../../../src/core/explain.js';
import { createEngine } from '../../../src/engine/createEngine.js';
import { customer, offer, tx } from '../../fixtures.js';

const t1 = tx({ amount: 100 }); // pays 5 on 2025-06-16
const r1 = { return_id: 'r1', transaction_id: 't1', date: '2025-06-05T10:00:00', amount: 40 };
const r2 = { return_id: 'r2', transaction_id: 't1', date: '2025-06-20T10:00:00', amount: 10 };

describe('explain with returns', () => {
  test('says what the returns did: stored returns, what is left, the adjustments, the cashback now', () => {
    const why = explain(t1, { offers: [offer()], customer: customer(), returns: [r1, r2] });
    expect(why.outcome.ok).toBe(true);
    expect(why.returns).toMatchObject({
      returns: [
        { return_id: 'r1', date: '2025-06-05T10:00:00.000', amount: '40' },
        { return_id: 'r2', date: '2025-06-20T10:00:00.000', amount: '10' },
      ],
      returned: '50',
      left: '50',
      cashback: 3,
      adjustments: [{ return_id: 'r1', previous_cashback: 5, cashback: 3 }],
      errors: [{ key: 'r2', code: 'after_warranty' }],
    });
  });

  test('a transaction that is not stored has nothing to return', () => {
    const why = explain(t1, { offers: [offer()], customer: undefined, returns: [r1] });
    expect(why.returns?.errors?.map((e) => e.code)).toEqual(['transaction_not_found']);
    expect(why.returns?.cashback).toBeUndefined();
  });

  test('without returns in the context it says nothing of them', () => {
    expect(explain(t1, { offers: [offer()], customer: customer() }).returns).toBeUndefined();
  });
});

describe('engine.explain of a returned transaction', () => {
  test('gives its stored returns by date-time, what is left, the cashback now and its history', async () => {
    const engine = createEngine({ clock: () => new Date('2025-06-03T12:00:00Z') });
    await engine.upsertOffers([offer()]);
    await engine.upsertCustomers('p', [customer()]);
    await engine.addTransactions('p', [t1, tx({ transaction_id: 't2' })]);
    await engine.addReturns('p', [r2, r1]);
    const why = await engine.explain('p', t1);
    expect(why.outcome.ok === false && why.outcome.error.code).toBe('duplicate_transaction');
    expect(why.returns).toEqual({
      returns: [
        { return_id: 'r1', date: '2025-06-05T10:00:00.000', amount: '40' },
        { return_id: 'r2', date: '2025-06-20T10:00:00.000', amount: '10' },
      ],
      returned: '50',
      left: '50',
      // r2 was stored first (after the payment day), so r1 left 50 to pay on: 2.5.
      cashback: 2.5,
      offer_revision: 1,
      // The payment's history: r1's adjustment (r2 was after the warranty, and adjusted nothing).
      adjustments: [
        {
          return_id: 'r1',
          transaction_id: 't1',
          customer_id: 'c1',
          offer_id: 1,
          previous_cashback: 5,
          cashback: 2.5,
          payment_date: '2025-06-16',
        },
      ],
      clawbacks: [],
    });
    // A stored transaction without returns, and a new one, say nothing of returns.
    expect((await engine.explain('p', tx({ transaction_id: 't2' }))).returns).toBeUndefined();
    expect((await engine.explain('p', tx({ transaction_id: 't3' }))).returns).toBeUndefined();
  });
});
