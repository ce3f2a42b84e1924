import type { BacktestRow } from './BacktestRow.js';
import type { ReplaySummary } from './SummaryBuilder.js';

/**
 * A Vega-Lite specification (https://vega.github.io/vega-lite/docs/spec.html) as plain JSON: it
 * renders with vega-embed in a page or a notebook.
 * @public
 */
export type VegaLiteSpec = Readonly<Record<string, unknown>>;

/** The charts of a backtest report. @public */
export interface BacktestCharts {
  /** Cashback per day of both offer sets, as lines. */
  readonly cashbackPerDay: VegaLiteSpec;
  /** Cashback difference per offer (candidate minus baseline), as bars. */
  readonly offerDifference: VegaLiteSpec;
  /** Transactions by outcome for both sets, as grouped bars. */
  readonly outcomes: VegaLiteSpec;
}

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/**
 * The chart specifications of a backtest, data inlined (numbers from the exact decimal strings:
 * a chart needs no more precision than a double).
 * @param byDay - the per-day rows
 * @param byOffer - the per-offer rows
 * @param summaries - both replays' summaries
 * @returns the three specifications
 */
export function backtestCharts(
  byDay: readonly BacktestRow[],
  byOffer: readonly BacktestRow[],
  summaries: { readonly baseline: ReplaySummary; readonly candidate: ReplaySummary },
): BacktestCharts {
  const perDay = byDay.flatMap((r) => [
    { day: r.key, set: 'baseline', cashback: Number(r.baseline.cashback) },
    { day: r.key, set: 'candidate', cashback: Number(r.candidate.cashback) },
  ]);
  const perOffer = byOffer.map((r) => ({
    offer: r.key,
    difference: Number(r.difference.cashback),
  }));
  const outcomes = (['baseline', 'candidate'] as const).flatMap((set) => [
    { set, outcome: 'paid', transactions: summaries[set].paid },
    ...Object.entries(summaries[set].errors).map(([outcome, n]) => ({
      set,
      outcome,
      transactions: n,
    })),
  ]);
  return {
    cashbackPerDay: {
      $schema: SCHEMA,
      title: 'Cashback per day',
      width: 'container',
      height: 240,
      data: { values: perDay },
      mark: { type: 'line', point: perDay.length <= 120 },
      encoding: {
        x: { field: 'day', type: 'temporal', title: 'day' },
        y: {
          field: 'cashback',
          type: 'quantitative',
          title: `cashback (${summaries.baseline.currency})`,
        },
        color: { field: 'set', type: 'nominal', title: 'offer set' },
      },
    },
    offerDifference: {
      $schema: SCHEMA,
      title: 'Cashback difference per offer (candidate − baseline)',
      width: 'container',
      height: 200,
      data: { values: perOffer },
      mark: 'bar',
      encoding: {
        x: { field: 'offer', type: 'ordinal', title: 'offer_id' },
        y: {
          field: 'difference',
          type: 'quantitative',
          title: `difference (${summaries.baseline.currency})`,
        },
        color: {
          condition: { test: 'datum.difference < 0', value: '#c0392b' },
          value: '#2e86c1',
        },
      },
    },
    outcomes: {
      $schema: SCHEMA,
      title: 'Transactions by outcome',
      width: 'container',
      height: 200,
      data: { values: outcomes },
      mark: 'bar',
      encoding: {
        y: { field: 'outcome', type: 'nominal', title: null },
        yOffset: { field: 'set' },
        x: { field: 'transactions', type: 'quantitative' },
        color: { field: 'set', type: 'nominal', title: 'offer set' },
      },
    },
  };
}
