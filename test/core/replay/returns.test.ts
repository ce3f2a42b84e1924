import { describe, expect, test } from 'vitest';
import { createReplay } from '../../../src/core/replay/createReplay.js';
import { replay } from '../../../src/core/replay/replay.js';
import { replayStream } from '../../../src/core/replay/replayStream.js';
import { customer, history, offer, tx } from '../../fixtures.js';

const offers = [offer()];
const customers = [customer()];
/** t1: 100 at Coffee House on 2025-06-02 09:15, paid 5 on 2025-06-16. */
const t1 = tx({ amount: 100 });
const t2 = tx({ transaction_id: 't2', date: '2025-06-10T08:00:00', amount: 20 });
const ret = (id: string, over: Record<string, unknown> = {}) => ({
  return_id: id,
  transaction_id: 't1',
  date: '2025-06-05T10:00:00',
  ...over,
});

describe('replay with returns', () => {
  test('adjusts a payment on the decided state, and payments stay as answered', () => {
    const r = replay({
      offers,
      customers,
      transactions: [t1],
      returns: [ret('r1', { amount: 40 }), ret('r2', { date: '2025-06-20T10:00:00', amount: 10 })],
    });
    expect(r.payments.map((p) => p.cashback)).toEqual([5]);
    expect(r.adjustments).toEqual([
      {
        return_id: 'r1',
        transaction_id: 't1',
        customer_id: 'c1',
        offer_id: 1,
        previous_cashback: 5,
        cashback: 3,
        payment_date: '2025-06-16',
      },
    ]);
    expect(r.returnErrors.map((e) => [e.key, e.code])).toEqual([['r2', 'after_warranty']]);
    expect(r.summary.totalCashback).toBe('5.00');
    expect(r.summary.returns).toMatchObject({
      returns: 2,
      adjusted: 1,
      adjustedCashback: '2.00',
      netCashback: '3.00',
    });
    expect(r.summary.returns?.errors.after_warranty).toBe(1);
  });

  test('a return goes before the next transaction only when strictly before it', () => {
    // r1 at t1's own instant: t1 goes first, so r1 finds it.
    const same = replay({
      offers,
      customers,
      transactions: [t1],
      returns: [ret('r1', { date: t1.date })],
    });
    expect(same.adjustments.map((a) => a.cashback)).toEqual([0]);
    // r1 a millisecond before: r1 goes first and finds no transaction.
    const before = replay({
      offers,
      customers,
      transactions: [t1],
      returns: [ret('r1', { date: '2025-06-02T09:14:59.999' })],
    });
    expect(before.returnErrors.map((e) => e.code)).toEqual(['transaction_not_found']);
  });

  test('a return whose date cannot be read goes before every other, so the next one is not held back', () => {
    const r = replay({
      offers,
      customers,
      transactions: [t1, t2],
      returns: [
        ret('bad', { date: 'soon' }),
        ret('r1', { transaction_id: 't2', date: '2025-06-05T10:00:00' }),
      ],
    });
    // r1 (dated before t2) is decided before t2 is stored; held back to the end it would be
    // `invalid_return` (dated before its transaction).
    expect(r.returnErrors.map((e) => [e.key, e.code])).toEqual([
      ['bad', 'invalid_return'],
      ['r1', 'transaction_not_found'],
    ]);
  });

  test('a transaction whose date cannot be read goes before the next return', () => {
    const bad = tx({ transaction_id: 'tb', date: 'later' });
    const r = replay({ offers, customers, transactions: [t1, bad], returns: [ret('r1')] });
    expect(r.errors.map((e) => e.key)).toEqual(['tb']);
    expect(r.adjustments).toHaveLength(1);
  });

  test('returns of history are stored but not paid', () => {
    const r = replay({
      offers,
      customers,
      history: [history({ transaction_id: 'h1', date: '2025-05-01T10:00:00' })],
      transactions: [],
      returns: [ret('r1', { transaction_id: 'h1' })],
    });
    expect(r.returnErrors.map((e) => e.code)).toEqual(['not_paid']);
  });

  test('without returns the result has empty lists and the summary no returns', () => {
    const r = replay({ offers, customers, transactions: [t1] });
    expect(r.adjustments).toEqual([]);
    expect(r.returnErrors).toEqual([]);
    expect(r.summary.returns).toBeUndefined();
  });

  test('refuses returns that are not an array', () => {
    expect(() => replay({ offers, customers, transactions: [], returns: {} as never })).toThrow(
      new TypeError('data.returns must be an array, got an object'),
    );
  });
});

