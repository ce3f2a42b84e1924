import { readFileSync } from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { readAllRecords } from '../files/readRecords.js';
import { checkOffers } from '../matching/check/checkOffers.js';
import type { OfferFinding } from '../matching/check/OfferFinding.js';
import { parseDay } from '../model/day.js';
import { asUsageError } from './fileErrors.js';
import { readJsonFile, UsageError } from './inputs.js';
import { offerLines } from './offerLines.js';

interface RawCheckOptions {
  today?: string;
  json?: boolean;
  sample?: string;
}

/** The transactions of a sample file (any format `cashback replay` reads), malformed lines left out. */
async function readSample(file: string | undefined): Promise<unknown[] | undefined> {
  if (file === undefined) return undefined;
  try {
    return (await readAllRecords(file)).records;
  } catch (err) {
    throw asUsageError(err);
  }
}

function parseToday(value: string): string {
  if (parseDay(value) === undefined) {
    throw new InvalidArgumentError('The day must be a date YYYY-MM-DD.');
  }
  return value;
}

/** `offer 4 (line 52)`, `offers 1 (line 2), 2 (line 17)`. */
function named(finding: OfferFinding, line: (index: number) => number | undefined): string {
  const parts = finding.offers.map((o) => {
    const at = line(o.index);
    const id = o.offer_id === undefined ? `#${o.index}` : String(o.offer_id);
    return at === undefined ? id : `${id} (line ${at})`;
  });
  return `${parts.length === 1 ? 'offer' : 'offers'} ${parts.join(', ')}`;
}

/**
 * Runs `cashback check`: prints the findings of `checkOffers` on an offers file and sets the
 * exit code, 1 when an error-level finding exists (docs/testing.md).
 * @param file - the offers file
 * @param raw - the command's options
 * @throws UsageError when a file cannot be read, or the offers file is not JSON or not an array
 */
async function runCheck(file: string, raw: RawCheckOptions): Promise<void> {
  const offers = readJsonFile(file, 'offers');
  if (!Array.isArray(offers))
    throw new UsageError(`the offers file ${file} must hold a JSON array`);
  const lines = offerLines(readFileSync(file, 'utf8'));
  const today = raw.today ?? new Date().toISOString().slice(0, 10);
  const sample = await readSample(raw.sample);
  const { findings, counts } = checkOffers(offers, {
    today,
    ...(sample === undefined ? {} : { sample }),
  });
  if (raw.json === true) {
    const located = findings.map((f) => ({
      ...f,
      offers: f.offers.map((o) => ({ ...o, line: lines.lineOf(o.index) })),
      ...(f.path === undefined ? {} : { line: lines.lineOf(f.offers[0]?.index ?? 0, f.path) }),
    }));
    process.stdout.write(
      `${JSON.stringify({ file, today, findings: located, counts }, null, 2)}\n`,
    );
  } else {
    // One write: thousands of findings written line by line would cost more than checking.
    const out = findings.map((f) => {
      const at = lines.lineOf(f.offers[0]?.index ?? 0, f.path);
      const where = at === undefined ? file : `${file}:${at}`;
      return `${where}: ${f.level} ${f.rule}: ${named(f, (i) => lines.lineOf(i))}: ${f.message}\n`;
    });
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    out.push(
      `${plural(offers.length, 'offer')} checked (today ${today}): ${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.info} info\n`,
    );
    process.stdout.write(out.join(''));
  }
  process.exitCode = counts.error > 0 ? 1 : 0;
}

/**
 * Adds `cashback check` to the program.
 * @param program - the `cashback` program
 */
export function registerCheck(program: Command): void {
  program
    .command('check')
    .description(
      'Check an offers file for offers that are invalid, can never pay, always lose to another, ' +
        'have rewards that cannot act as meant, collide on merchant names, or overlap. Exit code ' +
        '1 when an error is found.',
    )
    .argument('<offers>', 'JSON array of offers')
    .addOption(
      new Option(
        '--today <day>',
        'offers whose valid_to is before this day never pay again (default: today, UTC)',
      ).argParser(parseToday),
    )
    .addOption(
      new Option(
        '--sample <transactions>',
        'transactions (JSON, NDJSON, CSV, Parquet, gzip): warn of offers whose merchant or scope none of them is in',
      ),
    )
    .addOption(new Option('--json', 'print the findings as JSON, with the line of each offer'))
    .action(async (file: string, raw: RawCheckOptions) => runCheck(file, raw));
}
