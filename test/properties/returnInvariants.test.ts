/**
 * The invariants of returns and `returnsArbitrary` of `cashback-engine/testing`: each invariant
 * throws for a result that breaks it, and passes a replay's own result.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/index.js';
import { invariants, returnsArbitrary } from '../../src/testing/index.js';
import { customer, offer, tx } from '../fixtures.js';

const input = {
  offers: [offer()],
  customers: [customer()],
  transactions: [tx({ amount: 100 })],
  returns: [
    { return_id: 'r1', transaction_id: 't1', date: '2025-06-05T10:00:00', amount: 40 },
    { return_id: 'r2', transaction_id: 't1', date: '2025-06-06T10:00:00', amount: 60 },
  ],
};
const result = replay(input);

describe('invariants of returns', () => {
  it("pass a replay's own result", () => {
    expect(result.adjustments.map((a) => a.cashback)).toEqual([3, 0]);
    expect(() => invariants.all(input, result)).not.toThrow();
  });

  it('returnNeverRaisesPayment: an adjustment above its previous cashback, or off the chain', () => {
    const [a1, a2] = result.adjustments;
    const raised = { ...result, adjustments: [a1, { ...a2, cashback: 4 }] } as typeof result;
    expect(() => invariants.returnNeverRaisesPayment(input, raised)).toThrow(
      'adjustment of return r2: cashback 4 is above previous_cashback 3',
    );
    const skipped = { ...result, adjustments: [a2] } as typeof result;
    expect(() => invariants.returnNeverRaisesPayment(input, skipped)).toThrow(
      'adjustment of return r2: previous_cashback 3, but the payment had 5',
    );
  });

  it('netCashbackIsSumOfPayments: a net that is not the current payments', () => {
    const s = result.summary;
    const wrong = {
      ...result,
      summary: { ...s, returns: { ...s.returns, netCashback: '5.00' } },
    } as typeof result;
    expect(() => invariants.netCashbackIsSumOfPayments(input, wrong)).toThrow(
      'netCashback 5.00 is not the sum of the current payments 0',
    );
  });

  it('returnedWithinAmount: returns stored beyond the amount, or an outcome missing', () => {
    const more = {
      ...input,
      returns: [...input.returns.slice(0, 1), { ...input.returns[1], amount: 61 }],
    };
    expect(() => invariants.returnedWithinAmount(more, result)).toThrow(
      'return r2 of t1: returns add up to 101, more than the amount 100',
    );
    const missing = { ...result, adjustments: result.adjustments.slice(0, 1) } as typeof result;
    expect(() => invariants.returnedWithinAmount(input, missing)).toThrow(
      'return r2 (#1) has no outcome in adjustments, clawbacks or returnErrors',
    );
  });
});

describe('pairing returns with their outcomes when an id comes twice', () => {
  const base = { offers: [offer()], customers: [customer()], transactions: [tx({ amount: 100 })] };
  const cases: Record<string, unknown[]> = {
    'stored, then rejected for its date': [
      { return_id: 'r0', transaction_id: 't1', date: '2025-06-05T10:00:00', amount: 40 },
      { return_id: 'r0', transaction_id: 't1', date: '2025-02-30T10:00:00' },
    ],
    'rejected, then stored': [
      { return_id: 'r0', transaction_id: 'nobody', date: '2025-06-05T10:00:00' },
      { return_id: 'r0', transaction_id: 't1', date: '2025-06-05T10:00:00', amount: 40 },
    ],
    'clawed back, then a duplicate': [
      {
        return_id: 'r0',
        transaction_id: 't1',
        date: '2025-06-05T10:00:00',
        amount: 40,
        reported_at: '2025-06-20T10:00:00',
      },
      { return_id: 'r0', transaction_id: 't1', date: '2025-06-05T10:00:00', amount: 10 },
    ],
  };
  for (const [name, returns] of Object.entries(cases)) {
    it(`pairs a replay's own result: ${name}`, () => {
      const data = { ...base, returns };
      const r = replay(data);
      expect(r.adjustments.length + r.clawbacks.length).toBe(1);
      expect(r.returnErrors).toHaveLength(1);
      expect(() => invariants.all(data, r)).not.toThrow();
    });
  }
});

describe('returnsArbitrary', () => {
  it('draws returns of the given transactions only, several per transaction', () => {
    const data = { transactions: [tx(), tx({ transaction_id: 't2' })] };
    const lists = fc.sample(returnsArbitrary(data, { invalidRate: 0 }), { numRuns: 50, seed: 1 });
    const named = new Set(
      lists.flat().map((r) => (r as { transaction_id: string }).transaction_id),
    );
    expect([...named].sort()).toEqual(['t1', 't2']);
  });

  it('refuses an unknown option and a bad rate', () => {
    expect(() => returnsArbitrary({ transactions: [] }, { maxReturn: 3 } as never)).toThrow(
      TypeError,
    );
    expect(() => returnsArbitrary({ transactions: [] }, { invalidRate: 2 })).toThrow(
      new RangeError('invalidRate must be between 0 and 1, got 2'),
    );
  });
});
