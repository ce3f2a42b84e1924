import { availableParallelism } from 'node:os';
import { isMainThread, type TransferListItem, Worker, workerData } from 'node:worker_threads';
import { outcomeReaders } from '../core/replayStream.js';
import { SummaryBuilder } from '../core/SummaryBuilder.js';
import {
  compileOffers,
  formatDay,
  LateTransactionError,
  type Outcome,
  resolveOptions,
} from '../index.js';
import { wholeNumber } from '../model/wholeNumber.js';
import { type Block, lineBlocks, type Part, recordBlocks } from './blocks.js';
import { partitionInputs } from './partitionInputs.js';
import { ITEM, type PartitionInit, PartitionReplay, type Screening } from './partitionReplay.js';
import { formatOf, readRecordBatches } from './readRecords.js';
import type { FileReplay, ReplayFilePaths, ReplayFilesOptions } from './replayFiles.js';
import { readSmallInputs } from './replayFiles.js';
import { runReplayWorker, type WorkerReply, type WorkerRequest } from './replayWorker.js';
import {
  duplicateOutcome,
  OutcomeList,
  OutcomeReader,
  type OutcomeSource,
} from './wireOutcomes.js';

// A worker thread runs the module that holds this code (no file of its own in the package), and
// this flag in its data makes it serve a partition instead of doing nothing.
const WORKER_FLAG = 'cashbackReplayWorker';
if (!isMainThread && (workerData as Record<string, unknown> | null)?.[WORKER_FLAG] === true) {
  runReplayWorker();
}

/** Transactions a block. */
const BLOCK = 1000;
/** Blocks sent ahead of the one whose outcomes are awaited. */
const IN_FLIGHT = 2;

/** A partition's part of a block, decided: its outcomes to take in order. */
interface DecidedPart {
  readonly outcomes: OutcomeSource;
  /** Purchases the partition's session holds now. */
  readonly purchases: number;
}

/** A partition as the reading thread drives it, in this thread or in a worker thread. */
interface Partition {
  screen(block: number, part: Part): Promise<Screening>;
  decide(block: number, duplicates: Int32Array, indices: Int32Array): Promise<DecidedPart>;
  stop(): void;
}

/** Partition 0, replayed in the reading thread: no copy of its items or outcomes. */
class LocalPartition implements Partition {
  private readonly replay: PartitionReplay;

  constructor(init: PartitionInit) {
    this.replay = new PartitionReplay(init);
  }

  async screen(block: number, part: Part): Promise<Screening> {
    return this.replay.screen(block, part);
  }

  async decide(block: number, duplicates: Int32Array, indices: Int32Array): Promise<DecidedPart> {
    const outcomes = new OutcomeList(this.replay.decide(block, duplicates, indices));
    return { outcomes, purchases: this.replay.purchases() };
  }

  stop(): void {}
}

/** A partition replayed in a worker thread, with a queue of the replies it owes. */
class ThreadPartition implements Partition {
  private readonly thread: Worker;
  private readonly waiting: ((reply: WorkerReply) => void)[] = [];
  private failure: Error | undefined;

  constructor(init: PartitionInit) {
    this.thread = new Worker(new URL(import.meta.url), { workerData: { [WORKER_FLAG]: true } });
    this.thread.on('message', (reply: WorkerReply) => this.waiting.shift()?.(reply));
    this.thread.on('error', (err) => {
      this.failure = err;
      for (const w of this.waiting.splice(0))
        w({ type: 'failed', name: err.name, message: err.message });
    });
    this.thread.postMessage({ type: 'start', init } satisfies WorkerRequest);
  }

  async screen(block: number, part: Part): Promise<Screening> {
    // NDJSON text moves to the worker; records are copied.
    const transfer = 'text' in part ? [part.text.buffer as ArrayBuffer] : [];
    return this.ask({ type: 'screen', block, part }, 'screened', transfer);
  }

  async decide(block: number, duplicates: Int32Array, indices: Int32Array): Promise<DecidedPart> {
    const r = await this.ask({ type: 'decide', block, duplicates, indices }, 'decided');
    return { outcomes: new OutcomeReader(r.outcomes), purchases: r.purchases };
  }

  /** Sends a request, handing over `transfer`; replies come in request order. */
  private ask<T extends WorkerReply['type']>(
    request: WorkerRequest,
    expected: T,
    transfer: readonly TransferListItem[] = [],
  ): Promise<Extract<WorkerReply, { type: T }>> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const reply = new Promise<WorkerReply>((resolve) => this.waiting.push(resolve));
    this.thread.postMessage(request, transfer);
    return reply.then((r) => {
      if (r.type === expected) return r as Extract<WorkerReply, { type: T }>;
      throw new Error(r.type === 'failed' ? r.message : `unexpected reply ${r.type}`);
    });
  }

  stop(): void {
    void this.thread.terminate();
  }
}

/** What the walk of a block in file order found: per item, how its outcome is made. */
interface Marks {
  /** Per item: 0 skipped (blank or malformed), 1 duplicate, 2 decided by its worker. */
  readonly kinds: Uint8Array;
  /** Per item: its transaction id, or `null` when it has none. */
  readonly ids: (string | null)[];
  /** Per worker: positions in its part of the duplicates. */
  readonly duplicates: Int32Array[];
  /** Per worker: stream indices of its invalid items. */
  readonly indices: Int32Array[];
}
/** A block decided by every worker, its outcomes still in their wire form. */
interface DecidedBlock {
  readonly block: Block;
  readonly marks: Marks;
  readonly decided: readonly DecidedPart[];
}
const SKIPPED = 0;
const DUPLICATE = 1;
const DECIDED = 2;

/**
 * `replayFiles` over worker threads partitioned by customer, with one worker's output: the same
 * outcomes in the same order (docs/replay.md, Workers). This thread screens customers and history
 * as one replay does and gives each worker its own customers and their stored history, then cuts
 * the transactions file into blocks routed by customer (NDJSON as bytes, parsed by the workers).
 * Each block is decided in two steps: every worker parses and screens its items (valid? known
 * customer?); this thread, walking the block in file order, marks as duplicates the ids stored
 * before by anyone and checks date order over all workers, as one replay does; each worker then
 * decides its items with those marks, and this thread puts the outcomes back in file order.
 * @param paths - the files
 * @param options - as for `replayFiles` (custom `operators` cannot cross to a worker)
 * @param workers - how many worker threads
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
  // Dropped once the workers have their copies: this thread keeps no customer.
  let shares: PartitionedShares | undefined = start.parts;
  const workerOptions = {
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
  const decideBlock = async (pool: readonly Partition[], block: Block): Promise<DecidedBlock> => {
    const b = n++;
    const screened = await Promise.all(
      pool.map((partition, p) => partition.screen(b, block.parts[p] as Part)),
    );
    // Screenings come back in the order sent, so blocks are marked in file order.
    const marks = mark(block, screened);
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
      const init = { offers, ...share, options: workerOptions };
      return p === 0 ? new LocalPartition(init) : new ThreadPartition(init);
    });
    shares = undefined;
    // Blocks in flight: a block's screening is sent while earlier ones are still being decided,
    // so no thread waits on a round trip.
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
      for (const w of pool) w.stop();
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
