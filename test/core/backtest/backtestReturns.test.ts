import { describe, expect, it } from 'vitest';
import { backtestReport } from '../../../src/files/index.js';
import { backtest, replay } from '../../../src/index.js';
import { sampleData } from '../../files/generated.js';

type OfferJson = { offer_id: number; discount: number };
type TxJson = { transaction_id: string; date: string };

describe('backtest with returns', () => {
  const sample = sampleData();
  const { offers: _, ...shared } = sample;
  const candidate = (sample.offers as OfferJson[]).map((o) =>
    o.offer_id === 4 ? { ...o, discount: o.discount * 2 } : o,
  );
  const paid = replay(sample).payments;
  const dates = new Map((sample.transactions as TxJson[]).map((t) => [t.transaction_id, t.date]));
  // Each paid transaction returned whole an hour after it: decided before its payment day.
  const returns = paid.map((p, i) => ({
    return_id: `r${i}`,
    transaction_id: p.transaction_id,
    date: `${(dates.get(p.transaction_id) ?? '').slice(0, 11)}23:59:59`,
  }));

  it('decides the returns under each set as replay() does, and gives cashback as decided and net', async () => {
    const b = await backtest({ ...shared, baseline: sample.offers, candidate, returns });
    const base = replay({ ...sample, returns });
    const cand = replay({ ...sample, offers: candidate, returns });
    expect(b.summaries.baseline).toEqual(base.summary);
    expect(b.summaries.candidate).toEqual(cand.summary);
    expect(base.adjustments.length).toBeGreaterThan(0);
    expect(b.returns).toEqual({
      key: 'total',
      baseline: {
        decided: base.summary.totalCashback,
        adjusted: base.summary.returns?.adjustedCashback,
        net: base.summary.returns?.netCashback,
      },
      candidate: {
        decided: cand.summary.totalCashback,
        adjusted: cand.summary.returns?.adjustedCashback,
        net: cand.summary.returns?.netCashback,
      },
      difference: {
        decided: b.total.difference.cashback,
        adjusted: expect.any(String),
        net: expect.any(String),
      },
    });
    const page = backtestReport(b);
    expect(page).toContain('<h2>Cashback net of returns</h2>');
    expect(page).toContain(
      `<tr><th>net of returns</th><td>${base.summary.returns?.netCashback}</td>`,
    );
  });

  it('has no net of returns without returns, nor does its report', async () => {
    const b = await backtest({ ...shared, baseline: sample.offers, candidate });
    expect(b.returns).toBeUndefined();
    expect(b.summaries.baseline.returns).toBeUndefined();
    expect(backtestReport(b)).not.toContain('net of returns');
  });

  it('refuses returns that are not an array', async () => {
    await expect(
      backtest({ ...shared, baseline: sample.offers, candidate, returns: 'r' as never }),
    ).rejects.toThrow(new TypeError('backtest data.returns must be an array, got the string "r"'));
  });
});
