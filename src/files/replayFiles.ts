import { REPLAY_DATA_KEYS } from '../core/replay/ReplayData.js';
import {
  type ReplayStream,
  type ReplayStreamOptions,
  replayChunks,
  replayStream,
} from '../core/replay/replayStream.js';
import { assertKnownKeys } from '../model/knownKeys.js';
import { CORE_OPTION_KEYS } from '../model/options.js';
import { type ReadLimits, resolveReadLimits } from './limits.js';
import {
  type FileFormat,
  fileSize,
  type MalformedRecord,
  readAllRecords,
  readRecordBatches,
} from './readRecords.js';

/** The files of a replay. @public */
export interface ReplayFilePaths {
  /** Offers (usually a JSON array). */
  readonly offers: string;
  /** Customers. */
  readonly customers: string;
  /** Activations (docs/concepts.md, Activation; `date` required), known from the start. */
  readonly activations?: string;
  /** History transactions, applied after the customers. */
  readonly history?: string;
  /** The transactions to decide, in date order; streamed. */
  readonly transactions: string;
  /**
   * Returns (docs/concepts.md, Returns), read whole and merged with the transactions by
   * date-time (docs/replay.md, Returns).
   */
  readonly returns?: string;
}

/** Options of `replayFiles`: those of `replayStream` plus how files are read. @public */
export interface ReplayFilesOptions extends ReplayStreamOptions {
  /**
   * The format of every file, when their names do not say it.
   * @defaultValue from each file's name
   */
  readonly format?: FileFormat;
  /**
   * Whether a malformed line or row of any file ends the replay with a `MalformedRecordError`.
   * @defaultValue `false`: it is passed to `onMalformed` and skipped
   */
  readonly strict?: boolean;
  /** Called with every malformed line or row that is skipped. */
  readonly onMalformed?: (record: MalformedRecord) => void;
  /** Called as the transactions file is read: bytes read so far and the file's size. */
  readonly onProgress?: (bytes: number, totalBytes: number) => void;
  /**
   * The longest line, CSV field and JSON value, and the deepest JSON nesting, in every file; past
   * one, the replay ends with a `ReadLimitError` (docs/replay.md, Limits).
   * @defaultValue each limit's own default (see {@link ReadLimits})
   */
  readonly limits?: ReadLimits;
}

/** A line or row that could not be read, in a strict replay. @public */
export class MalformedRecordError extends Error {
  /** The line or row. */
  readonly record: MalformedRecord;

  /** @param record - the malformed line or row */
  constructor(record: MalformedRecord) {
    super(`${record.file}:${record.line}: ${record.reason}`);
    this.name = 'MalformedRecordError';
    this.record = record;
  }
}

/** A replay of files: the outcomes of the transactions file, and what was skipped. @public */
export interface FileReplay extends ReplayStream {
  /** How many malformed lines or rows were skipped so far, over all files. */
  malformed(): number;
}

const FILE_OPTION_KEYS: readonly string[] = [
  ...CORE_OPTION_KEYS,
  'maxLatenessDays',
  'chunkSize',
  'format',
  'strict',
  'onMalformed',
  'onProgress',
  'limits',
];

/** The inputs of a replay that are read whole, besides the offers. */
export interface WholeInputs {
  readonly customers: unknown[];
  readonly activations: unknown[];
  readonly history: unknown[];
  /** The returns, when a returns file is given. */
  readonly returns: unknown[] | undefined;
}

/**
 * Reads the customers, activations, history and returns files whole, in that order: without an
 * activations or history file there are none, without a returns file the replay takes no returns.
 * @param paths - the files
 * @param whole - reads the records of one file, skipping its malformed ones
 * @returns the records of each file
 */
export async function readWholeInputs(
  paths: Pick<ReplayFilePaths, 'customers' | 'activations' | 'history' | 'returns'>,
  whole: (file: string) => Promise<unknown[]>,
): Promise<WholeInputs> {
  const customers = await whole(paths.customers);
  const activations = paths.activations === undefined ? [] : await whole(paths.activations);
  const history = paths.history === undefined ? [] : await whole(paths.history);
  const returns = paths.returns === undefined ? undefined : await whole(paths.returns);
  return { customers, activations, history, returns };
}

