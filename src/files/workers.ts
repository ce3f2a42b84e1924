import { availableParallelism } from 'node:os';
import { outcomeReaders } from '../core/replayStream.js';
import { SummaryBuilder } from '../core/SummaryBuilder.js';
import { compileOffers, LateTransactionError, type Outcome, resolveOptions } from '../index.js';
import { formatDay } from '../model/day.js';
import { wholeNumber } from '../model/wholeNumber.js';
import { type Block, lineBlocks, type Part, recordBlocks } from './blocks.js';
import { partitionInputs } from './partitionInputs.js';
import { ITEM, type Screening } from './partitionReplay.js';
import { type DecidedPart, LocalPartition, type Partition, ThreadPartition } from './partitions.js';
import { formatOf, readRecordBatches } from './readRecords.js';
import type { FileReplay, ReplayFilePaths, ReplayFilesOptions } from './replayFiles.js';
import { readSmallInputs } from './replayFiles.js';
import { duplicateOutcome, type OutcomeSource } from './wireOutcomes.js';

/** Transactions a block. */
const BLOCK = 1000;
/** Blocks sent ahead of the one whose outcomes are awaited. */
const IN_FLIGHT = 1;

/** What the walk of a block in file order found: per item, how its outcome is made. */
interface Marks {
  /** Per item: 0 skipped (blank or malformed), 1 duplicate, 2 decided by its partition. */
  readonly kinds: Uint8Array;
  /** Per item: its transaction id, or `null` when it has none. */
  readonly ids: (string | null)[];
  /** Per partition: positions in its part of the duplicates. */
  readonly duplicates: Int32Array[];
  /** Per partition: stream indices of its invalid items. */
  readonly indices: Int32Array[];
}

/** A block decided by every partition, its outcomes not yet made. */
interface DecidedBlock {
  readonly block: Block;
  readonly marks: Marks;
  readonly decided: readonly DecidedPart[];
}
const SKIPPED = 0;
const DUPLICATE = 1;
const DECIDED = 2;