describe('createReplay with returns', () => {
  test('pushReturns decides as replay does, whatever the chunks', () => {
    const returns = [ret('r1', { amount: 40 }), ret('r2', { amount: 40 }), ret('r3')];
    const whole = replay({ offers, customers, transactions: [t1], returns });
    const s = createReplay({ offers, customers }, { returns: true });
    s.push([t1]);
    const outcomes = [...s.pushReturns(returns.slice(0, 1)), ...s.pushReturns(returns.slice(1))];
    expect(
      outcomes.flatMap((o) => (o.ok && o.kind === 'adjustment' ? [o.adjustment] : [])),
    ).toEqual(whole.adjustments);
    expect(outcomes.flatMap((o) => (o.ok ? [] : [o.error]))).toEqual(whole.returnErrors);
    expect(s.summary()).toEqual(whole.summary);
    expect(s.retained().returnable).toBe(1);
  });

  test('keys of returns without a usable id count from the first return pushed', () => {
    const s = createReplay({ offers, customers }, { returns: true });
    s.pushReturns([ret('r1')]);
    const [o] = s.pushReturns([{}]);
    expect(o?.ok === false && o.error.key).toBe('#1');
  });

  test('a session opened without returns keeps nothing for them and refuses them', () => {
    const s = createReplay({ offers, customers });
    s.push([t1]);
    expect(s.retained().returnable).toBe(0);
    expect(s.summary().returns).toBeUndefined();
    expect(() => s.pushReturns([ret('r1')])).toThrow(TypeError);
  });

  test('refuses a bad returns option and returns that are not an array', () => {
    expect(() => createReplay({ offers, customers }, { returns: 'yes' as never })).toThrow(
      new TypeError('createReplay options.returns must be a boolean, got the string "yes"'),
    );
    const s = createReplay({ offers, customers }, { returns: true });
    expect(() => s.pushReturns('r1' as never)).toThrow(TypeError);
    expect(() => createReplay({ offers, customers }, { return: true } as never)).toThrow(/return/);
  });
});

describe('replayStream with returns', () => {
  const returns = [
    ret('r1', { amount: 40 }),
    ret('r2', { transaction_id: 't2', date: '2025-06-11T10:00:00' }),
    ret('r3', { date: '2025-06-03T00:00:00', amount: 1 }),
  ];
  const whole = replay({ offers, customers, transactions: [t1, t2], returns });

  test('collect() gives the adjustments and return errors of replay, whatever the chunk size', async () => {
    for (const chunkSize of [1, 2]) {
      const got = await replayStream({ offers, customers, returns }, [t1, t2], {
        chunkSize,
      }).collect();
      expect(got.adjustments).toEqual(whole.adjustments);
      expect(got.returnErrors).toEqual(whole.returnErrors);
      expect(got.summary).toEqual(whole.summary);
    }
  });

  test('takeReturnOutcomes hands over the returns as the transactions reach them, the rest at the end', async () => {
    const stream = replayStream({ offers, customers, returns }, [t1, t2], { chunkSize: 1 });
    const taken: string[][] = [];
    for await (const _ of stream.chunks()) {
      taken.push(
        stream
          .takeReturnOutcomes()
          .map((o) =>
            !o.ok ? o.error.key : o.kind === 'adjustment' ? o.adjustment.return_id : '',
          ),
      );
    }
    taken.push(
      stream
        .takeReturnOutcomes()
        .map((o) => (!o.ok ? o.error.key : o.kind === 'adjustment' ? o.adjustment.return_id : '')),
    );
    // r1 (dated before t2) goes with t2's chunk; r2 (after t2) once the iteration ends, and r3
    // after it: returns keep their given order.
    expect(taken).toEqual([[], ['r1'], ['r2', 'r3']]);
    expect(stream.takeReturnOutcomes()).toEqual([]);
  });
});

describe('replay with returns given out of arrival order', () => {
  // t1 paid 5 on 2025-06-16; r1 arrives after that day (a clawback), r2 is listed after it but
  // says it arrived before: it is decided after r1 all the same.
  const late = ret('r1', { amount: 40, reported_at: '2025-06-20T10:00:00' });
  const early = ret('r2', { amount: 60, reported_at: '2025-06-06T10:00:00' });

  test('a payment a return found confirmed stays so: the later return claws back too', () => {
    const r = replay({ offers, customers, transactions: [t1], returns: [late, early] });
    expect(r.adjustments).toEqual([]);
    expect(r.clawbacks.map((c) => [c.return_id, c.amount])).toEqual([
      ['r1', 2],
      ['r2', 3],
    ]);
    // What was clawed back never passes what was paid, and the payment is not cancelled.
    expect(r.summary.liability.clawedBack).toEqual({ count: 2, cashback: '5.00' });
    expect(r.summary.liability.cancelled.count).toBe(0);
    expect(r.summary.returns?.netCashback).toBe('5.00');
  });

  test('also across pushes of a session, and with late returns ignored', () => {
    const session = createReplay({ offers, customers }, { returns: true });
    session.push([t1]);
    expect(session.pushReturns([late])[0]).toMatchObject({ ok: true, kind: 'clawback' });
    expect(session.pushReturns([early])[0]).toMatchObject({ ok: true, kind: 'clawback' });
    const ignored = replay(
      { offers, customers, transactions: [t1], returns: [late, early] },
      { lateReturns: 'ignore' },
    );
    expect(ignored.returnErrors.map((e) => [e.key, e.code])).toEqual([
      ['r1', 'late_return'],
      ['r2', 'late_return'],
    ]);
    expect(ignored.adjustments).toEqual([]);
  });
});
