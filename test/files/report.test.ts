/**
 * The backtest report as a browser opens it: headless Chromium (Debian's `chromium`, driven by
 * playwright-core) loads the file with every network request refused, and every chart renders
 * with no console error. With CASHBACK_SCREENSHOT=<path> it also saves a screenshot there (the
 * README's is docs/images/backtest-report.png). Its bytes for a fixed input are those of the report
 * from before its browser code was built into dist/ (test/files/_reportBytes.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { backtestReport } from '../../src/files/index.js';
import { backtest } from '../../src/index.js';
import { doubledOffers, REPORT_SHA256, seedOffers } from './_reportBytes.js';
import { generatedData, nested, sampleData } from './generated.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const dir = mkdtempSync(join(tmpdir(), 'cashback-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the backtest HTML report', () => {
  it('has the bytes of the report from before for the sample data', async () => {
    const { customers, history, transactions } = sampleData();
    const result = await backtest({
      baseline: seedOffers(),
      candidate: doubledOffers(),
      customers,
      history,
      transactions,
    });
    const page = backtestReport(result);
    expect(createHash('sha256').update(page).digest('hex')).toBe(REPORT_SHA256);
  });

  it('renders every chart in headless Chromium with no network and no console error', async () => {
    const data = generatedData(99, 200, 6000);
    type OfferJson = { offer_id: number; discount: number };
    const candidate = (data.offers as OfferJson[]).map((o) =>
      o.offer_id === 4 ? { ...o, discount: o.discount * 2 } : o,
    );
    const result = await backtest({
      baseline: data.offers,
      candidate,
      customers: data.customers,
      transactions: data.transactions.map(nested),
    });
    const page = join(dir, 'report.html');
    writeFileSync(page, backtestReport(result, 'Fuel loyalty at 5 %: backtest'));
    const shown = await render(page, process.env.CASHBACK_SCREENSHOT);
    expect(shown.charts.map((c) => c.id)).toEqual([
      'cashbackPerDay',
      'offerDifference',
      'outcomes',
    ]);
    for (const c of shown.charts) expect(c.marks, c.id).toBeGreaterThan(5);
    expect(shown.problems).toEqual([]);
    expect(shown.requests).toEqual([]);
  });

  it('shows the tables by merchant category and reward type only when an offer has a reward or a scope', async () => {
    const data = generatedData(8, 40, 600);
    type OfferJson = { offer_id: number; merchant_name?: string; discount?: number };
    const seedShaped = (data.offers as OfferJson[]).filter(
      (o) => o.merchant_name !== undefined && o.discount !== undefined,
    );
    const tiered = seedShaped.map(({ discount, ...o }) =>
      o.offer_id === 1
        ? {
            ...o,
            reward: { type: 'tiers', mode: 'marginal', tiers: [{ from: 0, rate: discount }] },
          }
        : { ...o, discount },
    );
    const run = (candidate: unknown[]) =>
      backtest({
        baseline: seedShaped,
        candidate,
        customers: data.customers,
        transactions: data.transactions.map(nested),
      });
    const plain = backtestReport(await run(seedShaped));
    expect(plain).not.toContain('By reward type');
    const html = backtestReport(await run(tiered));
    expect(html).toContain('<h2>By merchant category (MCC)</h2>');
    expect(html).toContain('<h2>By reward type</h2>');
    expect(html).toMatch(/<th>tiers<\/th>/);
  });

  it('renders the budget burn chart and shows the tables of budgets and held-back cashback', async () => {
    const data = generatedData(7, 80, 3000);
    type OfferJson = { offer_id: number };
    const funding: Record<number, Record<string, unknown>> = {
      1: { budget: { amount: 40, period: 'month' }, customer_cap: { amount: 3, period: 'week' } },
      3: { budget: { amount: '25.5' } },
      4: { budget: { amount: 20, period: 'week' } },
    };
    const funded = (data.offers as OfferJson[]).map((o) => ({ ...o, ...funding[o.offer_id] }));
    const result = await backtest({
      baseline: data.offers,
      candidate: funded,
      customers: data.customers,
      transactions: data.transactions.map(nested),
    });
    const html = backtestReport(result, 'Budgets: backtest');
    expect(html).toContain('<h2>Budgets</h2>');
    expect(html).toContain('<h2>Cashback held back by caps and budgets</h2>');
    const total = result.heldBack?.total.candidate;
    expect(Number(total?.cashback)).toBeGreaterThan(0);
    expect(html).toContain(
      `<tr><th>total</th><td>0</td><td>0.00</td><td>0.00</td><td>0.00</td><td>${total?.transactions}</td><td>${total?.byCheck.customer_cap}</td><td>${total?.byCheck.budget}</td><td>${total?.cashback}</td>`,
    );
    const three = result.budgets?.candidate.find((b) => b.offerId === 3);
    expect(html).toContain(
      `<tr><th>candidate</th><th>3</th><td>offer</td><td></td><td></td><td>25.5</td><td>${three?.spent}</td><td>${three?.ranOut ?? ''}</td></tr>`,
    );
    const page = join(dir, 'budgets.html');
    writeFileSync(page, html);
    const shown = await render(page, process.env.CASHBACK_BUDGET_SCREENSHOT);
    expect(shown.charts.map((c) => c.id)).toEqual([
      'cashbackPerDay',
      'offerDifference',
      'outcomes',
      'budgetBurn',
    ]);
    for (const c of shown.charts) expect(c.marks, c.id).toBeGreaterThan(5);
    expect(shown.problems).toEqual([]);
    expect(shown.requests).toEqual([]);
  });
});

/**
 * Opens a report in headless Chromium with every network request refused, waits for its charts,
 * and says what it drew and what went wrong.
 * @param page - the report's path
 * @param screenshot - where to save a screenshot, if anywhere
 */
async function render(
  page: string,
  screenshot: string | undefined,
): Promise<{
  charts: { id: string; marks: number }[];
  problems: string[];
  requests: string[];
}> {
  expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium`).toBe(true);
  const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
    viewport: { width: 1100, height: 1500 },
  });
  try {
    const requests: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      requests.push(url);
      return route.abort();
    });
    const tab = await context.newPage();
    const problems: string[] = [];
    tab.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    tab.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await tab.goto(pathToFileURL(page).href);
    expect(await tab.evaluate('window.chartsRendered')).toBe(true);
    const charts = await tab.$$eval('.chart', (nodes) =>
      nodes.map((n) => ({
        id: n.id,
        marks: n.querySelectorAll('svg path, svg rect, svg line').length,
      })),
    );
    if (screenshot !== undefined) await tab.screenshot({ path: screenshot, fullPage: false });
    return { charts, problems, requests };
  } finally {
    await context.close();
  }
}
