import { availableParallelism } from 'node:os';
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import type { Payment, TransactionError } from '../core/outcome.js';
import { outcomeReaders } from '../core/replayStream.js';
import { SummaryBuilder } from '../core/SummaryBuilder.js';
import {
  compileOffers,
  createReplay,
  formatDay,
  LateTransactionError,
  Money,
  type Outcome,
  parseTransaction,
  resolveOptions,
  screenCustomers,
} from '../index.js';
import {
  type FileRecord,
  formatOf,
  lineBatches,
  type MalformedRecord,
  readRecordBatches,
} from './readRecords.js';
import type { FileReplay, ReplayFilePaths, ReplayFilesOptions } from './replayFiles.js';
import { readSmallInputs } from './replayFiles.js';
import { runReplayWorker } from './replayWorker.js';

/** One transaction on its way to a worker: a record, or an NDJSON line's text. */
interface Item {
  readonly value: unknown;
  readonly line: number;
  readonly route: number;
}

/** What a worker starts from (plain data: it crosses the thread boundary by structured clone). */
export interface WorkerInit {
  readonly offers: unknown[];
  readonly customers: unknown[];
  readonly history: unknown[];
  readonly options: {
    readonly timeZone: string;
    readonly scale: number;
    readonly rounding: ReturnType<typeof resolveOptions>['rounding'];
    readonly currency: string;
    readonly maxLatenessDays: number;
  };
}

/** Messages to a worker: parse and screen a block, then decide it. */
export type WorkerRequest =
  | {
      readonly type: 'screen';
      readonly block: number;
      /** Records, or NDJSON lines as text when `texts`. */
      readonly items: unknown[];
      readonly texts: boolean;
    }
  | {
      readonly type: 'decide';
      readonly block: number;
      /** Positions (in the screen request) of the items that are not malformed. */
      readonly kept: number[];
      /** Their indices in the stream, for `#<index>` keys. */
      readonly indices: number[];
      /** Positions, among the kept items, of duplicates of ids stored by another item. */
      readonly duplicates: number[];
    };

/** An outcome as it crosses back: the cashback's exact decimal as a string. */
type WireOutcome =
  | { readonly ok: true; readonly payment: Payment; readonly cashback?: undefined }
  | { readonly ok: false; readonly error: TransactionError };

/** Messages from a worker. */
export type WorkerReply =
  | {
      readonly type: 'screened';
      readonly block: number;
      readonly ids: (string | null)[];
      readonly stored: boolean[];
      readonly malformed: (string | null)[];
      readonly days: number[];
      readonly merchants: string[];
    }
  | { readonly type: 'decided'; readonly block: number; readonly outcomes: WireOutcome[] }
  | { readonly type: 'failed'; readonly name: string; readonly message: string };

// A worker thread runs the module that holds this code (no file of its own in the package), and
// this flag in its data makes it serve a partition instead of doing nothing.
const WORKER_FLAG = 'cashbackReplayWorker';
if (!isMainThread && (workerData as Record<string, unknown> | null)?.[WORKER_FLAG] === true) {
  runReplayWorker(workerData as WorkerInit);
}

const BLOCK = 1000;
const IN_FLIGHT = 8;

/** The worker of a customer id (trimmed, as the engine reads it): one customer, one worker. */
function partitionOfId(raw: string, workers: number): number {
  const id = raw.trim();
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (Math.imul(h, 31) + id.charCodeAt(i)) | 0;
  return (h >>> 0) % workers;
}

/** The worker of a record; a record with no string `customer_id` is invalid, and any will do. */
function partitionOf(item: unknown, workers: number): number {
  const id = (item as { customer_id?: unknown } | null)?.customer_id;
  return typeof id === 'string' ? partitionOfId(id, workers) : 0;
}

// A `customer_id` key in JSON text: a quote not escaped (so not inside a string), the name, a
// colon, and a string value with no escape in it.
const CUSTOMER_KEY = /(?<!\\)"customer_id"\s*:/g;
const CUSTOMER_VALUE = /(?<!\\)"customer_id"\s*:\s*"([^"\\]*)"/;

/**
 * The worker of an NDJSON line, read from its text without parsing it when the line has one
 * `customer_id` key with a plain string value; otherwise from the parsed line (a line that does
 * not parse goes to worker 0, which reports it).
 */
function partitionOfLine(text: string, workers: number): number {
  CUSTOMER_KEY.lastIndex = 0;
  let keys = 0;
  while (CUSTOMER_KEY.exec(text) !== null) keys++;
  const plain = keys === 1 ? CUSTOMER_VALUE.exec(text) : null;
  if (plain !== null) return partitionOfId(plain[1] as string, workers);
  try {
    return partitionOf(JSON.parse(text), workers);
  } catch {
    return 0;
  }
}

