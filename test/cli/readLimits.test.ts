/**
 * The read limits of the file commands as users meet them: the built command as a child process
 * over hostile files generated here (a 32 MiB line, a long quoted CSV field, a small gzip that
 * inflates to 1 GiB without a line break, a gzip of many `[`). Each run ends with exit code 2 and
 * one line naming the file, the line, the limit and the flag that raises it; the flags reach the
 * readers of `replay` (with and without workers), `backtest` and `explain` (its transaction file
 * included).
 *
 * The command is built once (the `cli` entry, ESM) into a temporary directory by `buildCli`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleData } from '../files/generated.js';
import { type BuiltCli, buildCli } from './_buildCli.js';

const MiB = 2 ** 20;
let built: BuiltCli | undefined;
let work: string;

beforeAll(async () => {
  built = await buildCli();
  work = built.dir;
}, 60_000);

afterAll(() => built?.remove());

const file = (name: string, content: string | Uint8Array): string => {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
};
const cashback = (args: readonly string[]) => (built as BuiltCli).run(args);

const sample = sampleData();
const ndjson = (items: readonly unknown[]): string =>
  items.map((t) => JSON.stringify(t)).join('\n');
let inputs: string[];
beforeAll(() => {
  inputs = [
    '--offers',
    file('offers.json', JSON.stringify(sample.offers)),
    '--customers',
    file('customers.json', JSON.stringify(sample.customers)),
  ];
});
/** The sample transactions with `line` put in after the first. */
const withLine = (line: string): string => {
  const [first, ...rest] = sample.transactions;
  return `${JSON.stringify(first)}\n${line}\n${ndjson(rest)}\n`;
};

describe('cashback replay past a read limit', () => {
  for (const workers of ['1', '2']) {
    it(`ends at a 32 MiB NDJSON line with exit code 2, naming file, line and flag (--workers ${workers})`, async () => {
      const tx = file(`long-${workers}.ndjson`, withLine(`"${'x'.repeat(32 * MiB)}"`));
      const r = await cashback(['replay', ...inputs, '--transactions', tx, '--workers', workers]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `cashback: ${tx}:2: the line is longer than 8388608 bytes; --max-line-bytes raises the limit\n`,
      );
    });

    it(`ends at a small gzip that inflates to 1 GiB without a line break (--workers ${workers})`, async () => {
      const member = gzipSync(Buffer.alloc(MiB, 'a'), { level: 9 });
      const tx = file(`bomb-${workers}.ndjson.gz`, Buffer.concat(Array(1024).fill(member)));
      const r = await cashback(['replay', ...inputs, '--transactions', tx, '--workers', workers]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/:1: the line is longer than 8388608 bytes; --max-line-bytes/);
    });

    it(`takes --max-line-bytes down and up (--workers ${workers})`, async () => {
      const tx = file(`two-${workers}.ndjson`, withLine(`"${'x'.repeat(2 * MiB)}"`));
      const args = ['replay', ...inputs, '--transactions', tx, '--workers', workers, '--json'];
      const low = await cashback([...args, '--max-line-bytes', String(MiB)]);
      expect(low.code).toBe(2);
      expect(low.stderr).toContain(`${tx}:2: the line is longer than 1048576 bytes`);
      const high = await cashback([...args, '--max-line-bytes', String(4 * MiB)]);
      expect(high.stderr).toBe('');
      expect(high.code).toBe(0);
      // The long line is a JSON string: read, and decided as an invalid transaction.
      const summary = JSON.parse(high.stdout) as { transactions: number };
      expect(summary.transactions).toBe(sample.transactions.length + 1);
    });
  }

  for (const workers of ['1', '2']) {
    it(`ends at a long quoted CSV field, naming the line its row starts on and --max-field-bytes (--workers ${workers})`, async () => {
      const tx = file(
        `field-${workers}.csv`,
        `transaction_id,note\nt-1,short\nt-2,"${'y\n'.repeat(MiB)}"\n`,
      );
      const r = await cashback(['replay', ...inputs, '--transactions', tx, '--workers', workers]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `cashback: ${tx}:3: a field is longer than 1048576 bytes; --max-field-bytes raises the limit\n`,
      );
    });
  }

  it('ends at a gzip of 4 MB of `[` with --max-depth named, and at a long JSON item', async () => {
    const tx = file('brackets.json.gz', gzipSync(Buffer.alloc(4 * 10 ** 6, '[')));
    const r = await cashback(['replay', ...inputs, '--transactions', tx]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `cashback: ${tx}:1: item 1 nests deeper than 64 levels; --max-depth raises the limit\n`,
    );
    const offers = file(
      'offers-long.json',
      `[\n${JSON.stringify(sample.offers[0])},\n"${'o'.repeat(2000)}"]`,
    );
    const long = await cashback([
      'replay',
      '--offers',
      offers,
      ...inputs.slice(2),
      '--transactions',
      tx,
      '--max-value-bytes',
      '1000',
    ]);
    expect(long.code).toBe(2);
    expect(long.stderr).toBe(
      `cashback: ${offers}:3: item 2 is longer than 1000 bytes; --max-value-bytes raises the limit\n`,
    );
  });

  it('refuses a limit that is not a whole number from 1', async () => {
    const tx = file('ok.ndjson', ndjson(sample.transactions));
    for (const [flag, value] of [
      ['--max-depth', '0'],
      ['--max-depth', '1001'],
      ['--max-line-bytes', '1.5'],
      ['--max-field-bytes', 'big'],
    ] as const) {
      const r = await cashback(['replay', ...inputs, '--transactions', tx, flag, value]);
      expect(r.code, `${flag} ${value}`).toBe(2);
      expect(r.stderr, `${flag} ${value}`).toContain(`option '${flag} <`);
    }
  });
});

