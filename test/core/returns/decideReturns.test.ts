import { describe, expect, test } from 'vitest';
import { decideReturns } from '../../../src/core/returns/decideReturns.js';
import { parseReturns } from '../../../src/core/returns/parseReturns.js';
import type { ReturnableTransaction, ReturnState } from '../../../src/core/returns/ReturnState.js';
import { compileOfferSet } from '../../../src/matching/compileOffers.js';
import { parseDateTime, type WallClock } from '../../../src/model/dateTime.js';
import { type ExactAmount, parseAmount } from '../../../src/model/money.js';
import { type CoreOptions, resolveOptions } from '../../../src/model/options.js';
import { offer } from '../../fixtures.js';

const when = (text: string) => parseDateTime(text, 'UTC') as WallClock;
const amount = (text: string) => parseAmount(text) as ExactAmount;

/** Offer 1: 5 % at Coffee House, warranty 14 days; overrides change it. */
function offerOf(over: Record<string, unknown> = {}) {
  const set = compileOfferSet([offer(over)]);
  const o = set.compiled[0];
  if (o === undefined) throw new Error('offer did not compile');
  return o;
}

interface TxSpec {
  readonly amount?: string;
  readonly returned?: string;
  readonly cashback?: string | undefined;
  readonly paymentDate?: string;
  readonly offer?: Record<string, unknown>;
}

/** Transaction t1 of 2025-06-02 09:15, 100.00, paid 5.00 on 2025-06-16 by default. */
function txOf(id: string, spec: TxSpec = {}): ReturnableTransaction {
  const paid = !('cashback' in spec) || spec.cashback !== undefined;
  return {
    transactionId: id,
    customerId: 'c1',
    when: when('2025-06-02T09:15:00.000'),
    amount: amount(spec.amount ?? '100'),
    returned: spec.returned ?? '0',
    payment: paid
      ? {
          offer: offerOf(spec.offer),
          offerRevision: 1,
          cashback: spec.cashback ?? '5',
          paymentDate: spec.paymentDate ?? '2025-06-16',
          clawedBack: '0',
        }
      : undefined,
  };
}

function stateOf(
  txs: readonly ReturnableTransaction[],
  storedReturns: readonly string[] = [],
  options: CoreOptions = {},
): ReturnState {
  const byId = new Map(txs.map((t) => [t.transactionId, t]));
  return {
    options: resolveOptions(options),
    hasReturn: (id) => storedReturns.includes(id),
    transaction: (id) => byId.get(id),
  };
}

const ret = (id: string, over: Record<string, unknown> = {}) => ({
  return_id: id,
  transaction_id: 't1',
  date: '2025-06-05T10:00:00',
  ...over,
});

function decideOf(returns: readonly unknown[], state: ReturnState) {
  return decideReturns(parseReturns(returns, 'UTC'), state);
}

const codes = (d: ReturnType<typeof decideReturns>) =>
  d.outcomes.map((o) =>
    !o.ok
      ? o.error.code
      : o.kind === 'adjustment'
        ? `adjusted ${o.adjustment.cashback}`
        : 'clawback',
  );

