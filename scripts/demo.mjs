// Replays the bundled sample data set (docs/examples/) and prints what it would pay and why the
// rest earns nothing. Run with `npm run demo` (it builds dist/ first when src/ is newer).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replay } from '../dist/index.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'examples');
const load = (name) => JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));

const result = replay(
  {
    offers: load('offers'),
    customers: load('customers'),
    history: load('history'),
    transactions: load('transactions'),
  },
  { timeZone: 'Europe/Paris', ids: () => 'demo' },
);

function table(title, rows, columns) {
  console.log(`\n${title} (${rows.length})`);
  if (rows.length === 0) return;
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells) => cells.map((v, i) => String(v).padEnd(widths[i])).join('  ');
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(columns.map((c) => r[c])));
}

table('Payments', result.payments, [
  'transaction_id',
  'customer_id',
  'offer_id',
  'cashback',
  'payment_date',
]);
table('Transactions that earn nothing', result.errors, ['key', 'code', 'message']);
table('Rejected customers', result.rejected.customers, ['key', 'code', 'message']);
table('Rejected history', result.rejected.history, ['key', 'code', 'message']);

const s = result.summary;
console.log('\nSummary');
console.log(`  transactions   ${s.transactions}`);
console.log(`  paid           ${s.paid}`);
for (const [code, n] of Object.entries(s.errors)) console.log(`  ${code.padEnd(22)} ${n}`);
for (const [offer, t] of Object.entries(s.byOffer)) {
  console.log(`  offer ${offer.padEnd(8)} ${t.payments} payment(s), ${t.cashback} ${s.currency}`);
}
console.log(`  total cashback ${s.totalCashback} ${s.currency}`);