describe('cashback backtest and explain past a read limit', () => {
  it('name the file, the line and the flag', async () => {
    const customers = file(
      'customers-long.ndjson',
      `${ndjson(sample.customers.slice(0, 2))}\n${JSON.stringify({ ...(sample.customers[2] as object), note: 'n'.repeat(200) })}\n`,
    );
    const offers = inputs[1] as string;
    const tx = file('bt.ndjson', ndjson(sample.transactions));
    const bt = await cashback([
      'backtest',
      '--baseline',
      offers,
      '--candidate',
      offers,
      '--customers',
      customers,
      '--transactions',
      tx,
      '--max-line-bytes',
      '200',
    ]);
    expect(bt.code).toBe(2);
    expect(bt.stderr).toBe(
      `cashback: ${customers}:3: the line is longer than 200 bytes; --max-line-bytes raises the limit\n`,
    );
    const one = file('one.json', JSON.stringify(sample.transactions[0]));
    const ex = await cashback([
      'explain',
      '--offers',
      offers,
      '--customers',
      customers,
      '--max-line-bytes',
      '200',
      one,
    ]);
    expect(ex.code).toBe(2);
    expect(ex.stderr).toBe(bt.stderr);
    const raised = await cashback(['explain', '--offers', offers, '--customers', customers, one]);
    expect(raised.code).toBe(0);
  });

  it('explain bounds its transaction file too, read as the only item of a JSON array', async () => {
    const args = ['explain', ...inputs];
    const one = file(
      'one-long.json',
      JSON.stringify({ ...(sample.transactions[0] as object), note: 'n'.repeat(300) }),
    );
    const long = await cashback([...args, '--max-value-bytes', '200', one]);
    expect(long.code).toBe(2);
    expect(long.stderr).toBe(
      `cashback: ${one}:1: item 1 is longer than 200 bytes; --max-value-bytes raises the limit\n`,
    );
    expect((await cashback([...args, one])).code).toBe(0);
    const deep = file('deep-tx.json.gz', gzipSync(Buffer.alloc(4 * 10 ** 6, '[')));
    const brackets = await cashback([...args, deep]);
    expect(brackets.code).toBe(2);
    expect(brackets.stderr).toBe(
      `cashback: ${deep}:1: item 1 nests deeper than 64 levels; --max-depth raises the limit\n`,
    );
  });
});
