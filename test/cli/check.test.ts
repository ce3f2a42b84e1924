import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { offer } from '../fixtures.js';
import { type BuiltCli, buildCli } from './_buildCli.js';

let cli: BuiltCli;
beforeAll(async () => {
  cli = await buildCli();
}, 60_000);
afterAll(() => cli?.remove());

function offersFile(name: string, offers: unknown): string {
  const file = join(cli.dir, name);
  writeFileSync(file, JSON.stringify(offers, null, 2));
  return file;
}

describe('cashback check', () => {
  test('passes the sample offers with exit code 0, printing warnings with their lines', async () => {
    const r = await cli.run(['check', 'docs/examples/offers.json', '--today', '2025-06-01']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'docs/examples/offers.json:119: warning inactive: offer 6 (line 107): active is false: the offer never pays',
    );
    expect(r.stdout).toMatch(
      /^10 offers checked \(today 2025-06-01\): 0 errors, 2 warnings, 1 info$/m,
    );
  });

  test('exits 1 on an error, naming the offer, the rule and the line of the field', async () => {
    const file = offersFile('bad.json', [offer(), offer({ offer_id: 2, max_cashback: 0.001 })]);
    const r = await cli.run(['check', file, '--today', '2025-06-01']);
    expect(r.code).toBe(1);
    // Offer 2 starts on line 15 of the pretty-printed file; its max_cashback is on line 27.
    expect(r.stdout).toContain(
      `${file}:27: error zero_max_cashback: offer 2 (line 15): max_cashback 0.001 rounds down to 0`,
    );
  });

  test('prints JSON with the line of every offer under --json', async () => {
    const file = offersFile('expired.json', [offer({ valid_to: '2025-05-01' })]);
    const r = await cli.run(['check', file, '--today', '2025-06-01', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.counts).toEqual({ error: 0, warning: 1, info: 0 });
    expect(report.findings[0]).toMatchObject({
      rule: 'expired',
      level: 'warning',
      offers: [{ index: 0, offer_id: 1, line: 2 }],
      path: 'valid_to',
      line: 13,
    });
  });

  test('warns of an offer whose scope no transaction of --sample is in, and exits 2 without the file', async () => {
    const { merchant_name: _, ...rest } = offer();
    const file = offersFile('scoped.json', [{ ...rest, scope: { mcc: ['5411'] } }]);
    const sample = join(cli.dir, 'sample.csv');
    writeFileSync(
      sample,
      'transaction_id,merchant.name,merchant.category_code\nt1,Coffee House,5812\n',
    );
    const r = await cli.run(['check', file, '--today', '2025-06-01', '--sample', sample]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `${file}:13: warning scope_unmatched: offer 1 (line 2): no transaction of the sample (1) is in its scope`,
    );
    const missing = await cli.run(['check', file, '--sample', join(cli.dir, 'nowhere.csv')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nowhere\.csv/);
  });

  test('exits 2 on a file that is not JSON or not an array, and on a bad --today', async () => {
    const broken = join(cli.dir, 'broken.json');
    writeFileSync(broken, '[{"offer_id": 1,]');
    expect((await cli.run(['check', broken])).stderr).toMatch(/is not valid JSON \(line 1/);
    const notArray = offersFile('object.json', { offers: [] });
    const r = await cli.run(['check', notArray]);
    expect([r.code, r.stderr]).toEqual([
      2,
      `cashback: the offers file ${notArray} must hold a JSON array\n`,
    ]);
    expect((await cli.run(['check', notArray, '--today', '2025-02-30'])).code).toBe(2);
  });
});
