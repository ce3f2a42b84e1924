import { type Command, InvalidArgumentError, Option } from 'commander';
import type { FuzzReport } from '../testing/fuzzOffers.js';
import { readJsonFile, UsageError } from './inputs.js';

interface RawFuzzOptions {
  offers: string;
  runs: number;
  seed?: number;
}

function wholeNumber(what: string, min: number) {
  return (value: string): number => {
    const n = /^-?[0-9]{1,10}$/.test(value) ? Number(value) : Number.NaN;
    if (!(n >= min && n <= 2 ** 31 - 1)) {
      throw new InvalidArgumentError(`The ${what} must be a whole number from ${min}.`);
    }
    return n;
  };
}

/**
 * Runs `cashback fuzz`: `fuzzOffers` on an offers file; prints the runs and the seed, or the
 * shrunk counterexample as a JSON data set and the command that replays it (exit code 1).
 * @param raw - the command's options
 * @throws UsageError when the file cannot be read, its offers are invalid, or fast-check is
 *   not installed
 */
async function runFuzz(raw: RawFuzzOptions): Promise<void> {
  const offers = readJsonFile(raw.offers, 'offers');
  if (!Array.isArray(offers)) {
    throw new UsageError(`the offers file ${raw.offers} must hold a JSON array`);
  }
  // fast-check is an optional peer dependency: only this command loads it.
  const { fuzzOffers } = await import('../testing/fuzzOffers.js').catch((error: unknown) => {
    throw new UsageError(
      `cashback fuzz needs fast-check (npm install -D fast-check): ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  let report: FuzzReport;
  try {
    report = fuzzOffers(offers, {
      runs: raw.runs,
      ...(raw.seed === undefined ? {} : { seed: raw.seed }),
    });
  } catch (error) {
    if (error instanceof Error && error.name === 'OfferValidationError') {
      throw new UsageError(`offers file ${raw.offers}: ${error.message}`);
    }
    throw error;
  }
  const replayIt = `cashback fuzz --offers ${raw.offers} --runs ${raw.runs} --seed ${report.seed}`;
  if (report.failure === undefined) {
    process.stdout.write(
      `${report.runs} runs on ${offers.length} offers found nothing (seed ${report.seed}; again: ${replayIt})\n`,
    );
    process.exitCode = 0;
    return;
  }
  const { message, counterexample } = report.failure;
  process.stdout.write(
    `fuzz: a property failed after ${report.runs} runs: ${message}\n` +
      `Shrunk counterexample (a data set for replay):\n${JSON.stringify(counterexample, null, 2)}\n` +
      `Replay it: ${replayIt}\n`,
  );
  process.exitCode = 1;
}

/**
 * Adds `cashback fuzz` to the program.
 * @param program - the `cashback` program
 */
export function registerFuzz(program: Command): void {
  program
    .command('fuzz')
    .description(
      'Property-test offers: generate customers, history and transactions aimed at them and ' +
        'check the invariants, chunking, offer order and explain. Exit code 1 on a failure, ' +
        'with the shrunk counterexample and the seed that replays it.',
    )
    .requiredOption('--offers <file>', 'JSON array of offers')
    .addOption(
      new Option('--runs <n>', 'data sets to try')
        .argParser(wholeNumber('number of runs', 1))
        .default(1000),
    )
    .addOption(
      new Option('--seed <n>', "fast-check's seed (default: random)").argParser(
        wholeNumber('seed', -(2 ** 31)),
      ),
    )
    .action((raw: RawFuzzOptions) => runFuzz(raw));
}
