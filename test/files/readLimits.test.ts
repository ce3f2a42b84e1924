/**
 * The read limits of `cashback-engine/files` (docs/replay.md, Limits) against the hostile files
 * they exist for, generated here: a 32 MiB line, a long quoted CSV field, a small gzip that inflates
 * to 1 GiB without a line break, a gzip of many `[`. Each read ends with a `ReadLimitError` naming
 * the file, the line and the limit, having read little past the limit; a long line under a raised
 * limit is read whole, in time and memory linear in its length. `replayFiles` and the parallel
 * driver take the same limits as an option, for every file they read; so does the reader of one
 * JSON value (the transaction of `cashback explain`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FileReadError,
  ReadLimitError,
  type ReadLimits,
  type ReadRecordsOptions,
  readAllRecords,
  readRecords,
  replayFiles,
} from '../../src/files/index.js';
import { readJsonValue } from '../../src/files/jsonValue.js';
import { replayInWorkers } from '../../src/files/parallel/replayInWorkers.js';
import { sampleData } from './generated.js';

const dir = mkdtempSync(join(tmpdir(), 'cashback-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MiB = 2 ** 20;
let count = 0;
const file = (name: string, content: string | Uint8Array): string => {
  const path = join(dir, `${count++}-${name}`);
  writeFileSync(path, content);
  return path;
};

/**
 * A gzip file that inflates to `mebibytes` MiB of `a` with no line break: one compressed MiB
 * (about 1 KB) repeated as members of one file, which gunzip reads as one stream.
 */
function gzipBomb(mebibytes: number): Buffer {
  const member = gzipSync(Buffer.alloc(MiB, 'a'), { level: 9 });
  return Buffer.concat(Array.from({ length: mebibytes }, () => member));
}

/** Reads `path` to its end; the error it ends with, and the most bytes of the file it read. */
async function failure(
  path: string,
  options: ReadRecordsOptions = {},
): Promise<{ error: unknown; bytes: number; records: number }> {
  let bytes = 0;
  let records = 0;
  try {
    for await (const r of readRecords(path, { ...options, onBytes: (b) => (bytes = b) })) {
      if (r.ok) records++;
    }
  } catch (error) {
    return { error, bytes, records };
  }
  return { error: undefined, bytes, records };
}

/** Asserts a `ReadLimitError` of `limit` at `line` of `path`. */
function expectLimit(error: unknown, path: string, limit: keyof ReadLimits, line: number): void {
  expect(error).toBeInstanceOf(ReadLimitError);
  expect(error).toBeInstanceOf(FileReadError);
  const e = error as ReadLimitError;
  expect({ file: e.file, line: e.line, limit: e.limit }).toEqual({ file: path, line, limit });
  expect(e.message).toContain(path);
  expect(e.message).toContain(`line ${line}`);
  expect(e.message).toContain(limit);
}

const good = '{"transaction_id":"t-1"}';

describe('the line limit', () => {
  it('ends an NDJSON file at a 32 MiB line, naming the line, after reading little past 8 MiB', async () => {
    const path = file('long.ndjson', `${good}\n"${'x'.repeat(32 * MiB)}"\n${good}\n`);
    const { error, bytes, records } = await failure(path);
    expectLimit(error, path, 'maxLineBytes', 2);
    expect((error as ReadLimitError).max).toBe(8 * MiB);
    expect(records).toBe(1);
    expect(bytes).toBeLessThan(9 * MiB);
  });

  it('reads a 32 MiB line whole under a raised limit', async () => {
    const long = 'x'.repeat(32 * MiB);
    const path = file('raised.ndjson', `${good}\r\n"${long}"\r\n${good}`);
    const read = await readAllRecords(path, { limits: { maxLineBytes: 33 * MiB } });
    expect(read.records.length).toBe(3);
    expect(read.records[1]).toBe(long);
  });

  it('ends a small gzip that inflates to 1 GiB without a line break', async () => {
    const bomb = gzipBomb(1024);
    expect(bomb.length).toBeLessThan(2 * MiB);
    const path = file('bomb.ndjson.gz', bomb);
    const { error, bytes } = await failure(path);
    expectLimit(error, path, 'maxLineBytes', 1);
    // 8 MiB inflated is about 1% of the file: it stopped near there.
    expect(bytes).toBeLessThan(bomb.length / 10);
  });

  it('counts bytes of UTF-8, not characters, and not the CR of a CRLF', async () => {
    for (const max of [8, 9, 10, 11, 64]) {
      const text = `"${'é'.repeat(4)}"`; // 10 bytes
      for (const end of ['\n', '\r\n']) {
        const path = file('utf8.ndjson', `${text}${end}${text}${end}`);
        const { error, records } = await failure(path, { limits: { maxLineBytes: max } });
        if (max >= 10) expect({ error, records }).toEqual({ error: undefined, records: 2 });
        else expectLimit(error, path, 'maxLineBytes', 1);
      }
    }
  });

  it('bounds a CSV row, quoted line breaks included, by the line it starts on', async () => {
    const row = Array.from({ length: 2000 }, (_, i) => `"cell\n${i}"`).join(',');
    const path = file('wide.csv', `a,b\n1,2\n${row}\n3,4\n`);
    const { error, records } = await failure(path, { limits: { maxLineBytes: 4096 } });
    expectLimit(error, path, 'maxLineBytes', 3);
    expect(records).toBe(1);
  });
});

