// `cashback check` on 10,000 offers (`--smoke`: 1,000): checkOffers in process against
// compileOffers of the same offers (the cost of loading them, the baseline), and the command
// end to end as a process (node start, reading the file, printing). Three shapes of file: 10
// offers per merchant; the same with a tenth scoped (by a list of merchants or a category code)
// and a third paying a fixed amount or tiers (bench/shapes.mjs); and every offer at one merchant,
// the worst case of the pairwise always_loses rule (O(k²) in the offers k of one merchant).
// Figures: docs/benchmarks.md.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withShapes } from './shapes.mjs';
import { count, engine, log, ratio, timed } from './util.mjs';

const smoke = process.argv.includes('--smoke');
const N = smoke ? 1_000 : 10_000;
const ROUNDS = smoke ? 1 : 5;
const here = dirname(fileURLToPath(import.meta.url));

/** Deterministic offers: varied dates, ages, caps, audiences and conditions. */
function offers(n, merchants) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const m = i % merchants;
    const month = String(1 + (i % 12)).padStart(2, '0');
    const offer = {
      offer_id: i + 1,
      name: `Offer ${i + 1}`,
      merchant_name: m % 7 === 0 && i % 2 === 1 ? `MERCHANT  ${m}` : `Merchant ${m}`,
      merchant_logo: 'https://example.com/logo.png',
      warranty: 14,
      age: i % 3 === 0 ? ['18-35'] : i % 3 === 1 ? ['25-60', '65+'] : [],
      gender: i % 5 === 0 ? ['F'] : [],
      category_name: 'Shops',
      discount: 1 + (i % 20),
      valid_from: `2025-${month}-01`,
      valid_to: '2025-12-31',
    };
    if (i % 4 === 0) offer.max_cashback = (i % 9) + 0.5;
    if (i % 6 === 0) offer.min_amount = 10 + (i % 50);
    if (i % 8 === 0) offer.audience = 'returning';
    if (i % 3 === 2) {
      offer.conditions = {
        all: [
          { fact: 'transaction.hour', operator: 'lessThan', value: 8 + (i % 14) },
          {
            any: [
              { fact: 'customer.location.city', operator: 'in', value: ['Paris', 'Lyon'] },
              { fact: 'transaction.weekday', operator: 'not:someValue:equal', value: [6, 7] },
            ],
          },
        ],
      };
    }
    out.push(offer);
  }
  return out;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const cli = join(here, '..', 'dist', 'cli.js');
mkdirSync(join(here, '..', '.bench-data'), { recursive: true });

log(`cashback check bench (${smoke ? 'smoke' : 'full'}): ${count(N)} offers, median of ${ROUNDS}`);
/** The offers of `offers(n, merchants)` with rewards and scopes. */
function shaped(n, merchants) {
  return withShapes(offers(n, merchants), (i, byList) => {
    const m = i % merchants;
    return byList
      ? { merchants: [m, m + 1, m + 2].map((k) => `Merchant ${k % merchants}`) }
      : { mcc: [String(1000 + Math.floor(m / 4))] };
  });
}

for (const [shape, merchants, make] of [
  ['10 offers per merchant', Math.max(1, N / 10), offers],
  ['10 offers per merchant, rewards and scopes', Math.max(1, N / 10), shaped],
  ['all at one merchant', 1, offers],
]) {
  const data = make(N, merchants);
  const file = join(here, '..', '.bench-data', `check-${N}-${merchants}-${make.name}.json`);
  writeFileSync(file, JSON.stringify(data, null, 2));
  const checks = [];
  const loads = [];
  const ends = [];
  let report;
  for (let r = 0; r < ROUNDS; r++) {
    loads.push(timed(() => engine.compileOffers(data)).seconds);
    const t = timed(() => engine.checkOffers(data, { today: '2025-06-01' }));
    report = t.result;
    checks.push(t.seconds);
    const start = performance.now();
    try {
      execFileSync('node', [cli, 'check', file, '--today', '2025-06-01'], { stdio: 'ignore' });
    } catch (error) {
      if (error.status !== 1) throw error; // 1: error-level findings, expected here
    }
    ends.push((performance.now() - start) / 1000);
  }
  const [check, load, end] = [median(checks), median(loads), median(ends)];
  log(
    `  ${shape}: checkOffers ${check.toFixed(3)} s, compileOffers ${load.toFixed(3)} s ` +
      `(ratio ${ratio(check / load)}), \`cashback check\` process ${end.toFixed(3)} s; ` +
      `findings ${JSON.stringify(report.counts)}`,
  );
}
