import type { BacktestResult, BacktestRow, NetFigures } from '../core/backtest/backtest.js';
import {
  type BacktestLiability,
  LIABILITY_LABELS,
  liabilityTitle,
} from '../core/backtest/backtestLiability.js';
import { html } from './html.js';
import { fundingTables } from './reportFunding.js';
import { vegaBrowserBuilds } from './vegaBuilds.js';

/** Script text safe inside a `<script>` element. */
const script = (code: string): string => code.replace(/<\/(script)/gi, '<\\/$1');

function table(title: string, rows: readonly BacktestRow[], keyName: string): string {
  const head = ['paid', 'cashback', 'customers'];
  const cells = (r: BacktestRow): string =>
    (['baseline', 'candidate', 'difference'] as const)
      .flatMap((set) =>
        head.map((h) => `<td>${html(String(r[set][h as keyof BacktestRow['baseline']]))}</td>`),
      )
      .join('');
  return `<h2>${html(title)}</h2>
<table>
<thead><tr><th rowspan="2">${html(keyName)}</th><th colspan="3">baseline</th><th colspan="3">candidate</th><th colspan="3">difference</th></tr>
<tr>${head
    .map((h) => `<th>${h}</th>`)
    .join('')
    .repeat(3)}</tr></thead>
<tbody>
${rows.map((r) => `<tr${r.difference.cashback.replace(/[0.-]/g, '') === '' ? '' : ' class="changed"'}><th>${html(r.key)}</th>${cells(r)}</tr>`).join('\n')}
</tbody>
</table>`;
}

/** The tables by merchant category and by reward type; nothing without rewards or scopes. */
function shapeTables(result: BacktestResult): string {
  if (result.byCategory === undefined || result.byReward === undefined) return '';
  return `
${table('By merchant category (MCC)', result.byCategory, 'category_code')}
${table('By reward type', result.byReward, 'reward')}`;
}

/** The cashback of both sets as decided and net of returns; nothing without returns. */
function netTable(net: BacktestRow<NetFigures> | undefined): string {
  if (net === undefined) return '';
  const rows = [
    ['as decided', 'decided'],
    ['taken back by returns', 'adjusted'],
    ['net of returns', 'net'],
  ] as const;
  return `<h2>Cashback net of returns</h2>
<table>
<thead><tr><th>cashback</th><th>baseline</th><th>candidate</th><th>difference</th></tr></thead>
<tbody>
${rows.map(([name, f]) => `<tr><th>${name}</th><td>${html(net.baseline[f])}</td><td>${html(net.candidate[f])}</td><td>${html(net.difference[f])}</td></tr>`).join('\n')}
</tbody>
</table>
`;
}

/** Both sets' liability as of its instant: count and cashback by status. */
function liabilityTable(liability: BacktestLiability): string {
  const sets = ['baseline', 'candidate', 'difference'] as const;
  const rows = liability.byStatus.map((r) => {
    const label = LIABILITY_LABELS[r.key as keyof typeof LIABILITY_LABELS] ?? r.key;
    const cells = sets
      .map((set) => `<td>${html(String(r[set].count))}</td><td>${html(r[set].cashback)}</td>`)
      .join('');
    return `<tr><th>${html(label)}</th>${cells}</tr>`;
  });
  const title = liabilityTitle(liability.asOf);
  return `<h2>${html(title.charAt(0).toUpperCase() + title.slice(1))}</h2>
<table class="liability">
<thead><tr><th rowspan="2">status</th><th colspan="2">baseline</th><th colspan="2">candidate</th><th colspan="2">difference</th></tr>
<tr>${'<th>count</th><th>cashback</th>'.repeat(3)}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
`;
}

/**
 * A backtest as one self-contained HTML page: the difference tables (and the cashback net of
 * returns, when the backtest had returns; each budget's burn and the cashback held back, when an
 * offer has a budget or a cap), both sets' liability as of the backtest's instant, and the
 * charts, rendered by
 * Vega, Vega-Lite and vega-embed inlined in the page, so it opens with no network.
 * @param result - what `backtest` returned
 * @param title - the page's title
 * @returns the HTML text
 * @public
 */
export function backtestReport(result: BacktestResult, title = 'Backtest report'): string {
  const specs = JSON.stringify(result.charts).replace(/</g, '\\u003c');
  const charts = Object.keys(result.charts)
    .map((id) => `<div class="chart" id="${id}"></div>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${html(title)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
table { border-collapse: collapse; margin-bottom: 1.5em; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
tbody th { text-align: left; }
tr.changed { background: #fff4d6; }
.chart { width: 100%; margin: 1em 0 2em; }
</style>
${vegaBrowserBuilds()
  .map((code) => `<script>${script(code)}</script>`)
  .join('\n')}
</head>
<body>
<h1>${html(title)}</h1>
${table('Total', [result.total], '')}
${netTable(result.returns)}${liabilityTable(result.liability)}${fundingTables(result)}${charts}
${table('By offer', result.byOffer, 'offer_id')}
${table('By month', result.byMonth, 'month')}
${table('By age band', result.bySegment.age, 'age')}
${table('By gender', result.bySegment.gender, 'gender')}
${table('New and returning customers', result.bySegment.audience, 'customers')}${shapeTables(result)}
<script>
const specs = ${specs};
window.chartsRendered = Promise.all(
  Object.entries(specs).map(([id, spec]) =>
    vegaEmbed('#' + id, spec, { actions: false, renderer: 'svg' }),
  ),
).then(() => true);
window.chartsRendered.catch((e) => console.error(e));
</script>
</body>
</html>
`;
}