describe('the CSV field limit', () => {
  it('ends a CSV file at a 32 MiB quoted field, naming the line its row starts on', async () => {
    const path = file('field.csv', `id,note\nt-1,short\nt-2,"${'y\n'.repeat(16 * MiB)}"\nt-3,x\n`);
    const { error, bytes, records } = await failure(path);
    expectLimit(error, path, 'maxFieldBytes', 3);
    expect(records).toBe(1);
    expect(bytes).toBeLessThan(3 * MiB);
  });

  it('ends a gzip-compressed CSV file at a long unquoted field too', async () => {
    const path = file('field.csv.gz', gzipSync(`id,note\nt-1,${'z'.repeat(2 * MiB)}\n`));
    const { error } = await failure(path);
    expectLimit(error, path, 'maxFieldBytes', 2);
  });

  it('reads a 32 MiB quoted field whole under raised limits', async () => {
    const long = 'y\n'.repeat(16 * MiB);
    const path = file('raised.csv', `id,note\nt-1,"${long}"\nt-2,x\n`);
    const limits = { maxFieldBytes: 33 * MiB, maxLineBytes: 33 * MiB };
    const read = await readAllRecords(path, { limits });
    expect(read.records.length).toBe(2);
    expect((read.records[0] as { note: string }).note.length).toBe(long.length);
    expect(read.records[1]).toEqual({ id: 't-2', note: 'x' });
  });
});

describe('the JSON limits', () => {
  it('ends a gzip of 4 MB of `[` at the nesting limit, on line 1', async () => {
    const path = file('brackets.json.gz', gzipSync(Buffer.alloc(4 * 10 ** 6, '[')));
    const { error } = await failure(path);
    expectLimit(error, path, 'maxDepth', 1);
    expect((error as ReadLimitError).max).toBe(64);
  });

  it('counts the file’s array as the first level, and names the line where nesting goes too deep', async () => {
    const nested = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
    const path = file('deep.json', `[\n1,\n${nested(3)},\n${nested(4)}\n]`);
    expect((await readAllRecords(path, { limits: { maxDepth: 5 } })).records.length).toBe(3);
    const over = await failure(path, { limits: { maxDepth: 4 } });
    expectLimit(over.error, path, 'maxDepth', 4);
    expect(over.records).toBe(2);
  });

  it('ends a JSON array at an item past the value limit, a long string or a long object', async () => {
    const long = `"${'s'.repeat(32 * MiB)}"`;
    const path = file('value.json', `[\n  ${good},\n  ${long}\n]`);
    const { error, bytes } = await failure(path);
    expectLimit(error, path, 'maxValueBytes', 3);
    expect(bytes).toBeLessThan(9 * MiB);
    const object = `{"a": [${'1,'.repeat(10_000)}1]}`;
    const small = file('object.json', `[${good},\n\n${object}]`);
    const over = await failure(small, { limits: { maxValueBytes: 1000 } });
    expectLimit(over.error, small, 'maxValueBytes', 3);
    expect(over.records).toBe(1);
    // A string item is one token: past the limit, it is not yielded before the error.
    const short = file('string.json', `[${good},\n"${'o'.repeat(2000)}", 1]`);
    const string = await failure(short, { limits: { maxValueBytes: 1000 } });
    expectLimit(string.error, short, 'maxValueBytes', 2);
    expect((string.error as ReadLimitError).message).toContain('item 2 is longer than 1000 bytes');
    expect(string.records).toBe(1);
  });
});

describe('the limits option', () => {
  it('refuses an unknown limit, naming it, and values that are not whole numbers from 1', async () => {
    const path = file('ok.ndjson', good);
    const read = (limits: unknown) => readAllRecords(path, { limits: limits as ReadLimits });
    await expect(read({ maxLineByte: 10 })).rejects.toThrow(/unknown limit 'maxLineByte'/);
    await expect(read({ maxDepth: 0 })).rejects.toThrow(RangeError);
    await expect(read({ maxDepth: 1001 })).rejects.toThrow(RangeError);
    await expect(read({ maxFieldBytes: 1.5 })).rejects.toThrow(RangeError);
    await expect(read({ maxValueBytes: '10' })).rejects.toThrow(TypeError);
    await expect(read('big')).rejects.toThrow(TypeError);
    expect((await read({ maxLineBytes: 1000 })).records).toEqual([{ transaction_id: 't-1' }]);
  });
});

