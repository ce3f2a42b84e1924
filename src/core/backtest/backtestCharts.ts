import type { ReplaySummary } from '../SummaryBuilder.js';
import type { BacktestRow } from './BacktestRow.js';
import type { BacktestBudgets } from './backtestFunding.js';

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
  /**
   * Each budget's cumulative cashback per period as lines, its amount as a dashed rule and the day
   * it ran out as a mark; present only when an offer of either set has a budget.
   */
  readonly budgetBurn?: VegaLiteSpec;
}

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/**
 * The chart specifications of a backtest, data inlined (numbers from the exact decimal strings:
 * a chart needs no more precision than a double).
 * @param byDay - the per-day rows
 * @param byOffer - the per-offer rows
 * @param summaries - both replays' summaries
 * @param budgets - the budgets' burn, when an offer has a budget
 * @returns the specifications
 */
export function backtestCharts(
  byDay: readonly BacktestRow[],
  byOffer: readonly BacktestRow[],
  summaries: { readonly baseline: ReplaySummary; readonly candidate: ReplaySummary },
  budgets?: BacktestBudgets,
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
    ...(budgets === undefined
      ? {}
      : { budgetBurn: budgetBurnChart(budgets, summaries.baseline.currency) }),
  };
}

/**
 * The budget burn chart: one line per budget and period (cumulative cashback by day), the budget
 * as a dashed rule over the period's paid days, a mark on the day it ran out.
 * @param budgets - both sets' burns
 * @param currency - the deployment's currency
 * @returns the specification
 */
function budgetBurnChart(budgets: BacktestBudgets, currency: string): VegaLiteSpec {
  const burns = (['baseline', 'candidate'] as const).flatMap((set) =>
    budgets[set].map((b) => ({ b, budget: `${set} · offer ${b.offerId}`, period: b.start ?? '' })),
  );
  const lines = burns.flatMap(({ b, budget, period }) =>
    b.days.map((d) => ({ budget, period, day: d.day, cumulative: Number(d.cumulative) })),
  );
  const limits = burns.flatMap(({ b, budget, period }) => {
    const first = b.days[0]?.day;
    const last = b.days[b.days.length - 1]?.day;
    if (first === undefined || last === undefined) return [];
    return [
      { budget, period, from: b.start ?? first, to: b.end ?? last, amount: Number(b.budget) },
    ];
  });
  const ranOut = burns.flatMap(({ b, budget, period }) => {
    if (b.ranOut === null) return [];
    const upTo = b.days.filter((d) => d.day <= (b.ranOut as string)).pop();
    return [{ budget, period, day: b.ranOut, cumulative: Number(upTo?.cumulative ?? 0) }];
  });
  const x = { field: 'day', type: 'temporal', title: 'day' };
  const color = { field: 'budget', type: 'nominal', title: 'budget' };
  return {
    $schema: SCHEMA,
    title: 'Budget burn (cumulative cashback per period; budget dashed, ▼ ran out)',
    width: 'container',
    height: 240,
    layer: [
      {
        data: { values: lines },
        mark: { type: 'line', interpolate: 'step-after', point: lines.length <= 120 },
        encoding: {
          x,
          y: { field: 'cumulative', type: 'quantitative', title: `cashback (${currency})` },
          color,
          detail: { field: 'period' },
        },
      },
      {
        data: { values: limits },
        mark: { type: 'rule', strokeDash: [4, 4] },
        encoding: {
          x: { field: 'from', type: 'temporal' },
          x2: { field: 'to' },
          y: { field: 'amount', type: 'quantitative' },
          color,
        },
      },
      {
        data: { values: ranOut },
        mark: { type: 'point', shape: 'triangle-down', filled: true, size: 90 },
        encoding: { x, y: { field: 'cumulative', type: 'quantitative' }, color },
      },
    ],
  };
}
