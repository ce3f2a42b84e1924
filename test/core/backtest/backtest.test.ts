import { describe, expect, it } from 'vitest';
import { backtest, Money, replay } from '../../../src/index.js';
import { generatedData, nested, sampleData } from '../../files/generated.js';

const data = generatedData(404, 120, 4000);
const transactions = data.transactions.map(nested);
type OfferJson = { offer_id: number; discount: number };

describe('backtest', () => {
  it('finds no difference anywhere between two identical offer sets', async () => {
    const b = await backtest({
      baseline: data.offers,
      candidate: structuredClone(data.offers),
      customers: data.customers,
      transactions,
    });
    const rows = [
      b.total,
      ...b.byOffer,
      ...b.byMonth,
      ...b.byDay,
      ...Object.values(b.bySegment).flat(),
    ];
    expect(rows.length).toBeGreaterThan(20);
    for (const r of rows) {
      expect(r.difference, r.key).toEqual({ paid: 0, cashback: '0.00', customers: 0 });
      expect(r.candidate).toEqual(r.baseline);
    }
    expect(b.total.baseline.paid).toBe(replay({ ...data, transactions }).summary.paid);
  });

  it("changes only the doubled offer's row, by the cashback of its payments recomputed at twice the discount", async () => {
    const candidate = (data.offers as OfferJson[]).map((o) =>
      o.offer_id === 4 ? { ...o, discount: o.discount * 2 } : o,
    );
    const b = await backtest({
      baseline: data.offers,
      candidate,
      customers: data.customers,
      transactions,
    });
    // The amount of the transaction each payment pays for: the first stored one with its id.
    const amounts = new Map<string, number>();
    for (const t of data.transactions) {
      const stored = t.amount > 0 && !t.customer_id.startsWith('c-unknown');
      if (stored && !amounts.has(t.transaction_id)) amounts.set(t.transaction_id, t.amount);
    }
    const base = replay({ ...data, transactions }).payments.filter((p) => p.offer_id === 4);
    expect(base.length).toBeGreaterThan(10);
    let expected = new Money(0);
    for (const p of base) {
      const doubled = new Money(String(amounts.get(p.transaction_id)))
        .times(5)
        .div(100)
        .toDecimalPlaces(2, Money.ROUND_HALF_UP);
      expected = expected.plus(doubled.minus(String(p.cashback)));
    }
    for (const r of b.byOffer) {
      if (r.key === '4') {
        expect(r.difference).toEqual({ paid: 0, cashback: expected.toFixed(2), customers: 0 });
      } else {
        expect(r.difference, `offer ${r.key}`).toEqual({ paid: 0, cashback: '0.00', customers: 0 });
      }
    }
    expect(b.total.difference.cashback).toBe(expected.toFixed(2));
    const monthly = b.byMonth.reduce((s, r) => s.plus(r.difference.cashback), new Money(0));
    expect(monthly.toFixed(2)).toBe(expected.toFixed(2));
  });

  it('reads an async iterable of transactions and gives chart specifications with the data inlined', async () => {
    const sample = sampleData();
    async function* items(): AsyncGenerator<unknown> {
      yield* sample.transactions;
    }
    const { offers, ...rest } = sample;
    const b = await backtest({
      ...rest,
      baseline: offers,
      candidate: offers,
      transactions: items(),
    });
    expect(b.total.baseline).toEqual({ paid: 9, cashback: '38.52', customers: 3 });
    expect(b.charts.cashbackPerDay).toMatchObject({ mark: { type: 'line' } });
    expect((b.charts.outcomes.data as { values: unknown[] }).values).toContainEqual({
      set: 'candidate',
      outcome: 'paid',
      transactions: 9,
    });
  });

  it('rejects an unknown key of its data or options', async () => {
    const sample = sampleData();
    const { offers, ...rest } = sample;
    const d = { ...rest, baseline: offers, candidate: offers };
    await expect(backtest({ ...d, offers: [] } as never)).rejects.toThrow(/offers/);
    await expect(backtest(d, { timezone: 'UTC' } as never)).rejects.toThrow(
      /unknown option 'timezone'/,
    );
  });

  it('adds rows by merchant category and by reward type when an offer has a reward or a scope', async () => {
    const customers = [
      {
        customer_id: 'c1',
        birthday: '1990-01-01',
        gender: 'F',
        location: { country: 'FR', city: 'Paris' },
      },
    ];
    const at = (id: string, name: string, mcc: string, amount: number) => ({
      transaction_id: id,
      description: '',
      customer_id: 'c1',
      date: '2025-06-02T10:00:00',
      amount,
      merchant: { id: name, name, category_code: mcc },
      location: { country: 'FR', city: 'Paris' },
    });
    const base = { name: 'x', warranty: 0, valid_from: '2025-01-01', valid_to: '2025-12-31' };
    const baseline = [{ ...base, offer_id: 1, merchant_name: 'Green Grocer', discount: 5 }];
    const candidate = [
      ...baseline,
      {
        ...base,
        offer_id: 2,
        scope: { mcc: ['5411'] },
        reward: {
          type: 'tiers',
          mode: 'whole',
          tiers: [
            { from: 0, rate: 2 },
            { from: 50, rate: 10 },
          ],
        },
      },
    ];
    const transactions = [
      at('t1', 'Green Grocer', '5411', 100),
      at('t2', 'Corner Shop', '5411', 20),
      at('t3', 'Coffee House', '5812', 20),
    ];
    const plain = await backtest({ baseline, candidate: baseline, customers, transactions });
    expect(plain.byCategory).toBeUndefined();
    expect(plain.byReward).toBeUndefined();
    const b = await backtest({ baseline, candidate, customers, transactions });
    expect(b.byCategory).toEqual([
      {
        key: '5411',
        baseline: { paid: 1, cashback: '5.00', customers: 1 },
        candidate: { paid: 2, cashback: '10.40', customers: 1 },
        difference: { paid: 1, cashback: '5.40', customers: 0 },
      },
    ]);
    expect(b.byReward?.map((r) => [r.key, r.baseline.paid, r.candidate.paid])).toEqual([
      ['percent', 1, 0],
      ['tiers', 0, 2],
    ]);
  });
});