describe('the limits of a replay of files', () => {
  const sample = sampleData();
  const ndjson = (items: readonly unknown[]): string =>
    items.map((t) => JSON.stringify(t)).join('\n');
  const inputs = () => ({
    offers: file('offers.json', JSON.stringify(sample.offers)),
    customers: file('customers.ndjson', ndjson(sample.customers)),
  });
  /** The sample transactions with a 402-byte line after the first. */
  const transactions = (): string => {
    const [first, ...rest] = sample.transactions;
    return `${JSON.stringify(first)}\n"${'x'.repeat(400)}"\n${ndjson(rest)}\n`;
  };
  const drain = async (replay: { chunks(): AsyncIterable<unknown> }): Promise<unknown> => {
    try {
      for await (const _ of replay.chunks());
    } catch (error) {
      return error;
    }
    return undefined;
  };

  it('replayFiles ends at a line past its maxLineBytes, and reads it under the default', async () => {
    const paths = { ...inputs(), transactions: file('tx.ndjson', transactions()) };
    const low = await replayFiles(paths, { limits: { maxLineBytes: 300 } });
    expectLimit(await drain(low), paths.transactions, 'maxLineBytes', 2);
    const summary = (await (await replayFiles(paths)).collect()).summary;
    expect(summary.transactions).toBe(sample.transactions.length + 1);
  });

  it('replayFiles bounds the files read whole too', async () => {
    const paths = { ...inputs(), transactions: file('tx.ndjson', ndjson(sample.transactions)) };
    const error = await replayFiles(paths, { limits: { maxLineBytes: 100 } }).catch((e) => e);
    expectLimit(error, paths.customers, 'maxLineBytes', 1);
  });

  it('replayFiles refuses an unknown limit or one out of range, before reading', async () => {
    const paths = { ...inputs(), transactions: join(dir, 'missing.ndjson') };
    const limits = (l: unknown) => ({ limits: l as ReadLimits });
    await expect(replayFiles(paths, limits({ maxLine: 1 }))).rejects.toThrow(
      /unknown limit 'maxLine'/,
    );
    await expect(replayFiles(paths, limits({ maxDepth: 0 }))).rejects.toThrow(RangeError);
  });

  it('the parallel driver ends at the line, NDJSON as bytes and CSV as records', async () => {
    const ndjsonPaths = { ...inputs(), transactions: file('tx.ndjson', transactions()) };
    const nd = await replayInWorkers(ndjsonPaths, { limits: { maxLineBytes: 300 } }, 1);
    expectLimit(await drain(nd), ndjsonPaths.transactions, 'maxLineBytes', 2);
    const csv = `transaction_id,customer_id\nt-1,c-1\nt-2,${'c'.repeat(300)}\n`;
    const csvPaths = { ...inputs(), transactions: file('tx.csv', csv) };
    const rows = await replayInWorkers(csvPaths, { limits: { maxFieldBytes: 200 } }, 1);
    expectLimit(await drain(rows), csvPaths.transactions, 'maxFieldBytes', 3);
  });
});

describe('one JSON value under the limits', () => {
  it('is read as the only item of an array: its bytes and nesting bounded', async () => {
    const one = file('one.json', `\uFEFF${JSON.stringify(sampleData().transactions[0])}\n`);
    expect(await readJsonValue(one)).toEqual(sampleData().transactions[0]);
    expectLimit(
      await readJsonValue(one, { maxValueBytes: 50 }).catch((e) => e),
      one,
      'maxValueBytes',
      1,
    );
    expectLimit(await readJsonValue(one, { maxDepth: 2 }).catch((e) => e), one, 'maxDepth', 1);
    const brackets = file('brackets.json.gz', gzipSync(Buffer.alloc(4 * 10 ** 6, '[')));
    expectLimit(await readJsonValue(brackets).catch((e) => e), brackets, 'maxDepth', 1);
  });

  it('refuses a file with no value, several values or broken JSON', async () => {
    for (const [text, why] of [
      ['  ', 'not valid JSON: the file holds no JSON value'],
      ['1, 2', 'not valid JSON: it holds several values'],
      ['{"a": 1', 'not valid JSON'],
      ['{"a": 1}]', 'not valid JSON'],
    ] as const) {
      const path = file('bad.json', text);
      await expect(readJsonValue(path)).rejects.toThrow(new FileReadError(path, why));
    }
  });
});
