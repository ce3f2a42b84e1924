/**
 * Both sets' liability in a backtest (docs/backtest.md, Liability): each set's is the one
 * `replay()` gives with the same options, `asOf` and `lateReturns` included, and the result puts
 * them side by side with candidate minus baseline.
 */
import { describe, expect, it } from 'vitest';
import { backtest, type ReplaySessionOptions, replay } from '../../../src/index.js';
import { sampleData } from '../../files/generated.js';

type OfferJson = { offer_id: number; discount: number };

describe("backtest's liability", () => {
  const sample = sampleData();
  const { offers, ...shared } = sample;
  // Offer 5 (which paid t-0010 25.00 at its max_cashback) at twice its discount, offer 4 too.
  const candidate = (offers as OfferJson[]).map((o) =>
    o.offer_id === 4 || o.offer_id === 5 ? { ...o, discount: o.discount * 2 } : o,
  );
  const returns = [
    // In time: cancels t-0004 (due 2025-07-04).
    { return_id: 'r1', transaction_id: 't-0004', date: '2025-06-10T10:00:00' },
    // Late: half of t-0010 (due 2025-08-09), reported after its payment day.
    {
      return_id: 'r2',
      transaction_id: 't-0010',
      date: '2025-06-20T10:00:00',
      amount: '649.5',
      reported_at: '2025-08-20T10:00:00',
    },
  ];

  const cases: ReplaySessionOptions[] = [
    {},
    { asOf: '2025-07-01T00:00:00' },
    { asOf: '2025-08-20T10:00:00', lateReturns: 'ignore' },
    { timeZone: 'Pacific/Kiritimati', asOf: '2025-08-09T00:00:00Z' },
  ];
  for (const options of cases) {
    it(`is each set's replay() liability, side by side, with ${JSON.stringify(options)}`, async () => {
      const b = await backtest({ ...shared, baseline: offers, candidate, returns }, options);
      const base = replay({ ...sample, returns }, options).summary.liability;
      const cand = replay({ ...sample, offers: candidate, returns }, options).summary.liability;
      expect(b.summaries.baseline.liability).toEqual(base);
      expect(b.summaries.candidate.liability).toEqual(cand);
      expect(b.liability.asOf).toBe(base.asOf);
      expect(cand.asOf).toBe(base.asOf);
      expect(b.liability.byStatus.map((r) => r.key)).toEqual([
        'pending',
        'confirmed',
        'cancelled',
        'clawedBack',
      ]);
      for (const r of b.liability.byStatus) {
        const key = r.key as keyof typeof base & 'pending';
        expect(r.baseline).toEqual(base[key]);
        expect(r.candidate).toEqual(cand[key]);
        expect(r.difference.count).toBe(cand[key].count - base[key].count);
        expect(Number(r.difference.cashback)).toBeCloseTo(
          Number(cand[key].cashback) - Number(base[key].cashback),
          10,
        );
      }
    });
  }

  it('claws back under both sets, each by its own terms, and ignores late returns when asked', async () => {
    const b = await backtest({ ...shared, baseline: offers, candidate, returns });
    const clawed = b.liability.byStatus.find((r) => r.key === 'clawedBack');
    expect(clawed?.baseline.count).toBe(1);
    expect(clawed?.candidate.count).toBe(1);
    const ignored = await backtest(
      { ...shared, baseline: offers, candidate, returns },
      { lateReturns: 'ignore' },
    );
    const none = ignored.liability.byStatus.find((r) => r.key === 'clawedBack');
    expect(none?.baseline).toEqual({ count: 0, cashback: '0.00' });
    expect(ignored.summaries.baseline.returns?.errors.late_return).toBe(1);
  });

  it('refuses a misspelt asOf and a bad lateReturns', async () => {
    const data = { ...shared, baseline: offers, candidate: offers };
    await expect(backtest(data, { asof: '2025-07-01T00:00:00' } as never)).rejects.toThrow(
      /unknown option 'asof'; did you mean 'asOf'\?/,
    );
    await expect(backtest(data, { asOf: '2025-07-01' })).rejects.toThrow(RangeError);
    await expect(backtest(data, { lateReturns: 'keep' as never })).rejects.toThrow(
      /lateReturns must be 'clawback' or 'ignore'/,
    );
  });
});
