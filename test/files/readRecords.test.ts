/**
 * The file readers of `cashback-engine/files` on real files in a temporary directory: each format,
 * gzip, malformed lines, missing files; and `replayFiles` / `replayStream` give `replay()`'s
 * payments and errors.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FileReadError,
  formatOf,
  MalformedRecordError,
  readAllRecords,
  readRecords,
  replayFiles,
} from '../../src/files/index.js';
import { replay, replayStream } from '../../src/index.js';
import { type FlatTransaction, generatedData, nested, sampleData } from './generated.js';

const dir = mkdtempSync(join(tmpdir(), 'cashback-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, content: string | Uint8Array): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const ndjson = (items: readonly unknown[]): string =>
  items.map((t) => JSON.stringify(t)).join('\n');
const csv = (rows: readonly FlatTransaction[]): string =>
  stringify(rows as unknown as Record<string, unknown>[], { header: true });
const parquet = (rows: readonly FlatTransaction[]): ArrayBuffer =>
  parquetWriteBuffer({
    columnData: Object.keys(rows[0] ?? {}).map((name) => ({
      name,
      data: rows.map((r) => r[name as keyof FlatTransaction]),
      type: name === 'amount' ? ('DOUBLE' as const) : ('STRING' as const),
    })),
    rowGroupSize: 7,
  });

const data = generatedData(7, 20, 40);
const expected = data.transactions.map(nested);

describe('readRecords', () => {
  it('reads JSON arrays, NDJSON, CSV and Parquet into the same nested records', async () => {
    const flat = data.transactions;
    const files = [
      file('t.json', JSON.stringify(expected)),
      file('t.ndjson', ndjson(expected)),
      file('t.jsonl', `${ndjson(expected)}\n\n`),
      file('t.csv', csv(flat)),
      file('t.parquet', new Uint8Array(parquet(flat))),
    ];
    for (const path of files) {
      const read = await readAllRecords(path);
      // CSV cells are strings: the engine reads a plain decimal string as the same amount.
      const values = read.records.map((r) => ({
        ...(r as object),
        amount: Number((r as { amount: unknown }).amount),
      }));
      expect(values, path).toEqual(expected);
      expect(read.malformed, path).toEqual([]);
    }
  });

  it('reads Parquet struct columns and column chunks of many pages into the same records', async () => {
    const text = (name: string) =>
      ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }) as const;
    const struct = (name: string, children: number) =>
      ({ name, repetition_type: 'OPTIONAL', num_children: children }) as const;
    const top = ['transaction_id', 'customer_id', 'description', 'date'];
    const bytes = parquetWriteBuffer({
      columnData: [
        ...top.map((name) => ({ name, data: expected.map((t) => t[name]) })),
        { name: 'amount', data: expected.map((t) => t.amount) },
        { name: 'merchant', data: expected.map((t) => t.merchant) },
        { name: 'location', data: expected.map((t) => t.location) },
      ],
      schema: [
        { name: 'root', num_children: 7 },
        ...top.map(text),
        { name: 'amount', type: 'DOUBLE', repetition_type: 'REQUIRED' },
        struct('merchant', 3),
        ...['id', 'name', 'category_code'].map(text),
        struct('location', 2),
        ...['country', 'city'].map(text),
      ],
      // Pages of a few rows, so that a row group's column chunk is read across pages.
      pageSize: 64,
      rowGroupSize: 13,
    });
    const read = await readAllRecords(file('nested.parquet', new Uint8Array(bytes)));
    expect(read.records.map((r) => ({ ...(r as object) }))).toEqual(expected);
    expect(read.malformed).toEqual([]);
  });

  it('reads gzip-compressed files the same as plain ones', async () => {
    const plain = await readAllRecords(file('g.ndjson', ndjson(expected)));
    const zipped = await readAllRecords(file('g.ndjson.gz', gzipSync(ndjson(expected))));
    const zippedCsv = await readAllRecords(file('g.csv.gz', gzipSync(csv(data.transactions))));
    expect(zipped).toEqual(plain);
    expect(zippedCsv.records.length).toBe(expected.length);
  });

  it('reports a malformed NDJSON line with file, line and reason, and reads on', async () => {
    const path = file(
      'bad.ndjson',
      `${JSON.stringify(expected[0])}\n{"transaction_id": \n${JSON.stringify(expected[1])}\n`,
    );
    const read = await readAllRecords(path);
    expect(read.records).toEqual([expected[0], expected[1]]);
    expect(read.malformed).toEqual([
      { ok: false, file: path, line: 2, reason: expect.stringMatching(/^not valid JSON: /) },
    ]);
  });

  it('reports a CSV row with the wrong number of cells by its line, and reads on', async () => {
    const path = file('bad.csv', 'transaction_id,amount\nt-1,2.5\nt-2,3,extra\nt-3,4\n');
    const read = await readAllRecords(path);
    expect(read.records).toEqual([
      { transaction_id: 't-1', amount: '2.5' },
      { transaction_id: 't-3', amount: '4' },
    ]);
    expect(read.malformed).toEqual([
      { ok: false, file: path, line: 3, reason: expect.stringMatching(/column/i) },
    ]);
  });

  it('numbers CSV rows by the line they start on, across blank lines, CRLF, a BOM and quoted line breaks', async () => {
    const text =
      '\uFEFFtransaction_id,merchant.name\r\n' +
      't-1,"two\r\nlines"\r\n' +
      '\r\n' +
      't-2,"x""y"\r\n' +
      't-3,plain,extra\r\n' +
      't-4,last';
    const read = await readAllRecords(file('lines.csv', text));
    expect(JSON.parse(JSON.stringify(read.records))).toEqual([
      { transaction_id: 't-1', merchant: { name: 'two\nlines' } },
      { transaction_id: 't-2', merchant: { name: 'x"y' } },
      { transaction_id: 't-4', merchant: { name: 'last' } },
    ]);
    expect(read.malformed).toEqual([
      {
        ok: false,
        file: expect.stringContaining('lines.csv'),
        line: 6,
        reason: 'the row has 3 cells, the header names 2 columns',
      },
    ]);
    const lines: number[] = [];
    for await (const r of readRecords(file('lines2.csv', text))) lines.push(r.line);
    expect(lines).toEqual([2, 5, 6, 7]);
  });

  it('reads a CSV file whose lines end in LF and CRLF both, whichever comes first, in one piece or many', async () => {
    const small = {
      'crlf-then-lf.csv': 'a,b\r\n1,2\r\n3,4\n5,6\n',
      'lf-then-crlf.csv': 'a,b\n1,2\n3,4\r\n5,6\r\n',
    };
    for (const [name, text] of Object.entries(small)) {
      const read = await readAllRecords(file(name, text));
      expect(read.malformed, name).toEqual([]);
      expect(JSON.parse(JSON.stringify(read.records)), name).toEqual([
        { a: '1', b: '2' },
        { a: '3', b: '4' },
        { a: '5', b: '6' },
      ]);
    }
    // A file read in pieces of 64 KiB (16 KiB once gunzipped), its rows ending in CRLF and LF
    // by turns, with one row padded so that a CRLF straddles the first boundary.
    const rows: string[] = [];
    let length = 'id,n\r\n'.length;
    for (let i = 0; length < 200_000; i++) {
      let row = `t-${i},${i}`;
      if (length < 65_535 && length + row.length + 40 > 65_535) row = row.padEnd(65_535 - length);
      const end = length + row.length === 65_535 || i % 2 === 0 ? '\r\n' : '\n';
      rows.push(row + end);
      length += row.length + end.length;
    }
    const text = `id,n\r\n${rows.join('')}`;
    expect(text.slice(65_535, 65_537)).toBe('\r\n');
    for (const [name, content] of [
      ['mixed.csv', text],
      ['mixed.csv.gz', gzipSync(text)],
    ] as const) {
      const read: unknown[] = [];
      for await (const r of readRecords(file(name, content))) {
        read.push(r.ok ? [r.line, (r.value as { n: string }).n.replace(/ +$/, '')] : r);
      }
      expect(read, name).toEqual(rows.map((_, i) => [i + 2, String(i)]));
    }
  });

  it('reports an unterminated quote as a malformed row with its line', async () => {
    const read = await readAllRecords(file('quote.csv', 'a,b\n1,2\n3,"open\n4,5\n'));
    expect(read.records).toEqual([{ a: '1', b: '2' }]);
    expect(read.malformed).toEqual([
      expect.objectContaining({ line: 3, reason: expect.stringMatching(/quote/i) }),
    ]);
  });

  it('keeps line numbers right over a CSV file read in many pieces, compressed or not', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) =>
      i % 1000 === 7 ? `t-${i},"multi\nline ${i}"` : i % 1000 === 9 ? `t-${i}` : `t-${i},m${i}`,
    );
    const text = `id,merchant.name\n${rows.join('\n')}\n`;
    for (const [name, content] of [
      ['many.csv', text],
      ['many.csv.gz', gzipSync(text)],
    ] as const) {
      const read: { line: number; ok: boolean; id?: unknown }[] = [];
      for await (const r of readRecords(file(name, content))) {
        read.push(r.ok ? { line: r.line, ok: true, id: (r.value as { id: unknown }).id } : r);
      }
      expect(read).toHaveLength(30_000);
      // Row i starts on line 2 + i + (the multi-line cells before it).
      for (const [i, r] of read.entries()) {
        const line = 2 + i + Math.floor((i + 992) / 1000);
        expect(r.line, `row ${i} of ${name}`).toBe(line);
        expect(r.ok).toBe(i % 1000 !== 9);
      }
    }
  });

  it('reads columns named __proto__ or constructor as fields, never touching Object.prototype', async () => {
    const path = file(
      'proto.csv',
      'transaction_id,__proto__.polluted,constructor.prototype.polluted\nt-1,yes,yes\n',
    );
    const read = await readAllRecords(path);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.parse(JSON.stringify(read.records))).toEqual([
      {
        transaction_id: 't-1',
        ['__proto__']: { polluted: 'yes' },
        constructor: { prototype: { polluted: 'yes' } },
      },
    ]);
  });

  it('streams a JSON array: the items of any JSON text, across pieces, as JSON.parse reads them', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.jsonValue(), { maxLength: 30 }),
        fc.constantFrom(undefined, 2, '\t'),
        fc.boolean(),
        async (items, indent, bom) => {
          const text = `${bom ? '\uFEFF' : ''} \n${JSON.stringify(items, null, indent)}\n `;
          const path = file(`prop-${n++}.json`, text);
          const read = await readAllRecords(path);
          expect(read.malformed).toEqual([]);
          // Object.is where toEqual would not tell -0 from 0.
          expect(read.records).toStrictEqual(JSON.parse(text.trim().replace(/^\uFEFF/, '')));
        },
      ),
      { numRuns: 60 },
    );
    // Items that cross the 16 KiB pieces the file is read in, and their numbers.
    const long = Array.from({ length: 300 }, (_, i) => ({ i, text: `é${'x'.repeat(i * 7)}😀` }));
    const lines: number[] = [];
    for await (const r of readRecords(file('long.json.gz', gzipSync(JSON.stringify(long))))) {
      expect(r.ok).toBe(true);
      if (r.ok) {
        expect(r.value).toEqual(long[r.line - 1]);
        lines.push(r.line);
      }
    }
    expect(lines).toEqual(long.map((_, i) => i + 1));
  });

  it('ends a JSON array at a syntax error, naming the last whole item, after yielding the items before it', async () => {
    const good = JSON.stringify(expected.slice(0, 3)).slice(0, -1);
    const read: number[] = [];
    const broken = file('broken.json', `${good}, {"transaction_id": "t9",, }]`);
    const reading = (async () => {
      for await (const r of readRecords(broken)) read.push(r.line);
    })();
    await expect(reading).rejects.toThrow(
      new RegExp(`^cannot read ${broken}: not valid JSON after item 3: `),
    );
    expect(read).toEqual([1, 2, 3]);
    const cases: [string, string, RegExp][] = [
      ['cut.json', `${good},`, /not valid JSON after item 3: the file ends inside the array$/],
      ['empty.json', '\uFEFF \n', /not valid JSON: the file holds no JSON value$/],
      ['object.json', ' {"a": [1]}', /a JSON file must hold an array$/],
      ['two.json', '[1] [2]', /not valid JSON after item 1: /],
      ['start.json', '[,1]', /not valid JSON before its first item: /],
    ];
    for (const [name, text, message] of cases) {
      const path = file(name, text);
      await expect(readAllRecords(path), name).rejects.toBeInstanceOf(FileReadError);
      await expect(readAllRecords(path), name).rejects.toThrow(message);
    }
    expect((await readAllRecords(file('none.json', '[ ]'))).records).toEqual([]);
  });

  it('reads a byte that is not UTF-8 as U+FFFD in JSON as in NDJSON', async () => {
    const latin1 = Buffer.from('[{"name": "Caf\xe9"}]', 'latin1');
    const json = await readAllRecords(file('latin1.json', latin1));
    const lines = await readAllRecords(file('latin1.ndjson', latin1.subarray(1, -1)));
    expect(json.records).toEqual([{ name: 'Caf\uFFFD' }]);
    expect(lines.records).toEqual(json.records);
  });

  it('closes the file when a reader of a gzip file stops early', async () => {
    const openFiles = (): number => readdirSync('/proc/self/fd').length;
    const long = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ i })));
    const paths = [file('early.json.gz', gzipSync(long)), file('early.json', long)];
    const before = openFiles();
    for (const path of paths) {
      for (let i = 0; i < 5; i++) {
        for await (const r of readRecords(path)) if (r.line === 2) break;
      }
    }
    // A closed stream releases its descriptor on a later turn of the event loop.
    for (let i = 0; i < 50 && openFiles() > before; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(openFiles()).toBe(before);
  });

  it('throws a FileReadError naming a missing file', async () => {
    const missing = join(dir, 'missing.ndjson');
    await expect(readAllRecords(missing)).rejects.toThrow(
      new FileReadError(missing, 'no such file'),
    );
    await expect(readAllRecords(dir.concat('/'), { format: 'json' })).rejects.toThrow(
      /it is a directory/,
    );
  });

  it('tells the format from the name, and refuses a name that does not say it', () => {
    expect(formatOf('a/b/tx.ndjson.gz')).toEqual({ format: 'ndjson', gzip: true });
    expect(formatOf('rows.PARQUET')).toEqual({ format: 'parquet', gzip: false });
    expect(formatOf('dump.txt', 'csv')).toEqual({ format: 'csv', gzip: false });
    expect(() => formatOf('dump.txt')).toThrow(/cannot tell the format of dump.txt/);
  });
});

describe('replayFiles and replayStream', () => {
  it('give the payments, errors and summary of replay() on the sample data', async () => {
    const sample = sampleData();
    const paths = {
      offers: file('offers.json', JSON.stringify(sample.offers)),
      customers: file('customers.json', JSON.stringify(sample.customers)),
      history: file('history.ndjson', ndjson(sample.history)),
      transactions: file('transactions.ndjson.gz', gzipSync(ndjson(sample.transactions))),
    };
    const want = replay(sample);
    const got = await (await replayFiles(paths, { chunkSize: 3 })).collect();
    expect(got.payments).toEqual(want.payments);
    expect(got.errors).toEqual(want.errors);
    expect(got.summary).toEqual(want.summary);
  });

  it('give the payments and errors of replay() on generated CSV with duplicates across customers', async () => {
    const big = generatedData(11, 50, 3000);
    const paths = {
      offers: file('g-offers.json', JSON.stringify(big.offers)),
      customers: file('g-customers.ndjson', ndjson(big.customers)),
      transactions: file('g-tx.csv', csv(big.transactions)),
    };
    // CSV cells are strings: the reference reads the amounts as the same strings.
    const asRead = big.transactions.map((t) => ({ ...nested(t), amount: String(t.amount) }));
    const want = replay({ ...big, transactions: asRead });
    expect(want.summary.errors.duplicate_transaction).toBeGreaterThan(10);
    const got = await (await replayFiles(paths)).collect();
    expect(got.payments).toEqual(want.payments);
    expect(got.errors).toEqual(want.errors);
  });

  it('replayStream takes an async iterable and decides it as replay() does', async () => {
    const sample = sampleData();
    async function* items(): AsyncGenerator<unknown> {
      yield* sample.transactions;
    }
    const stream = replayStream(sample, items(), { chunkSize: 4 });
    const got = await stream.collect();
    expect(got.payments).toEqual(replay(sample).payments);
    expect(() => replayStream(sample, items(), { chunk: 4 } as never)).toThrow(
      /unknown option 'chunk'/,
    );
    expect(() => replayStream(sample, items(), { chunkSize: 0 })).toThrow(RangeError);
  });

  it('skip malformed lines through onMalformed, and stop at the first one when strict', async () => {
    const sample = sampleData();
    const lines = sample.transactions.map((t) => JSON.stringify(t));
    lines.splice(2, 0, '{oops');
    const paths = {
      offers: file('s-offers.json', JSON.stringify(sample.offers)),
      customers: file('s-customers.json', JSON.stringify(sample.customers)),
      transactions: file('s-tx.ndjson', lines.join('\n')),
    };
    const seen: string[] = [];
    const r = await replayFiles(paths, { onMalformed: (m) => seen.push(`${m.file}:${m.line}`) });
    const got = await r.collect();
    expect(seen).toEqual([`${paths.transactions}:3`]);
    expect(r.malformed()).toBe(1);
    expect(got.summary.transactions).toBe(sample.transactions.length);
    const strict = await replayFiles(paths, { strict: true });
    await expect(strict.collect()).rejects.toThrow(MalformedRecordError);
    await expect(replayFiles(paths, { strct: true } as never)).rejects.toThrow(
      /unknown option 'strct'/,
    );
  });
});
