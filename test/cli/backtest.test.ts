/**
 * `cashback backtest` as users run it: the built command as a child process over the sample data
 * of docs/examples. Identical offer sets differ by zero; a candidate with offer 4's discount
 * doubled changes offer 4's row by what two replays give; `--report` writes a page that loads
 * nothing from the network and holds the `--json` chart specifications; bad inputs end with one
 * line and exit code 2.
 *
 * The command is built once (the `cli` entry, ESM) into a temporary directory by `buildCli`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BacktestResult, backtest, Money, replay } from '../../src/index.js';
import { sampleData } from '../files/generated.js';
import { type BuiltCli, buildCli } from './_buildCli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const examples = (name: string): string => join(root, 'docs', 'examples', `${name}.json`);
let work: string;

let built: BuiltCli | undefined;

beforeAll(async () => {
  built = await buildCli();
  work = built.dir;
}, 60_000);

afterAll(() => built?.remove());

const file = (name: string, content: string): string => {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
};

/** Runs `cashback backtest`; never throws: the exit code is in `code`. */
const cashback = (args: readonly string[]) => (built as BuiltCli).run(['backtest', ...args]);

interface Figures {
  paid: number;
  cashback: string;
  customers: number;
}
interface Row {
  key: string;
  baseline: Figures;
  candidate: Figures;
  difference: Figures;
}
interface Result {
  total: Row;
  byOffer: Row[];
  byMonth: Row[];
  byDay: Row[];
  bySegment: { age: Row[]; gender: Row[]; audience: Row[] };
  liability: BacktestResult['liability'];
  charts: Record<string, { $schema?: string }>;
}

const allRows = (b: Result): Row[] => [
  b.total,
  ...b.byOffer,
  ...b.byMonth,
  ...b.byDay,
  ...b.bySegment.age,
  ...b.bySegment.gender,
  ...b.bySegment.audience,
];
const ZERO: Figures = { paid: 0, cashback: '0.00', customers: 0 };

/** The sample offers with offer 4 (Fuel loyalty, the only offer at FastFuel) at twice its discount. */
const doubled = (offers: unknown[]): unknown[] =>
  (offers as { offer_id: number; discount: number }[]).map((o) =>
    o.offer_id === 4 ? { ...o, discount: o.discount * 2 } : o,
  );

