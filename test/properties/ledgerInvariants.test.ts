/**
 * The invariants of the payment ledger in `cashback-engine/testing` (docs/testing.md,
 * Invariants): each passes a replay's own result and an engine's own events, and throws for a
 * result or events that break it, naming what broke. The budget's case is the issue's: a budget
 * of 10 paid 10, a return reported after the payment day, and 10 more paid in August.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/entry.js';
import { replay } from '../../src/index.js';
import { invariants } from '../../src/testing/index.js';
import { customer, offer, tx } from '../fixtures.js';

// t1: 100 at 5% on 2025-06-02, paid 5 on 2025-06-16 (warranty 14).
const input = {
  offers: [offer()],
  customers: [customer()],
  transactions: [tx({ amount: 100 })],
  returns: [
    // In time: 40 of 100 lowers the payment to 3.
    { return_id: 'r1', transaction_id: 't1', date: '2025-06-05T10:00:00', amount: 40 },
    // Dated in the warranty, reported once the payment was confirmed: claws back 1 (of 20).
    {
      return_id: 'r2',
      transaction_id: 't1',
      date: '2025-06-06T10:00:00',
      amount: 20,
      reported_at: '2025-06-16T00:00:00',
    },
  ],
};
const result = replay(input);

describe('invariants of the payment ledger', () => {
  it("pass a replay's own result, with clawbacks and with late returns ignored", () => {
    expect(result.adjustments.map((a) => a.cashback)).toEqual([3]);
    expect(result.clawbacks.map((c) => c.amount)).toEqual([1]);
    expect(() => invariants.all(input, result)).not.toThrow();
    const ignoring = { lateReturns: 'ignore' as const };
    const ignored = replay(input, ignoring);
    expect(ignored.returnErrors.map((e) => e.code)).toEqual(['late_return']);
    // The invariants take replay's options as they are.
    expect(() => invariants.all(input, ignored, { scale: 2, ...ignoring })).not.toThrow();
  });

  it('confirmedPaymentNeverChanges: a late return that adjusts, or an adjustment after a clawback', () => {
    const [a1] = result.adjustments;
    const lowered = {
      ...result,
      clawbacks: [],
      adjustments: [
        a1,
        { ...a1, return_id: 'r2', previous_cashback: 3, cashback: 2 },
      ] as typeof result.adjustments,
    };
    expect(() => invariants.confirmedPaymentNeverChanges(input, lowered)).toThrow(
      "adjustment of return r2 (transaction 't1'): the return arrived on 2025-06-16, once the payment was confirmed (payment_date 2025-06-16), and changed it from 3 to 2: a confirmed payment never changes",
    );
    // Out of arrival order: r2 (late) first, then r1, which says it arrived before.
    const outOfOrder = { ...input, returns: [input.returns[1], input.returns[0]] };
    const claw = { ...result.clawbacks[0], amount: 1 };
    const faulty = {
      ...result,
      clawbacks: [claw],
      adjustments: [{ ...a1, previous_cashback: 5, cashback: 3 }],
    } as typeof result;
    expect(() => invariants.confirmedPaymentNeverChanges(outOfOrder, faulty)).toThrow(
      /return r2, decided before it, found the payment confirmed/,
    );
    // In another zone the same return arrives on the day before (2025-06-15 in Los Angeles).
    expect(() =>
      invariants.confirmedPaymentNeverChanges(
        {
          ...input,
          returns: [input.returns[0], { ...input.returns[1], reported_at: '2025-06-16T05:00:00Z' }],
        },
        lowered,
        { timeZone: 'America/Los_Angeles' },
      ),
    ).not.toThrow();
  });

  it('clawbacksWithinCashback: more clawed back than paid, a clawback in time, or of no payment', () => {
    const [c] = result.clawbacks;
    const more = { ...result, clawbacks: [{ ...c, amount: 3.01 }] } as typeof result;
    expect(() => invariants.clawbacksWithinCashback(input, more)).toThrow(
      "clawback of return r2 (transaction 't1'): the payment's clawbacks add up to 3.01, more than its cashback 3",
    );
    const early = {
      ...input,
      returns: [input.returns[0], { ...input.returns[1], reported_at: '2025-06-15T23:59:59' }],
    };
    expect(() => invariants.clawbacksWithinCashback(early, result)).toThrow(
      /arrived on 2025-06-15, before the payment was confirmed \(payment_date 2025-06-16\): it should have adjusted it/,
    );
    const negative = { ...result, clawbacks: [{ ...c, amount: -1 }] } as typeof result;
    expect(() => invariants.clawbacksWithinCashback(input, negative)).toThrow(
      /amount -1 is below 0/,
    );
    const unpaid = { ...result, payments: [] } as typeof result;
    expect(() => invariants.clawbacksWithinCashback(input, unpaid)).toThrow(
      /the transaction has no payment/,
    );
  });

  it('budgetNeverPaysPastItsAmount: a confirmed payment lowered so that its budget paid again', () => {
    const funded = {
      offers: [offer({ discount: 10, budget: { amount: 10 } })],
      customers: [customer()],
      transactions: [
        tx({ amount: 100, date: '2025-05-26T10:00:00' }),
        tx({ transaction_id: 't2', amount: 100, date: '2025-08-20T10:00:00' }),
      ],
      returns: [
        {
          return_id: 'r1',
          transaction_id: 't1',
          date: '2025-06-01T10:00:00',
          reported_at: '2025-08-01T10:00:00',
        },
      ],
    };
    const right = replay(funded);
    // The engine's answer: t1 stays paid, a clawback of 10, and nothing left for t2.
    expect(right.payments.map((p) => p.cashback)).toEqual([10]);
    expect(right.clawbacks.map((c) => c.amount)).toEqual([10]);
    expect(() => invariants.all(funded, right)).not.toThrow();
    // A build that lowers the confirmed payment and gives its budget back pays 20 for 10.
    const [p1] = right.payments;
    const faulty = {
      ...right,
      payments: [p1, { ...p1, transaction_id: 't2', payment_date: '2025-09-03' }],
      errors: [],
      clawbacks: [],
      adjustments: [
        {
          return_id: 'r1',
          transaction_id: 't1',
          customer_id: 'c1',
          offer_id: 1,
          previous_cashback: 10,
          cashback: 0,
          payment_date: p1?.payment_date,
        },
      ],
    } as typeof right;
    // What the payments end at is within the budget: only what they paid out is not.
    expect(() => invariants.withinBudgets(funded, faulty)).not.toThrow();
    expect(() => invariants.budgetNeverPaysPastItsAmount(funded, faulty)).toThrow(
      "the payments of offer 1 in the whole offer (transactions 't1', 't2') add up to 20, more than the budget (as paid out, clawbacks included) of 10 (10.00 at 2 places)",
    );
  });
});

describe('eachPaymentConfirmedOnce', () => {
  /** An engine with t1 (due 2025-06-16) and t2 (due 2025-06-24) paid, its clock at `now`. */
  async function paid() {
    const now = [new Date('2025-06-10T00:00:00Z')];
    let n = 0;
    const engine = createEngine({ clock: () => now[0] as Date, ids: () => `e${++n}` });
    await engine.upsertOffers([offer()]);
    await engine.upsertCustomers('bank-a', [customer()]);
    await engine.addTransactions('bank-a', [
      tx({ amount: 100 }),
      tx({ transaction_id: 't2', amount: 40, date: '2025-06-10T08:00:00' }),
    ]);
    const events = () => engine.store.outbox.list('bank-a', { limit: 100 });
    return { engine, now, events };
  }
  const payments = [
    { transaction_id: 't1', cashback: 5, payment_date: '2025-06-16' },
    { transaction_id: 't2', cashback: 2, payment_date: '2025-06-24' },
  ];

  it("passes an engine's events, confirmed day by day, whatever the calls", async () => {
    const { engine, now, events } = await paid();
    now[0] = new Date('2025-06-16T00:00:00Z');
    await engine.confirmDue();
    await engine.confirmDue();
    invariants.eachPaymentConfirmedOnce(await events(), { payments, through: '2025-06-16' });
    now[0] = new Date('2025-06-30T00:00:00Z');
    await engine.confirmDue();
    invariants.eachPaymentConfirmedOnce(await events(), { payments, through: '2025-06-30' });
    expect(() =>
      invariants.eachPaymentConfirmedOnce([], { payments, through: '2025-06-30' }),
    ).toThrow("payment 't1': due on 2025-06-16, but no event confirms it");
  });

  it('throws for a payment confirmed twice, too early, with another cashback, or a malformed event', async () => {
    const { engine, now, events } = await paid();
    now[0] = new Date('2025-06-30T00:00:00Z');
    await engine.confirmDue();
    const confirmed = (await events()).filter((e) => e.type === 'cashback.confirmed');
    expect(confirmed).toHaveLength(2);
    const [first] = confirmed;
    if (first === undefined) throw new Error('no event');
    expect(() => invariants.eachPaymentConfirmedOnce([...confirmed, first])).toThrow(
      "payment 't1' is confirmed twice: by event 'e2' and by event 'e2'",
    );
    expect(() =>
      invariants.eachPaymentConfirmedOnce(confirmed, { payments, through: '2025-06-20' }),
    ).toThrow(
      "payment 't2': confirmed by event 'e3', but it is due on 2025-06-24, after 2025-06-20",
    );
    expect(() =>
      invariants.eachPaymentConfirmedOnce(confirmed, {
        payments: [{ ...payments[0], cashback: 4 }, payments[1]] as typeof payments,
        through: '2025-06-30',
      }),
    ).toThrow(
      "payment 't1': confirmed with 5 on 2025-06-16, but its final cashback is 4 on 2025-06-16",
    );
    const records = (first.payload.data as { records: Record<string, unknown>[] }).records;
    const mixed = {
      ...first,
      payload: {
        ...first.payload,
        data: {
          records: [
            ...records,
            { ...records[0], transaction_id: 'tx', date: '2025-06-17T00:00:00.000' },
          ],
        },
      },
    };
    expect(() => invariants.eachPaymentConfirmedOnce([mixed])).toThrow(
      "cashback.confirmed event 'e2': mixes payment days",
    );
    const many = {
      ...first,
      payload: {
        ...first.payload,
        data: {
          records: Array.from({ length: 1001 }, (_, i) => ({
            ...records[0],
            transaction_id: `t${i}`,
          })),
        },
      },
    };
    expect(() => invariants.eachPaymentConfirmedOnce([many])).toThrow(
      "cashback.confirmed event 'e2': has 1001 records, more than 1000",
    );
  });
});
