import type { BudgetBurn } from '../core/backtest/BudgetBurn.js';
import type { BacktestResult } from '../core/backtest/backtest.js';
import type { BacktestHeldBack, HeldBackFigures } from '../core/backtest/HeldBack.js';
import { ExactMoney } from '../model/money.js';

/** Rows as aligned text: the first column left-aligned, the others right-aligned. */
function aligned(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]): string =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return `${rows.map(line).join('\n')}\n`;
}

/** One line per set and offer with a budget: its periods, how many ran out, the first day one did. */
function budgetsText(budgets: NonNullable<BacktestResult['budgets']>): string {
  const head = ['', 'offer_id', 'budget', 'period', 'periods', 'ran out', 'first ran out', 'spent'];
  const rows = (['baseline', 'candidate'] as const).flatMap((set) => {
    const byOffer = new Map<number, BudgetBurn[]>();
    for (const b of budgets[set]) byOffer.set(b.offerId, [...(byOffer.get(b.offerId) ?? []), b]);
    return [...byOffer.values()].map((burns) => {
      const first = burns[0] as BudgetBurn;
      const ranOut = burns.flatMap((b) => (b.ranOut === null ? [] : [b.ranOut])).sort();
      const scale = first.spent.split('.')[1]?.length ?? 0;
      const spent = burns.reduce((sum, b) => sum.plus(b.spent), new ExactMoney(0));
      return [
        set,
        String(first.offerId),
        first.budget,
        first.period,
        String(burns.length),
        String(ranOut.length),
        ranOut[0] ?? '-',
        spent.toFixed(scale),
      ];
    });
  });
  return `budgets (per offer: periods, periods that ran out, the first day one did, cashback spent as decided)\n${aligned([head, ...rows])}`;
}

/**
 * Held-back cashback by offer and check (and net of returns, with returns), then the total:
 * baseline | candidate | difference.
 */
function heldBackText(held: BacktestHeldBack): string {
  const names = ['tx', 'customer_cap', 'budget', 'held back'];
  if (held.total.baseline.netOfReturns !== undefined) names.push('net of returns');
  const head = ['', ...['', '', 'Δ '].flatMap((p) => names.map((h) => p + h))];
  const figures = (f: HeldBackFigures): string[] => [
    String(f.transactions),
    f.byCheck.customer_cap,
    f.byCheck.budget,
    f.cashback,
    ...(f.netOfReturns === undefined ? [] : [f.netOfReturns.cashback]),
  ];
  const rows = [...held.byOffer, held.total].map((r) => [
    r.key,
    ...figures(r.baseline),
    ...figures(r.candidate),
    ...figures(r.difference),
  ]);
  return `cashback held back by caps and budgets, by offer (baseline | candidate | difference)\n${aligned([head, ...rows])}`;
}

/**
 * The text of budgets and caps in `cashback backtest`'s output: each budget's burn in short and the
 * cashback held back; nothing when no offer of either set has a budget or a cap.
 * @param b - the backtest
 * @returns the tables, each ending with a newline
 */
export function fundingText(b: BacktestResult): string[] {
  return [
    ...(b.budgets === undefined ? [] : [budgetsText(b.budgets)]),
    ...(b.heldBack === undefined ? [] : [heldBackText(b.heldBack)]),
  ];
}
