import { availableParallelism } from 'node:os';
import { Liability } from '../../core/Liability.js';
import type { Outcome } from '../../core/outcome.js';
import { asOfInstant, DEFAULT_LATENESS_DAYS, latenessDays } from '../../core/replay/options.js';
import { outcomeReaders } from '../../core/replay/replayStream.js';
import { SummaryBuilder } from '../../core/SummaryBuilder.js';
import { compileOfferSet } from '../../matching/compileOffers.js';
import type { WallClock } from '../../model/dateTime.js';
import { type ResolvedOptions, resolveOptions } from '../../model/options.js';
import { formatOf, readRecordBatches } from '../readRecords.js';
import type { FileReplay, ReplayFilePaths, ReplayFilesOptions } from '../replayFiles.js';
import { readSmallInputs } from '../replayFiles.js';
import { type Block, lineBlocks, recordBlocks } from './blocks.js';
import { decideBlocks } from './decideBlocks.js';
import { LocalPartition } from './LocalPartition.js';
import { blockOutcomes } from './markBlock.js';
import type { Partition } from './Partition.js';
import type { PartitionInit } from './PartitionReplay.js';
import { Routes } from './Routes.js';
import { type SharedInputs, shareInputs } from './shareInputs.js';
import { ThreadPartition } from './ThreadPartition.js';

/** Transactions a block. */
const BLOCK = 1000;

/**
 * `replayFiles` over partitions by customer (and by merchant where an offer has a budget) decided
 * in parallel, with one replay's output: the same outcomes in the same order (docs/replay.md,
 * Workers). This thread starts the replay as one replay does (customers, activations, then
 * history), keeps only the rejections and the screener of stored ids, and gives each partition the
 * customers, activations and stored history it decides on (`Routes`): partition 0 is replayed in
 * this thread, which also reads the file, each other one in a worker thread. The transactions
 * file is cut into blocks routed the same way (NDJSON as bytes, parsed by the partition). Each
 * block is decided in two steps: every partition parses its items and its session classifies
 * them (valid? known customer? at a merchant whose offers read history?); this thread's screener,
 * walking the block in file order, marks duplicates and checks date order over all of them; each
 * partition's session then decides its items with those marks, and this thread puts the outcomes
 * back in file order.
 * @param paths - the files
 * @param options - as for `replayFiles` (custom `operators` cannot cross to a worker)
 * @param workers - how many partitions, so threads (this one and `workers - 1` worker threads)
 * @returns the replay
 * @throws as `replayFiles`
 */
export async function replayInWorkers(
  paths: ReplayFilePaths,
  options: ReplayFilesOptions,
  workers: number,
): Promise<FileReplay> {
  if (options.operators !== undefined) {
    throw new TypeError('custom operators cannot be used with workers: they do not cross threads');
  }
  if (paths.returns !== undefined) {
    // Returns read every partition's payments in date order: one session decides them.
    throw new TypeError('returns cannot be replayed with workers: replay them with one worker');
  }
  const resolved = resolveOptions({
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
    ...(options.scale === undefined ? {} : { scale: options.scale }),
    ...(options.rounding === undefined ? {} : { rounding: options.rounding }),
    ...(options.currency === undefined ? {} : { currency: options.currency }),
  });
  const lateness = latenessDays(options.maxLatenessDays, DEFAULT_LATENESS_DAYS);
  const asOf = asOfInstant(options.asOf, resolved.timeZone);
  const small = await readSmallInputs(paths, options);
  // Offers are checked here, so that an invalid one is reported once, before any thread starts.
  const offerSet = compileOfferSet(small.offers, { scale: resolved.scale });
  const count = Math.max(1, Math.min(workers, availableParallelism() * 4));
  const routes = new Routes(offerSet, count);
  const shared = shareInputs(offerSet, small, resolved, lateness, routes);
  const inits = shared.parts.map(
    (share): PartitionInit => ({
      offers: small.offers,
      ...share,
      options: { ...partitionOptions(resolved), maxLatenessDays: lateness },
    }),
  );
  const blocks = (): AsyncGenerator<Block> => transactionBlocks(paths, options, routes, small);
  return fileReplay(shared, inits, { blocks, asOf }, small.malformed, (line, reason) =>
    small.skip({ ok: false, file: paths.transactions, line, reason }),
  );
}