/** One worker thread and a queue of the replies it owes. */
class ReplayWorker {
  private readonly thread: Worker;
  private readonly waiting: ((reply: WorkerReply) => void)[] = [];
  private failure: Error | undefined;

  constructor(init: WorkerInit) {
    this.thread = new Worker(new URL(import.meta.url), {
      workerData: { ...init, [WORKER_FLAG]: true },
    });
    this.thread.on('message', (reply: WorkerReply) => this.waiting.shift()?.(reply));
    this.thread.on('error', (err) => {
      this.failure = err;
      for (const w of this.waiting.splice(0))
        w({ type: 'failed', name: err.name, message: err.message });
    });
  }

  /** Sends a request; the reply comes in request order. */
  ask(request: WorkerRequest): Promise<WorkerReply> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const reply = new Promise<WorkerReply>((resolve) => this.waiting.push(resolve));
    this.thread.postMessage(request);
    return reply;
  }

  stop(): void {
    void this.thread.terminate();
  }
}

/** Throws the error a worker reported, as the class it had where it was known. */
function rethrow(reply: WorkerReply): never {
  const message = reply.type === 'failed' ? reply.message : `unexpected reply ${reply.type}`;
  if (reply.type === 'failed' && reply.name === 'LateTransactionError')
    throw new RangeError(message);
  throw new Error(message);
}

