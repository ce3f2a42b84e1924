/**
 * The backtest report whose bytes must not change: docs/examples' data, the sample offers of the
 * seed's shape (at one merchant, with a discount: offers 1 to 7; the report of a backtest without
 * rewards or scopes is as it was) against the same offers with offer 4 (Fuel loyalty) at twice its
 * discount, default title. Its sha256 was
 * taken from `cashback backtest --report` while the report still read the installed vega, vega-lite
 * and vega-embed packages (6.4.0, 6.5.0, 7.3.0) at run time; the report built into dist/ from the
 * same versions must give the same bytes (a change of those versions changes this hash). The
 * report then gained both sets' liability table: this is the hash of the page with it, and the
 * page without that table still has the hash taken then
 * (43d5004a8f5ec0bdd9913646fd7727107492735115c8a17731ec87cd727df4a5). The sample's t-0020 then
 * moved from 2026 to 2036 (after the sample offers' end), and the table's as-of instant with it:
 * the page with 2026-01-02 in its place still has the hash of before
 * (9a3806bed167a223809442b6c21d1c8ba21fc943f731d127df0b1801bb081e48).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sampleData } from './generated.js';

export const REPORT_SHA256 = '08e0ce3c633086461ee95d8ebf087c2889bcecfc999aacebd9208dbc613091ab';

type SeedShaped = { offer_id: number; merchant_name?: string; discount?: number };

/** The sample offers of the seed's shape: `merchant_name` and `discount`. */
export function seedOffers(): SeedShaped[] {
  return (sampleData().offers as SeedShaped[]).filter(
    (o) => o.merchant_name !== undefined && o.discount !== undefined,
  );
}

/** Those offers with offer 4 at twice its discount. */
export function doubledOffers(): unknown[] {
  return seedOffers().map((o) =>
    o.offer_id === 4 ? { ...o, discount: (o.discount as number) * 2 } : o,
  );
}

/**
 * Writes the report's inputs into `dir` as JSON files.
 * @returns the `cashback backtest` arguments that read them
 */
export function writeReportInputs(dir: string): string[] {
  const data = { ...sampleData(), offers: seedOffers(), candidate: doubledOffers() };
  const file = (name: keyof typeof data): string => {
    const path = join(dir, `${name}.json`);
    writeFileSync(path, JSON.stringify(data[name]));
    return path;
  };
  return [
    '--baseline',
    file('offers'),
    '--candidate',
    file('candidate'),
    '--customers',
    file('customers'),
    '--history',
    file('history'),
    '--transactions',
    file('transactions'),
  ];
}
