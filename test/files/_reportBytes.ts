/**
 * The backtest report whose bytes must not change: docs/examples' data, the sample offers against
 * the same offers with offer 4 (Fuel loyalty) at twice its discount, default title. Its sha256 was
 * taken from `cashback backtest --report` while the report still read the installed vega, vega-lite
 * and vega-embed packages (6.4.0, 6.5.0, 7.3.0) at run time; the report built into dist/ from the
 * same versions must give the same bytes (a change of those versions changes this hash). The
 * report then gained both sets' liability table: this is the hash of the page with it, and the
 * page without that table still has the hash taken then
 * (43d5004a8f5ec0bdd9913646fd7727107492735115c8a17731ec87cd727df4a5).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sampleData } from './generated.js';

export const REPORT_SHA256 = '9a3806bed167a223809442b6c21d1c8ba21fc943f731d127df0b1801bb081e48';

/** The sample offers with offer 4 at twice its discount. */
export function doubledOffers(): unknown[] {
  return (sampleData().offers as { offer_id: number; discount: number }[]).map((o) =>
    o.offer_id === 4 ? { ...o, discount: o.discount * 2 } : o,
  );
}

/**
 * Writes the report's inputs into `dir` as JSON files.
 * @returns the `cashback backtest` arguments that read them
 */
export function writeReportInputs(dir: string): string[] {
  const data = { ...sampleData(), candidate: doubledOffers() };
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
