import type { BacktestResult } from '../core/backtest/backtest.js';
import type { BacktestHeldBack, HeldBackFigures } from '../core/backtest/HeldBack.js';
import { html } from './html.js';

const SETS = ['baseline', 'candidate', 'difference'] as const;

/** Every burn of both sets: one row per budget and period. */
function budgetsTable(budgets: BacktestResult['budgets']): string {
  if (budgets === undefined) return '';
  const rows = (['baseline', 'candidate'] as const).flatMap((set) =>
    budgets[set].map((b) =>
      [
        set,
        String(b.offerId),
        b.period,
        b.start ?? '',
        b.end ?? '',
        b.budget,
        b.spent,
        b.ranOut ?? '',
      ]
        .map((cell, i) => (i < 2 ? `<th>${html(cell)}</th>` : `<td>${html(cell)}</td>`))
        .join(''),
    ),
  );
  return `<h2>Budgets</h2>
<table>
<thead><tr><th>set</th><th>offer_id</th><th>period</th><th>from</th><th>to</th><th>budget</th><th>spent</th><th>ran out</th></tr></thead>
<tbody>
${rows.map((r) => `<tr>${r}</tr>`).join('\n')}
</tbody>
</table>
`;
}

/** Cashback held back by offer and check (and net of returns), both sets and their difference. */
function heldBackTable(held: BacktestHeldBack | undefined): string {
  if (held === undefined) return '';
  const net = held.total.baseline.netOfReturns !== undefined;
  const head = [
    'transactions',
    'customer_cap',
    'budget',
    'cashback',
    ...(net ? ['net of returns'] : []),
  ];
  const cells = (f: HeldBackFigures): string =>
    [
      String(f.transactions),
      f.byCheck.customer_cap,
      f.byCheck.budget,
      f.cashback,
      ...(f.netOfReturns === undefined ? [] : [f.netOfReturns.cashback]),
    ]
      .map((c) => `<td>${html(c)}</td>`)
      .join('');
  const rows = [...held.byOffer, held.total].map(
    (r) => `<tr><th>${html(r.key)}</th>${SETS.map((s) => cells(r[s])).join('')}</tr>`,
  );
  const span = head.length;
  return `<h2>Cashback held back by caps and budgets</h2>
<table>
<thead><tr><th rowspan="2">offer_id</th><th colspan="${span}">baseline</th><th colspan="${span}">candidate</th><th colspan="${span}">difference</th></tr>
<tr>${head
    .map((h) => `<th>${h}</th>`)
    .join('')
    .repeat(3)}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
`;
}

/**
 * The report's tables of budgets and caps: each budget's burn, and the cashback they held back;
 * nothing when no offer of either set has a budget or a cap.
 * @param result - what `backtest` returned
 * @returns the HTML
 */
export function fundingTables(result: BacktestResult): string {
  return budgetsTable(result.budgets) + heldBackTable(result.heldBack);
}