/** The inputs of a file replay that are read whole, and the malformed records skipped so far. */
export interface SmallInputs extends WholeInputs {
  readonly offers: unknown[];
  /** The size of the transactions file, in bytes. */
  readonly total: number;
  /** Skips a malformed record (counts it, passes it to `onMalformed`), or throws in a strict replay. */
  readonly skip: (record: MalformedRecord) => void;
  /** How many malformed records were skipped so far, over all files. */
  readonly malformed: () => number;
}

/**
 * Reads the offers, customers, history and returns files whole, skipping their malformed records, after
 * checking that the transactions file can be read (a missing one fails before any work).
 * @param paths - the files
 * @param options - how files are read and malformed records treated
 * @returns the records, the transactions file's size and the shared skip and count
 * @throws FileReadError for a file that cannot be read; MalformedRecordError in a strict replay
 */
export async function readSmallInputs(
  paths: ReplayFilePaths,
  options: Pick<ReplayFilesOptions, 'format' | 'strict' | 'onMalformed' | 'limits'>,
): Promise<SmallInputs> {
  const { format, strict, onMalformed } = options;
  const limits = resolveReadLimits(options.limits);
  let malformed = 0;
  const skip = (record: MalformedRecord): void => {
    if (strict === true) throw new MalformedRecordError(record);
    malformed++;
    onMalformed?.(record);
  };
  const whole = async (file: string): Promise<unknown[]> => {
    const read = await readAllRecords(file, {
      ...(format === undefined ? {} : { format }),
      limits,
    });
    for (const m of read.malformed) skip(m);
    return read.records;
  };
  const total = await fileSize(paths.transactions);
  const offers = await whole(paths.offers);
  return {
    offers,
    ...(await readWholeInputs(paths, whole)),
    total,
    skip,
    malformed: () => malformed,
  };
}

/**
 * Replays files: reads offers, customers, history and returns whole, then streams the
 * transactions file through `replayStream`, returns merged by date-time (docs/replay.md,
 * Replaying files; Returns); their outcomes come from `takeReturnOutcomes`. Formats: JSON arrays, NDJSON, CSV,
 * Parquet, gzip-compressed or not (see `readRecords`).
 * @param paths - the files
 * @param options - the `replayStream` options, plus `format`, `strict`, `onMalformed`,
 *   `onProgress` and `limits`
 * @returns the replay; iterate it (once) for the outcomes
 * @throws FileReadError for a file that cannot be read; MalformedRecordError in a strict replay;
 *   ReadLimitError (a FileReadError) past a read limit; the errors of `replayStream`; TypeError
 *   for an unknown option, path key or limit; RangeError for a limit out of range
 * @example
 * ```ts
 * const r = await replayFiles({ offers: 'offers.json', customers: 'customers.csv', transactions: 'tx.ndjson.gz' });
 * const { payments, summary } = await r.collect();
 * ```
 * @public
 */
export async function replayFiles(
  paths: ReplayFilePaths,
  options: ReplayFilesOptions = {},
): Promise<FileReplay> {
  assertKnownKeys(paths, REPLAY_DATA_KEYS, 'replayFiles paths', 'field');
  const { format, strict, onMalformed, onProgress, limits: given, ...streamOptions } = options;
  assertKnownKeys(options, FILE_OPTION_KEYS, 'replayFiles options');
  const limits = resolveReadLimits(given);
  const { offers, customers, activations, history, returns, total, skip, malformed } =
    await readSmallInputs(paths, { format, strict, onMalformed, limits });
  const batches = readRecordBatches(paths.transactions, {
    ...(format === undefined ? {} : { format }),
    limits,
    ...(onProgress === undefined ? {} : { onBytes: (bytes: number) => onProgress(bytes, total) }),
  });
  async function* values(): AsyncGenerator<unknown[]> {
    for await (const batch of batches) {
      const chunk: unknown[] = [];
      for (const r of batch) {
        if (r.ok) chunk.push(r.value);
        else skip(r);
      }
      yield chunk;
    }
  }
  const { chunkSize: _, ...sessionOptions } = streamOptions;
  const data = {
    offers,
    customers,
    activations,
    history,
    ...(returns === undefined ? {} : { returns }),
  };
  const stream =
    streamOptions.chunkSize === undefined
      ? replayChunks(data, values(), sessionOptions)
      : replayStream(
          data,
          (async function* () {
            for await (const chunk of values()) yield* chunk;
          })(),
          streamOptions,
        );
  return Object.assign(stream, { malformed });
}
