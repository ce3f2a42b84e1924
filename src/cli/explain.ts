import { type Command, Option } from 'commander';
import { type Explanation, explain } from '../core/explain.js';
import { type ReadLimit, readAllRecords } from '../files/index.js';
import { readJsonValue } from '../files/jsonValue.js';
import { asUsageError } from './fileErrors.js';
import { addReadLimitOptions, parseTimeZone, readLimitsOf } from './inputs.js';

/** What `cashback explain` reads from its command line. */
interface ExplainCommandOptions extends Partial<Record<ReadLimit, number>> {
  readonly offers: string;
  readonly customers: string;
  readonly history?: string;
  readonly json?: boolean;
  readonly timeZone: string;
}

const customerIdOf = (item: unknown): unknown =>
  (item as { customer_id?: unknown } | null)?.customer_id;

/**
 * The explanation as text: the outcome, then one line per candidate offer.
 * @param e - the explanation
 * @returns the text, ending in a newline
 */
function formatExplanation(e: Explanation): string {
  const o = e.outcome;
  const head = o.ok
    ? `paid: offer ${o.payment.offer_id}, cashback ${o.payment.cashback}, payment date ${o.payment.payment_date}`
    : `${o.error.code}: ${o.error.message}`;
  const lines = e.candidates.map((c) => {
    if (c.matched && c.failed === undefined) {
      return `  offer ${c.offer_id}: matched, cashback ${c.cashback}, payment date ${c.payment_date}`;
    }
    return `  offer ${c.offer_id}: failed ${c.failed?.check}: ${c.failed?.detail}`;
  });
  const none = e.candidates.length === 0 ? ['  no offer at this merchant'] : [];
  return `${head}\ncandidate offers:\n${[...lines, ...none].join('\n')}\n`;
}

/**
 * Runs `cashback explain`: the outcome of one transaction and how every candidate offer (at its
 * merchant, or scoped to its name, id or category) fared, against its customer and that customer's history.
 * @param file - the transaction (a JSON object, or an array of one), gzip-compressed if named `.gz`
 * @param options - the command line's options
 * @throws UsageError for a file that cannot be read or an invalid offers file
 */
async function explainCommand(file: string, options: ExplainCommandOptions): Promise<void> {
  const read = { limits: readLimitsOf(options) };
  try {
    // Bounded as the other files are: the flags' limits hold for every file the command reads.
    const given = await readJsonValue(file, read.limits);
    const transaction = Array.isArray(given) && given.length === 1 ? given[0] : given;
    const offers = (await readAllRecords(options.offers, read)).records;
    const id = customerIdOf(transaction);
    // A customer id given twice in the file is rejected by a replay, so unknown here too.
    const copies = (await readAllRecords(options.customers, read)).records.filter(
      (c) => customerIdOf(c) === id,
    );
    const customer = copies.length === 1 ? copies[0] : undefined;
    const history =
      options.history === undefined
        ? []
        : (await readAllRecords(options.history, read)).records.filter(
            (h) => customerIdOf(h) === id,
          );
    const e = explain(transaction, { offers, customer, history }, { timeZone: options.timeZone });
    process.stdout.write(
      options.json === true ? `${JSON.stringify(e, null, 2)}\n` : formatExplanation(e),
    );
  } catch (err) {
    throw asUsageError(err);
  }
}

/**
 * Adds `cashback explain` to the program.
 * @param program - the `cashback` program
 */
export function addExplainCommand(program: Command): void {
  const command = program
    .command('explain')
    .description(
      'Explain one transaction: its outcome, every candidate offer (at its merchant, or scoped to it) and the first check each failed (docs/replay.md).',
    )
    .argument('<transaction>', 'the transaction, a JSON file')
    .requiredOption('--offers <file>', 'offers (JSON array)')
    .requiredOption('--customers <file>', 'customers; the transaction’s is looked up by id')
    .option('--history <file>', 'history transactions; the customer’s are used')
    .option('--json', 'print the explanation as JSON')
    .addOption(
      new Option('--time-zone <zone>', 'IANA time zone of transaction dates')
        .argParser(parseTimeZone)
        .default('UTC'),
    );
  addReadLimitOptions(command).action(async (file: string, raw: ExplainCommandOptions) => {
    await explainCommand(file, raw);
  });
}