/** The URLs a page would fetch: `src` or `href` attributes that name http(s) (or no scheme: //). */
const networkReferences = (page: string): string[] =>
  [...page.matchAll(/<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)\s*=\s*["']?([^"'\s>]+)/gi)]
    .map((m) => m[1] as string)
    .filter((url) => /^(?:https?:)?\/\//i.test(url));

describe('cashback backtest', () => {
  const sample = sampleData();
  const inputs = [
    '--customers',
    examples('customers'),
    '--history',
    examples('history'),
    '--transactions',
    examples('transactions'),
  ];
  let candidate: string;
  beforeAll(() => {
    candidate = file('offers-doubled.json', JSON.stringify(doubled(sample.offers)));
  });

  it('gives zero difference in every row for identical baseline and candidate', async () => {
    const r = await cashback([
      '--baseline',
      examples('offers'),
      '--candidate',
      examples('offers'),
      ...inputs,
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const b = JSON.parse(r.stdout) as Result;
    const want = replay(sample);
    expect(b.total.baseline).toEqual({
      paid: want.summary.paid,
      cashback: want.summary.totalCashback,
      customers: new Set(want.payments.map((p) => p.customer_id)).size,
    });
    expect(b.total.candidate).toEqual(b.total.baseline);
    expect(b.byOffer.map((row) => row.key)).toEqual(Object.keys(want.summary.byOffer));
    for (const row of allRows(b)) {
      expect(row.difference, row.key).toEqual(ZERO);
      expect(row.candidate, row.key).toEqual(row.baseline);
    }
    // The text tables too: every Δ column of every row is zero.
    const text = await cashback([
      '--baseline',
      examples('offers'),
      '--candidate',
      examples('offers'),
      ...inputs,
    ]);
    expect(text.code).toBe(0);
    // The liability comes last, with its own columns (count and cashback of each set).
    const [tables = '', liability = ''] = text.stdout.split(/^liability as of .*\n/m);
    const body = tables.split('\n').filter((l) => /^\S+\s+\d+\s+\d+\.\d{2}\s/.test(l));
    expect(body.length).toBe(allRows(b).length - b.byDay.length);
    for (const l of body) expect(l, l).toMatch(/\s0\s+0\.00\s+0$/);
    expect(b.liability.byStatus.map((r) => r.difference)).toEqual(
      Array(4).fill({ count: 0, cashback: '0.00' }),
    );
    expect(b.liability.byStatus.map((r) => r.baseline)).toEqual(
      ['pending', 'confirmed', 'cancelled', 'clawedBack'].map(
        (k) => want.summary.liability[k as 'pending'],
      ),
    );
    const statuses = liability.split('\n').slice(1, -1);
    expect(statuses).toHaveLength(4);
    for (const l of statuses) expect(l, l).toMatch(/\s0\s+0\.00$/);
  });

  it('takes --activations: a candidate that requires activation pays only the activated', async () => {
    const gated = (sample.offers as { offer_id: number }[]).map((o) => ({
      ...o,
      requires_activation: true,
    }));
    const want = replay(sample);
    const customer = want.payments[0]?.customer_id as string;
    const activations = gated.map((o) => ({
      customer_id: customer,
      offer_id: o.offer_id,
      date: '2000-01-01T00:00:00',
    }));
    const r = await cashback([
      '--baseline',
      examples('offers'),
      '--candidate',
      file('offers-gated.json', JSON.stringify(gated)),
      '--activations',
      file('activations.ndjson', activations.map((a) => JSON.stringify(a)).join('\n')),
      ...inputs,
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const b = JSON.parse(r.stdout) as Result;
    const expected = replay({ ...sample, offers: gated, activations });
    expect(b.total.candidate).toEqual({
      paid: expected.summary.paid,
      cashback: expected.summary.totalCashback,
      customers: 1,
    });
  });

  it("changes offer 4's row by what replays of the two offer sets give, and no other offer's", async () => {
    const r = await cashback([
      '--baseline',
      examples('offers'),
      '--candidate',
      candidate,
      ...inputs,
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const b = JSON.parse(r.stdout) as Result;
    const before = replay(sample).summary;
    const after = replay({ ...sample, offers: doubled(sample.offers) }).summary;
    const four = b.byOffer.find((row) => row.key === '4');
    const beforeFour = before.byOffer['4'];
    const afterFour = after.byOffer['4'];
    if (four === undefined || beforeFour === undefined || afterFour === undefined) {
      throw new Error('offer 4 pays nothing in the sample data');
    }
    expect(four.baseline.cashback).toBe(beforeFour.cashback);
    expect(four.candidate.cashback).toBe(afterFour.cashback);
    const delta = new Money(afterFour.cashback).minus(beforeFour.cashback).toFixed(2);
    expect(four.difference).toEqual({ paid: 0, cashback: delta, customers: 0 });
    expect(delta).toBe('1.56'); // docs/backtest.md states it
    for (const row of b.byOffer.filter((x) => x.key !== '4')) {
      expect(row.difference, `offer ${row.key}`).toEqual(ZERO);
    }
    expect(b.total.difference.cashback).toBe(delta);
    expect(b.total.candidate.cashback).toBe(after.totalCashback);
    // The text table of offers shows the same row.
    const text = await cashback([
      '--baseline',
      examples('offers'),
      '--candidate',
      candidate,
      ...inputs,
    ]);
    const byOffer = text.stdout.split('\n\n').find((t) => t.startsWith('by offer'));
    const figures = (['baseline', 'candidate', 'difference'] as const).flatMap((s) => [
      four[s].paid,
      four[s].cashback,
      four[s].customers,
    ]);
    expect(byOffer).toMatch(
      new RegExp(`^4\\s+${figures.join('\\s+').replaceAll('.', '\\.')}$`, 'm'),
    );
  });

  it('writes a self-contained HTML report with the Vega-Lite specifications of --json', async () => {
    const report = join(work, 'report.html');
    const r = await cashback([
      '--baseline',
      examples('offers'),
      '--candidate',
      candidate,
      ...inputs,
      '--json',
      '--report',
      report,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const b = JSON.parse(r.stdout) as Result;
    expect(existsSync(report)).toBe(true);
    const page = readFileSync(report, 'utf8');
    expect(page.startsWith('<!doctype html>')).toBe(true);
    // Nothing to fetch: no script, stylesheet or image from the network (the check itself
    // finds one when there is one).
    expect(networkReferences(page)).toEqual([]);
    expect(networkReferences('<script src="https://cdn.example/vega.js"></script>')).toEqual([
      'https://cdn.example/vega.js',
    ]);
    expect(page).not.toMatch(/<script\b[^>]*\bsrc\s*=/i);
    expect(page).not.toMatch(/<link\b[^>]*\bhref\s*=/i);
    // Vega, Vega-Lite and vega-embed inlined: inline scripts that define them, hundreds of kB.
    expect(page.length).toBeGreaterThan(500_000);
    expect(page).toContain('vegaEmbed');
    // The chart specifications, as --json prints them, each a Vega-Lite one.
    const specs = /^const specs = (.*);$/m.exec(page)?.[1];
    expect(specs, 'no `const specs = …;` line in the report').toBeDefined();
    const charts = JSON.parse(specs as string) as Result['charts'];
    expect(Object.keys(charts).sort()).toEqual(['cashbackPerDay', 'offerDifference', 'outcomes']);
    expect(charts).toEqual(b.charts);
    for (const [id, spec] of Object.entries(charts)) {
      expect(spec.$schema, id).toMatch(/vega-lite/);
      expect(page).toContain(`<div class="chart" id="${id}"></div>`);
    }
    // The changed offer's row is highlighted, and only it among the offers.
    expect(page.match(/<tr class="changed"><th>4<\/th>/g)?.length).toBe(1);
    expect(page).not.toMatch(/<tr class="changed"><th>[1235-9]<\/th>/);
  });

  it("shows each budget's burn and the cashback caps and budgets held back, in --json, the text and --report", async () => {
    // Offer 5 with a budget of 30 (it would pay 25 then 7.50), offer 1 with a cap of 0.50 a customer.
    const funding: Record<number, Record<string, unknown>> = {
      1: { customer_cap: { amount: '0.5', period: 'offer' } },
      5: { budget: { amount: 30 } },
    };
    const funded = (sample.offers as { offer_id: number }[]).map((o) => ({
      ...o,
      ...funding[o.offer_id],
    }));
    const report = join(work, 'funded.html');
    const args = [
      '--baseline',
      examples('offers'),
      '--candidate',
      file('offers-funded.json', JSON.stringify(funded)),
      ...inputs,
    ];
    const r = await cashback([...args, '--json', '--report', report]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const b = JSON.parse(r.stdout) as Result & Awaited<ReturnType<typeof backtest>>;
    const { offers, ...shared } = sample;
    const want = await backtest({ ...shared, baseline: offers, candidate: funded });
    expect(b.budgets).toEqual(want.budgets);
    expect(b.heldBack).toEqual(want.heldBack);
    expect(b.budgets?.candidate).toMatchObject([
      { offerId: 5, budget: '30', period: 'offer', spent: '30.00' },
    ]);
    const ranOut = b.budgets?.candidate[0]?.ranOut as string;
    expect(ranOut).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const held = b.heldBack?.total.candidate;
    expect(held?.byCheck.budget).toBe('2.50');
    expect(Number(held?.byCheck.customer_cap)).toBeGreaterThan(0);
    // What they held back is what the candidate would have paid unfunded less what it paid.
    expect(held?.cashback).toBe(
      new Money(replay(sample).summary.totalCashback)
        .minus(replay({ ...sample, offers: funded }).summary.totalCashback)
        .toFixed(2),
    );
    // The text: a line per budgeted offer, a line per offer that held back and the total.
    const text = await cashback(args);
    expect(text.code).toBe(0);
    const part = (title: string) => text.stdout.split('\n\n').find((t) => t.startsWith(title));
    expect(part('budgets')).toMatch(
      new RegExp(`^candidate\\s+5\\s+30\\s+offer\\s+1\\s+1\\s+${ranOut}\\s+30\\.00$`, 'm'),
    );
    const total = held as NonNullable<typeof held>;
    const cells = ['total', '0', '0.00', '0.00', '0.00', String(total.transactions)];
    cells.push(total.byCheck.customer_cap, '2.50', total.cashback);
    expect(part('cashback held back')).toMatch(
      new RegExp(`^${cells.join('\\s+').replaceAll('.', '\\.')}\\s`, 'm'),
    );
    // The report: both tables and the burn chart, with the --json specification.
    const page = readFileSync(report, 'utf8');
    expect(page).toContain('<h2>Budgets</h2>');
    expect(page).toContain('<h2>Cashback held back by caps and budgets</h2>');
    expect(page).toContain(
      `<tr><th>candidate</th><th>5</th><td>offer</td><td></td><td></td><td>30</td><td>30.00</td><td>${ranOut}</td></tr>`,
    );
    const specs = JSON.parse(
      /^const specs = (.*);$/m.exec(page)?.[1] as string,
    ) as Result['charts'];
    expect(specs.budgetBurn).toEqual(b.charts.budgetBurn);
  });

  it('with --returns, gives the held-back cashback net of returns too, as backtest() does', async () => {
    const funded = (sample.offers as { offer_id: number }[]).map((o) =>
      o.offer_id === 5 ? { ...o, budget: { amount: 30 } } : o,
    );
    // t-0012 is the payment offer 5's budget cut to 5.00 of 7.50; returned whole that evening.
    const t12 = (sample.transactions as { transaction_id: string; date: string }[]).find(
      (t) => t.transaction_id === 't-0012',
    ) as { date: string };
    const returns = [
      { return_id: 'r1', transaction_id: 't-0012', date: `${t12.date.slice(0, 10)}T23:59:00` },
    ];
    const args = [
      '--baseline',
      examples('offers'),
      '--candidate',
      file('offers-budget.json', JSON.stringify(funded)),
      ...inputs,
      '--returns',
      file('returns.ndjson', returns.map((x) => JSON.stringify(x)).join('\n')),
    ];
    const r = await cashback([...args, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { offers, ...shared } = sample;
    const want = await backtest({ ...shared, baseline: offers, candidate: funded, returns });
    const b = JSON.parse(r.stdout) as Awaited<ReturnType<typeof backtest>>;
    expect(b.heldBack).toEqual(want.heldBack);
    // Held back 2.50 as decided; the return takes both the 5.00 paid and the 7.50 unfunded to 0.
    expect(b.heldBack?.total.candidate).toEqual({
      transactions: 1,
      cashback: '2.50',
      byCheck: { customer_cap: '0.00', budget: '2.50' },
      netOfReturns: { cashback: '0.00', byCheck: { customer_cap: '0.00', budget: '0.00' } },
    });
    const text = await cashback(args);
    expect(text.code).toBe(0);
    const held = text.stdout.split('\n\n').find((t) => t.startsWith('cashback held back'));
    expect(held).toMatch(/\sΔ net of returns$/m);
    expect(held).toMatch(/^total(\s+\S+){5}\s+1\s+0\.00\s+2\.50\s+2\.50\s+0\.00\s/m);
  });

  it('prints no budget table and no held-back table when no offer has a budget or a cap', async () => {
    const text = await cashback([
      '--baseline',
      examples('offers'),
      '--candidate',
      candidate,
      ...inputs,
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toMatch(/^budgets|^cashback held back/m);
  });

  it('ends with one line and exit code 2 for a missing file', async () => {
    const missing = join(work, 'nope.ndjson');
    const r = await cashback([
      '--baseline',
      examples('offers'),
      '--candidate',
      candidate,
      '--customers',
      examples('customers'),
      '--transactions',
      missing,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`cashback: cannot read ${missing}: no such file\n`);
    expect(r.stdout).toBe('');
    const noCandidate = join(work, 'nope.json');
    const c = await cashback([
      '--baseline',
      examples('offers'),
      '--candidate',
      noCandidate,
      ...inputs,
    ]);
    expect(c.code).toBe(2);
    expect(c.stderr).toBe(`cashback: cannot read ${noCandidate}: no such file\n`);
    expect(c.stdout).toBe('');
  });

  it('skips a malformed line naming file and line; --strict makes it exit 2', async () => {
    const text = sample.transactions.map((t) => JSON.stringify(t));
    text.splice(4, 0, '{"transaction_id": "t-x",');
    const tx = file('bad.ndjson', text.join('\n'));
    const args = [
      '--baseline',
      examples('offers'),
      '--candidate',
      candidate,
      '--customers',
      examples('customers'),
      '--history',
      examples('history'),
      '--transactions',
      tx,
    ];
    const lenient = await cashback([...args, '--json']);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toMatch(
      new RegExp(`^cashback: skipped ${tx}:5: not valid JSON: [^\\n]*\\n$`),
    );
    // The other 25 lines are decided as from the JSON array.
    expect((JSON.parse(lenient.stdout) as Result).total.difference.cashback).toBe('1.56');
    const strict = await cashback([...args, '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(new RegExp(`^cashback: ${tx}:5: not valid JSON: [^\\n]*\\n$`));
    expect(strict.stdout).toBe('');
  });
});
