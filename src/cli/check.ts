import { readFileSync } from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { checkOffers } from '../matching/check/checkOffers.js';
import type { OfferFinding } from '../matching/check/OfferFinding.js';
import { parseDay } from '../model/day.js';
import { readJsonFile, UsageError } from './inputs.js';
import { offerLines } from './offerLines.js';

interface RawCheckOptions {
  today?: string;
  json?: boolean;
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
 * @throws UsageError when the file cannot be read, is not JSON, or is not an array
 */
function runCheck(file: string, raw: RawCheckOptions): void {
  const offers = readJsonFile(file, 'offers');
  if (!Array.isArray(offers))
    throw new UsageError(`the offers file ${file} must hold a JSON array`);
  const lines = offerLines(readFileSync(file, 'utf8'));
  const today = raw.today ?? new Date().toISOString().slice(0, 10);
  const { findings, counts } = checkOffers(offers, { today });
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
        'collide on merchant names, or overlap. Exit code 1 when an error is found.',
    )
    .argument('<offers>', 'JSON array of offers')
    .addOption(
      new Option(
        '--today <day>',
        'offers whose valid_to is before this day never pay again (default: today, UTC)',
      ).argParser(parseToday),
    )
    .addOption(new Option('--json', 'print the findings as JSON, with the line of each offer'))
    .action((file: string, raw: RawCheckOptions) => runCheck(file, raw));
}