/**
 * `replayFiles` over partitions by customer decided in parallel, with one replay's output: the
 * same outcomes in the same order (docs/replay.md, Workers). This thread screens customers and
 * history as one replay does, keeps only the rejections and the stored ids, and gives each
 * partition its own customers and their stored history: partition 0 is replayed in this thread,
 * which also reads the file, each other one in a worker thread. The transactions file is cut into
 * blocks routed by customer (NDJSON as bytes, parsed by the partition). Each block is decided in
 * two steps: every partition parses and screens its items (valid? known customer?); this thread,
 * walking the block in file order, marks as duplicates the ids stored before by any partition and
 * checks date order over all of them, as one replay does; each partition then decides its items
 * with those marks, and this thread puts the outcomes back in file order.
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
  const { format, onProgress } = options;
  if (options.operators !== undefined) {
    throw new TypeError('custom operators cannot be used with workers: they do not cross threads');
  }
  const resolved = resolveOptions({
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
    ...(options.scale === undefined ? {} : { scale: options.scale }),
    ...(options.rounding === undefined ? {} : { rounding: options.rounding }),
    ...(options.currency === undefined ? {} : { currency: options.currency }),
  });
  const lateness = wholeNumber(options.maxLatenessDays ?? 31, 'maxLatenessDays', {
    infinity: true,
  });
  const { offers, customers, history, total, skip, malformed } = await readSmallInputs(
    paths,
    options,
  );
  // Offers are checked here, so that an invalid one is reported once, before any thread starts.
  const offerSet = compileOffers(offers);
  const count = Math.max(1, Math.min(workers, availableParallelism() * 4));
  const start = partitionInputs(offerSet, customers, history, resolved, count);
  const { rejected, ids, customers: registered } = start;
  // Dropped once the partitions have started: this thread keeps no customer record.
  let shares: PartitionedShares | undefined = start.parts;
  const partitionOptions = {
    timeZone: resolved.timeZone,
    scale: resolved.scale,
    rounding: resolved.rounding,
    currency: resolved.currency,
    maxLatenessDays: lateness,
  };
  const totals = new SummaryBuilder(resolved.scale, resolved.currency);
  const purchases = new Array<number>(count).fill(0);
  let newest = start.newest;
  let streamIndex = 0;
  const onBytes =
    onProgress === undefined ? undefined : (bytes: number) => onProgress(bytes, total);
  const kind = formatOf(paths.transactions, format);
  const blocks = (): AsyncGenerator<Block> =>
    kind.format === 'ndjson'
      ? lineBlocks(paths.transactions, kind.gzip, count, BLOCK, onBytes)
      : recordBlocks(
          readRecordBatches(paths.transactions, {
            ...(format === undefined ? {} : { format }),
            ...(onBytes === undefined ? {} : { onBytes }),
          }),
          count,
          BLOCK,
          skip,
        );

  /**
   * Walks a screened block in file order: reports malformed lines, numbers the items, marks
   * duplicates, stores ids and checks date order, as one replay does item by item.
   */
  const mark = (block: Block, screened: readonly Screening[]): Marks => {
    const kinds = new Uint8Array(block.count);
    const itemIds = new Array<string | null>(block.count).fill(null);
    const duplicates = screened.map(() => [] as number[]);
    const indices = screened.map(() => [] as number[]);
    const at = screened.map(() => ({ item: 0, id: 0, day: 0, reason: 0 }));
    for (let i = 0; i < block.count; i++) {
      const p = block.route[i] as number;
      const s = screened[p] as Screening;
      const c = at[p] as (typeof at)[number];
      const position = c.item++;
      const status = s.status[position];
      if (status === ITEM.blank) continue;
      if (status === ITEM.malformed) {
        const reason = s.reasons[c.reason++] as string;
        skip({ ok: false, file: paths.transactions, line: block.lines[i] as number, reason });
        continue;
      }
      const index = streamIndex++;
      kinds[i] = DECIDED;
      if (status === ITEM.invalid) {
        indices[p]?.push(index);
        continue;
      }
      const id = s.ids[c.id++] as string;
      itemIds[i] = id;
      const day = status === ITEM.knownAtHistoryMerchant ? (s.days[c.day++] as number) : null;
      // Duplicate before customer: a valid item of an unknown customer can be a duplicate too.
      const taken = status === ITEM.unknownCustomer ? ids.has(id) : !ids.add(id);
      if (taken) {
        kinds[i] = DUPLICATE;
        duplicates[p]?.push(position);
        continue;
      }
      if (day === null) continue;
      if (day < newest - lateness) {
        throw new LateTransactionError(id, formatDay(day), formatDay(newest), lateness);
      }
      if (day > newest) newest = day;
    }
    return {
      kinds,
      ids: itemIds,
      duplicates: duplicates.map((d) => Int32Array.from(d)),
      indices: indices.map((d) => Int32Array.from(d)),
    };
  };

  /**
   * The outcomes of a block in file order: duplicates made here, the rest as decided. Made only
   * when they are taken, so that they die young.
   */
  const merge = ({ block, marks, decided }: DecidedBlock): Outcome[] => {
    const readers = decided.map((d) => d.outcomes);
    const out: Outcome[] = [];
    for (let i = 0; i < block.count; i++) {
      const k = marks.kinds[i];
      if (k === SKIPPED) continue;
      const id = marks.ids[i] as string | null;
      const outcome =
        k === DUPLICATE
          ? duplicateOutcome(id as string)
          : (readers[block.route[i] as number] as OutcomeSource).next(id);
      totals.add(outcome);
      out.push(outcome);
    }
    decided.forEach((d, p) => {
      purchases[p] = d.purchases;
    });
    return out;
  };

  let n = 0;
  // The error of a block that could not be marked: no later block is marked (nor its malformed
  // lines reported) once one failed.
  let failure: { error: unknown } | undefined;
  const decideBlock = async (pool: readonly Partition[], block: Block): Promise<DecidedBlock> => {
    const b = n++;
    const screened = await Promise.all(
      pool.map((partition, p) => partition.screen(b, block.parts[p] as Part)),
    );
    if (failure !== undefined) throw failure.error;
    // Screenings come back in the order sent, so blocks are marked in file order.
    let marks: Marks;
    try {
      marks = mark(block, screened);
    } catch (error) {
      failure = { error };
      throw error;
    }
    const decided = await Promise.all(
      pool.map((partition, p) =>
        partition.decide(b, marks.duplicates[p] as Int32Array, marks.indices[p] as Int32Array),
      ),
    );
    return { block, marks, decided };
  };

  let started = false;
  async function* outcomeChunks(): AsyncGenerator<readonly Outcome[]> {
    if (started || shares === undefined) throw new Error('a replay can be iterated only once');
    started = true;
    const pool = shares.map((share, p): Partition => {
      const init = { offers, ...share, options: partitionOptions };
      return p === 0 ? new LocalPartition(init) : new ThreadPartition(init);
    });
    shares = undefined;
    // Blocks in flight: a block's screening is sent while earlier ones are still being decided,
    // so no thread waits on a round trip; few, so that items and outcomes die young.
    const inflight: Promise<DecidedBlock>[] = [];
    try {
      for await (const block of blocks()) {
        const decided = decideBlock(pool, block);
        decided.catch(() => {}); // awaited in order below; this only keeps it from being unhandled
        inflight.push(decided);
        while (inflight.length > IN_FLIGHT)
          yield merge(await (inflight.shift() as Promise<DecidedBlock>));
      }
      while (inflight.length > 0) yield merge(await (inflight.shift() as Promise<DecidedBlock>));
    } finally {
      for (const partition of pool) partition.stop();
    }
  }

  const replay: FileReplay = {
    rejected,
    summary: () =>
      totals.build({ customers: rejected.customers.length, history: rejected.history.length }),
    retained: () => ({
      customers: registered,
      transactionIds: ids.size,
      purchases: purchases.reduce((a, b) => a + b, 0),
    }),
    malformed,
    ...outcomeReaders(outcomeChunks, () => replay.summary()),
  };
  return replay;
}

type PartitionedShares = ReturnType<typeof partitionInputs>['parts'];