describe('decideReturns', () => {
  test('a return of part of a paid transaction lowers its cashback to that of the net amount', () => {
    const d = decideOf([ret('r1', { amount: 40 })], stateOf([txOf('t1')]));
    expect(d.outcomes).toEqual([
      {
        ok: true,
        kind: 'adjustment',
        adjustment: {
          return_id: 'r1',
          transaction_id: 't1',
          customer_id: 'c1',
          offer_id: 1,
          previous_cashback: 5,
          cashback: 3,
          payment_date: '2025-06-16',
        },
        previous: '5',
        cashback: '3',
      },
    ]);
    expect(d.accepted.map((r) => [r.returnId, r.amount])).toEqual([['r1', '40']]);
    expect(d.changes).toEqual([{ transactionId: 't1', previous: '5', cashback: '3' }]);
  });

  test('a return without amount returns all that is left and cancels the payment', () => {
    const d = decideOf([ret('r1')], stateOf([txOf('t1', { returned: '30', cashback: '3.5' })]));
    expect(codes(d)).toEqual(['adjusted 0']);
    expect(d.accepted[0]?.amount).toBe('70');
    expect(d.changes).toEqual([{ transactionId: 't1', previous: '3.5', cashback: '0' }]);
  });

  test('runs the checks in order, the first that fails naming the error', () => {
    const state = stateOf([txOf('t1', { returned: '90' })], ['stored']);
    const d = decideOf(
      [
        ret('bad', { amount: 'x' }),
        ret('stored', { transaction_id: 'nowhere', date: '2000-01-01T00:00:00' }),
        ret('lost', { transaction_id: 'nowhere', date: '2000-01-01T00:00:00' }),
        ret('early', { date: '2025-06-02T09:14:59.999', amount: 1000 }),
        ret('big', { amount: '10.01' }),
        { transaction_id: 't1' },
      ],
      state,
    );
    expect(
      d.outcomes.map((o) =>
        !o.ok ? [o.error.key, o.error.code] : o.kind === 'adjustment' ? o.adjustment.return_id : '',
      ),
    ).toEqual([
      ['bad', 'invalid_return'],
      ['stored', 'duplicate_return'],
      ['lost', 'transaction_not_found'],
      ['early', 'invalid_return'],
      ['big', 'return_exceeds_amount'],
      ['#5', 'invalid_return'],
    ]);
    const early = d.outcomes[3];
    expect(early?.ok ? '' : early?.error.message).toBe(
      "Invalid return: date is before the transaction's date-time 2025-06-02T09:15:00.000",
    );
    expect(d.accepted).toEqual([]);
    expect(d.changes).toEqual([]);
  });

  test('a return at the transaction date-time itself, and of exactly what is left, is accepted', () => {
    const d = decideOf(
      [ret('r1', { date: '2025-06-02T09:15:00', amount: '10' })],
      stateOf([txOf('t1', { returned: '90' })]),
    );
    expect(codes(d)).toEqual(['adjusted 0']);
  });

  test('counts the returns earlier in the batch: two returns of one transaction', () => {
    const d = decideOf(
      [ret('r1', { amount: 60 }), ret('r2', { amount: 50 }), ret('r3', { amount: 40 }), ret('r4')],
      stateOf([txOf('t1')]),
    );
    expect(codes(d)).toEqual([
      'adjusted 2',
      'return_exceeds_amount',
      'adjusted 0',
      'return_exceeds_amount',
    ]);
    const second = d.outcomes[2];
    expect(second?.ok && second.kind === 'adjustment' && second.adjustment.previous_cashback).toBe(
      2,
    );
    const last = d.outcomes[3];
    expect(last?.ok ? '' : last?.error.message).toBe(
      "Nothing is left to return of transaction 't1': all of it is returned",
    );
    expect(d.accepted.map((r) => r.returnId)).toEqual(['r1', 'r3']);
    expect(d.changes).toEqual([{ transactionId: 't1', previous: '5', cashback: '0' }]);
  });

  test('an id stored earlier in the batch is a duplicate; one refused earlier is not', () => {
    const d = decideOf(
      [
        ret('r1', { transaction_id: 'nowhere' }),
        ret('r1', { amount: 10 }),
        ret('r1', { amount: 10 }),
      ],
      stateOf([txOf('t1')]),
    );
    expect(codes(d)).toEqual(['transaction_not_found', 'adjusted 4.5', 'duplicate_return']);
  });

  test('a stored return of an unpaid transaction, or of a payment at 0, is not_paid', () => {
    const d = decideOf(
      [ret('r1', { amount: 1 }), ret('r2', { transaction_id: 't2', amount: 1 })],
      stateOf([txOf('t1', { cashback: undefined }), { ...txOf('t2', { cashback: '0' }) }]),
    );
    expect(codes(d)).toEqual(['not_paid', 'not_paid']);
    expect(d.accepted.map((r) => r.returnId)).toEqual(['r1', 'r2']);
    expect(d.changes).toEqual([]);
  });

  test('a return on or after the payment day leaves the cashback standing, and is stored', () => {
    const d = decideOf(
      [
        ret('on', { date: '2025-06-16T00:00:00', amount: 1 }),
        ret('eve', { date: '2025-06-15T23:59:59.999', amount: 1 }),
      ],
      stateOf([txOf('t1')]),
    );
    expect(codes(d)).toEqual(['after_warranty', 'adjusted 4.9']);
    const on = d.outcomes[0];
    expect(on?.ok ? '' : on?.error.message).toBe(
      'Returned on 2025-06-16, on or after the payment day 2025-06-16: the cashback stands',
    );
    expect(d.accepted.map((r) => r.returnId)).toEqual(['on', 'eve']);
  });

  test('works the net cashback out with the offer: max_cashback, min_amount, rounding', () => {
    // A cap still paid on the net amount leaves the payment as it was.
    const capped = decideOf(
      [ret('r1', { amount: 10 })],
      stateOf([txOf('t1', { cashback: '2', offer: { max_cashback: 2 } })]),
    );
    expect(codes(capped)).toEqual(['adjusted 2']);
    expect(capped.changes).toEqual([]);
    // Below min_amount the net earns nothing.
    const min = decideOf(
      [ret('r1', { amount: '50.01' })],
      stateOf([txOf('t1', { offer: { min_amount: 50 } })]),
    );
    expect(codes(min)).toEqual(['adjusted 0']);
    const atMin = decideOf(
      [ret('r1', { amount: 50 })],
      stateOf([txOf('t1', { offer: { min_amount: 50 } })]),
    );
    expect(codes(atMin)).toEqual(['adjusted 2.5']);
    // 5 % of 0.3 is 0.015: half-up gives 0.02, down gives 0.01.
    const small = (rounding: 'half-up' | 'down') =>
      codes(decideOf([ret('r1', { amount: '99.7' })], stateOf([txOf('t1')], [], { rounding })));
    expect(small('half-up')).toEqual(['adjusted 0.02']);
    expect(small('down')).toEqual(['adjusted 0.01']);
  });

  test('never raises a payment: the new cashback is at most the cashback before', () => {
    // Paid 1.00 (say, capped then), the net's cashback 4.50 would be more.
    const d = decideOf([ret('r1', { amount: 10 })], stateOf([txOf('t1', { cashback: '1' })]));
    expect(codes(d)).toEqual(['adjusted 1']);
    expect(d.changes).toEqual([]);
  });

  test('changes none of its inputs, and decides the same again', () => {
    const state = stateOf([txOf('t1')]);
    const items = parseReturns([ret('r1', { amount: 50 }), ret('r2', { amount: 50 })], 'UTC');
    const first = decideReturns(items, state);
    expect(decideReturns(items, state)).toEqual(first);
    expect(state.transaction('t1')?.returned).toBe('0');
  });

  test('throws a TypeError naming returns when they are not an array', () => {
    expect(() => parseReturns({} as never, 'UTC')).toThrow(/returns must be an array/);
  });
});
