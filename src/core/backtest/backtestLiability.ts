import { ExactMoney } from '../../model/money.js';
import type { LiabilityFigure, LiabilitySummary } from '../Liability.js';
import type { ReplaySummary } from '../SummaryBuilder.js';
import type { BacktestRow } from './BacktestRow.js';

/**
 * Both sets' liability as of one instant (docs/backtest.md, Liability): what `BacktestResult`
 * carries as `liability`.
 * @public
 */
export interface BacktestLiability {
  /**
   * The instant, wall-clock in the backtest's zone: the option `asOf`, else the latest date-time
   * of the input (both sets read the same transactions and returns, so it is one for both);
   * `null` for an input without one.
   */
  readonly asOf: string | null;
  /**
   * One row per status, in this order: `pending`, `confirmed`, `cancelled`, `clawedBack` (the
   * fields of `LiabilitySummary`), each with both sets' count and cashback and candidate minus
   * baseline.
   */
  readonly byStatus: readonly BacktestRow<LiabilityFigure>[];
}

/** The statuses of a liability, in the order its rows come. */
export const LIABILITY_STATUSES = ['pending', 'confirmed', 'cancelled', 'clawedBack'] as const;

/** A status as tables print it. */
export const LIABILITY_LABELS: Readonly<Record<(typeof LIABILITY_STATUSES)[number], string>> = {
  pending: 'pending',
  confirmed: 'confirmed',
  cancelled: 'cancelled',
  clawedBack: 'clawed back',
};

/** How a table heads a liability: as of its instant, or of none for an input without one. */
export function liabilityTitle(asOf: string | null): string {
  return asOf === null ? 'liability (no date-time in the input)' : `liability as of ${asOf}`;
}

/**
 * Both sets' liability from their summaries, with candidate minus baseline.
 * @param summaries - each set's replay summary
 * @param scale - decimal places of cashback
 * @returns the liability rows
 */
export function backtestLiability(
  summaries: { readonly baseline: ReplaySummary; readonly candidate: ReplaySummary },
  scale: number,
): BacktestLiability {
  const b: LiabilitySummary = summaries.baseline.liability;
  const c: LiabilitySummary = summaries.candidate.liability;
  return {
    asOf: b.asOf,
    byStatus: LIABILITY_STATUSES.map((key) => ({
      key,
      baseline: b[key],
      candidate: c[key],
      difference: {
        count: c[key].count - b[key].count,
        cashback: new ExactMoney(c[key].cashback).minus(b[key].cashback).toFixed(scale),
      },
    })),
  };
}