/**
 * `replayFiles` over worker threads, partitioned by customer, with one worker's output: the same
 * outcomes in the same order. Each block of transactions is decided in two steps: every worker
 * parses and screens its items (valid? known customer?), then this thread, walking the block in
 * file order, marks as duplicates the ids stored earlier by any worker, and each worker decides
 * its items with those marks, so a duplicate across customers is found as one replay finds it.
 * Lateness is checked here over all workers, as one replay checks it.
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
  const lateness = options.maxLatenessDays ?? 31;
  const { offers, customers, history, total, skip, malformed } = await readSmallInputs(
    paths,
    options,
  );
  // Offers are checked here, so that an invalid one is reported once, before any thread starts.
  const offerSet = compileOffers(offers);
  const here = createReplay(
    { offers: offerSet, customers, history },
    { maxLatenessDays: lateness, timeZone: resolved.timeZone },
  );
  const init: WorkerInit = {
    offers,
    customers,
    history,
    options: {
      timeZone: resolved.timeZone,
      scale: resolved.scale,
      rounding: resolved.rounding,
      currency: resolved.currency,
      maxLatenessDays: lateness,
    },
  };
  const count = Math.max(1, Math.min(workers, availableParallelism() * 4));
  const totals = new SummaryBuilder(resolved.scale, resolved.currency);
  const stored = new Set<string>();
  let newest = Number.NEGATIVE_INFINITY;
  // The history the replay stores: its ids are taken, its newest day starts the lateness check.
  const known = new Set(screenCustomers(customers).accepted.map((c) => c.customerId));
  history.forEach((h, i) => {
    const p = parseTransaction(h, i, resolved.timeZone, true);
    if (!p.ok || !known.has(p.value.customerId) || stored.has(p.value.transactionId)) return;
    stored.add(p.value.transactionId);
    if (offerSet.historyKeys.has(p.value.merchantKey)) newest = Math.max(newest, p.value.when.day);
  });
  const onBytes =
    onProgress === undefined ? undefined : (bytes: number) => onProgress(bytes, total);
  const kind = formatOf(paths.transactions, format);
  let started = false;
  /** The transactions file in batches: NDJSON lines as text (parsed by the workers), else records. */
  async function* source(): AsyncGenerator<
    (FileRecord | MalformedRecord | { text: string; line: number })[]
  > {
    if (kind.format !== 'ndjson') {
      yield* readRecordBatches(paths.transactions, {
        ...(format === undefined ? {} : { format }),
        ...(onBytes === undefined ? {} : { onBytes }),
      });
      return;
    }
    yield* lineBatches(paths.transactions, kind.gzip, onBytes);
  }

  async function* outcomeChunks(): AsyncGenerator<readonly Outcome[]> {
    if (started) throw new Error('a replay can be iterated only once');
    started = true;
    const pool = Array.from({ length: count }, () => new ReplayWorker(init));
    // Blocks in flight: a block's screening is sent while earlier ones are still being decided,
    // so no thread waits on a round trip. Each block marks duplicates as soon as its screening is
    // in, and screenings come back in the order sent, so blocks are marked in file order.
    const inflight: Promise<Outcome[]>[] = [];
    const launch = (items: readonly Item[]): void => {
      const decided = decideBlock(pool, block++, items);
      decided.catch(() => {}); // awaited in order below; this only keeps it from being unhandled
      inflight.push(decided);
    };
    let block = 0;
    try {
      let items: Item[] = [];
      for await (const batch of source()) {
        for (const r of batch) {
          if ('text' in r) {
            items.push({
              value: r.text,
              line: r.line,
              route: partitionOfLine(r.text, pool.length),
            });
          } else if (!r.ok) skip(r);
          else
            items.push({ value: r.value, line: r.line, route: partitionOf(r.value, pool.length) });
          if (items.length === BLOCK) {
            launch(items);
            items = [];
          }
        }
        while (inflight.length > IN_FLIGHT) yield await (inflight.shift() as Promise<Outcome[]>);
      }
      if (items.length > 0) launch(items);
      while (inflight.length > 0) yield await (inflight.shift() as Promise<Outcome[]>);
    } finally {
      for (const w of pool) w.stop();
    }
  }

  let streamIndex = 0;
  async function decideBlock(
    pool: ReplayWorker[],
    block: number,
    items: readonly Item[],
  ): Promise<Outcome[]> {
    const parts = pool.map(() => ({ items: [] as unknown[], indices: [] as number[] }));
    const owner = items.map((item) => {
      const p = item.route;
      parts[p]?.items.push(item.value);
      return p;
    });
    const screened = await Promise.all(
      pool.map((w, p) =>
        w.ask({
          type: 'screen',
          block,
          items: parts[p]?.items ?? [],
          texts: kind.format === 'ndjson',
        }),
      ),
    );
    const duplicates = pool.map(() => [] as number[]);
    const kept = pool.map(() => [] as number[]);
    const seen = new Array<number>(pool.length).fill(0);
    const dropped = new Set<number>();
    owner.forEach((p, i) => {
      const reply = screened[p] as WorkerReply;
      if (reply.type !== 'screened') rethrow(reply);
      const at = seen[p] ?? 0;
      seen[p] = at + 1;
      const reason = reply.malformed[at];
      if (reason !== null && reason !== undefined) {
        dropped.add(i);
        skip({ ok: false, file: paths.transactions, line: (items[i] as Item).line, reason });
        return;
      }
      parts[p]?.indices.push(streamIndex++);
      kept[p]?.push(at);
      const position = (kept[p]?.length ?? 1) - 1;
      const id = reply.ids[at];
      if (id === null || id === undefined) return;
      // Duplicate before customer: a valid item of an unknown customer can be a duplicate too.
      if (stored.has(id)) {
        duplicates[p]?.push(position);
        return;
      }
      if (reply.stored[at] !== true) return;
      stored.add(id);
      if (!offerSet.historyKeys.has(reply.merchants[at] as string)) return;
      const day = reply.days[at] as number;
      if (day < newest - lateness) {
        throw new LateTransactionError(id, formatDay(day), formatDay(newest), lateness);
      }
      if (day > newest) newest = day;
    });
    const decided = await Promise.all(
      pool.map((w, p) =>
        w.ask({
          type: 'decide',
          block,
          kept: kept[p] ?? [],
          indices: parts[p]?.indices ?? [],
          duplicates: duplicates[p] ?? [],
        }),
      ),
    );
    const taken = new Array<number>(pool.length).fill(0);
    const out: Outcome[] = [];
    for (const [i, p] of owner.entries()) {
      if (dropped.has(i)) continue;
      const reply = decided[p] as WorkerReply;
      if (reply.type !== 'decided') rethrow(reply);
      const at = taken[p] ?? 0;
      taken[p] = at + 1;
      const o = reply.outcomes[at] as WireOutcome;
      const outcome: Outcome = o.ok
        ? { ok: true, payment: o.payment, cashback: cashbackOf(o.payment.cashback) }
        : o;
      totals.add(outcome);
      out.push(outcome);
    }
    return out;
  }

  /** The exact cashback of a payment: its JSON number has at most `scale` decimals. */
  const cashbackOf = (value: number): Extract<Outcome, { ok: true }>['cashback'] => {
    const decimal = new Money(String(value));
    const units = decimal.times(Money.pow(10, resolved.scale)).toNumber();
    return Number.isSafeInteger(units)
      ? { units, decimal: undefined, value }
      : { units: Number.NaN, decimal, value };
  };

  const replay: FileReplay = {
    rejected: here.rejected,
    summary: () =>
      totals.build({
        customers: here.rejected.customers.length,
        history: here.rejected.history.length,
      }),
    retained: () => ({ ...here.retained(), transactionIds: stored.size }),
    malformed,
    ...outcomeReaders(outcomeChunks, () => replay.summary()),
  };
  return replay;
}