/** The options a partition's session needs, as plain data. */
function partitionOptions(
  resolved: ResolvedOptions,
): Pick<ResolvedOptions, 'timeZone' | 'scale' | 'rounding' | 'currency'> {
  const { timeZone, scale, rounding, currency } = resolved;
  return { timeZone, scale, rounding, currency };
}

/**
 * The transactions file in blocks routed as `routes` says, read under the replay's limits: NDJSON
 * as bytes, other formats as records.
 */
function transactionBlocks(
  paths: ReplayFilePaths,
  options: ReplayFilesOptions,
  routes: Routes,
  small: Awaited<ReturnType<typeof readSmallInputs>>,
): AsyncGenerator<Block> {
  const { format, onProgress, limits = {} } = options;
  const onBytes =
    onProgress === undefined ? undefined : (bytes: number) => onProgress(bytes, small.total);
  const kind = formatOf(paths.transactions, format);
  if (kind.format === 'ndjson') {
    return lineBlocks(paths.transactions, kind.gzip, routes, BLOCK, onBytes, limits);
  }
  const batches = readRecordBatches(paths.transactions, {
    ...(format === undefined ? {} : { format }),
    ...(onBytes === undefined ? {} : { onBytes }),
    limits,
  });
  return recordBlocks(batches, routes, BLOCK, small.skip);
}

/**
 * The replay over started partitions: outcomes block by block, in file order, and the totals.
 * @param shared - the rejections, the screener and the counts of the start
 * @param inits - what each partition starts from (dropped once they have started)
 * @param input - the transactions file in blocks, and the option `asOf`
 * @param malformed - how many malformed records were skipped so far
 * @param skip - reports a malformed line of the transactions file
 * @returns the replay
 */
function fileReplay(
  shared: SharedInputs,
  inits: readonly PartitionInit[],
  input: { readonly blocks: () => AsyncGenerator<Block>; readonly asOf: WallClock | undefined },
  malformed: () => number,
  skip: (line: number, reason: string) => void,
): FileReplay {
  const { rejected, screener } = shared;
  const first = inits[0] as PartitionInit;
  const { scale, currency } = first.options;
  const totals = new SummaryBuilder(scale, currency, new Liability(scale, input.asOf));
  const purchases = new Array<number>(inits.length).fill(0);
  // Dropped once the partitions have started: this thread keeps no customer record.
  let pending: readonly PartitionInit[] | undefined = inits;

  async function* outcomeChunks(): AsyncGenerator<readonly Outcome[]> {
    if (pending === undefined) throw new Error('a replay can be iterated only once');
    const starting = pending;
    pending = undefined;
    const pool = await startPartitions(starting);
    try {
      for await (const decided of decideBlocks(pool, input.blocks(), screener, skip)) {
        const outcomes = blockOutcomes(decided.block, decided.marks, decided.decided);
        if (decided.marks.latest !== undefined) totals.liability.saw(decided.marks.latest);
        for (const o of outcomes) totals.add(o);
        decided.decided.forEach((d, p) => {
          purchases[p] = d.purchases;
        });
        yield outcomes;
      }
    } finally {
      for (const partition of pool) partition.stop();
    }
  }

  const replay: FileReplay = {
    rejected,
    summary: () =>
      totals.build({ customers: rejected.customers.length, history: rejected.history.length }),
    retained: () => ({
      customers: shared.customers,
      transactionIds: screener.size,
      purchases: purchases.reduce((a, b) => a + b, 0),
      // `--workers` takes no returns (docs/replay.md, Returns).
      returnable: 0,
    }),
    malformed,
    takeReturnOutcomes: () => [],
    ...outcomeReaders(outcomeChunks, () => replay.summary()),
  };
  return replay;
}

/** Partition 0 in this thread, each other one in a worker thread of its own. */
async function startPartitions(inits: readonly PartitionInit[]): Promise<Partition[]> {
  const pool: Partition[] = [];
  try {
    for (const [p, init] of inits.entries()) {
      pool.push(p === 0 ? new LocalPartition(init) : await ThreadPartition.start(init));
    }
  } catch (error) {
    for (const partition of pool) partition.stop();
    throw error;
  }
  return pool;
}
