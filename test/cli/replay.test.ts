/**
 * `cashback replay` as users run it: the built command as a child process over files in a
 * temporary directory. Its payments and errors equal `replay()`'s on the same data; `--workers`
 * 1, 2 and 4 write the same files; CSV and Parquet transactions pay as NDJSON does; bad inputs
 * end with one line and exit code 2.
 *
 * The command is built once (the `cli` entry, ESM) into a temporary directory by `buildCli`, so
 * that building does not race the tests that read the repository's dist/.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replay } from '../../src/index.js';
import { type FlatTransaction, generatedData, nested, sampleData } from '../files/generated.js';
import { type BuiltCli, buildCli } from './_buildCli.js';

const _root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
let work: string;
let cli: string;

let built: BuiltCli | undefined;

beforeAll(async () => {
  built = await buildCli();
  work = built.dir;
  cli = join(work, 'dist', 'cli.js');
}, 60_000);

afterAll(() => built?.remove());

const file = (name: string, content: string | Uint8Array): string => {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
};
const ndjson = (items: readonly unknown[]): string =>
  items.map((t) => JSON.stringify(t)).join('\n');

/** Runs `cashback replay`; never throws: the exit code is in `code`. */
const cashback = (args: readonly string[]) => (built as BuiltCli).run(['replay', ...args]);

/** Payments of a CSV output file, with numbers as replay() gives them. */
function paymentsCsv(path: string): unknown[] {
  return (parse(readFileSync(path, 'utf8'), { columns: true }) as Record<string, string>[]).map(
    (r) => ({ ...r, offer_id: Number(r.offer_id), cashback: Number(r.cashback) }),
  );
}

const lines = (path: string): unknown[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

describe('cashback replay', () => {
  const sample = sampleData();
  const want = replay(sample);
  let inputs: string[];
  beforeAll(() => {
    inputs = [
      '--offers',
      file('offers.json', JSON.stringify(sample.offers)),
      '--customers',
      file('customers.json', JSON.stringify(sample.customers)),
      '--history',
      file('history.json', JSON.stringify(sample.history)),
    ];
  });

  it("writes replay()'s payments as CSV and its errors as NDJSON, and prints the summary", async () => {
    const tx = file('tx.ndjson.gz', gzipSync(ndjson(sample.transactions)));
    const out = join(work, 'payments.csv');
    const errors = join(work, 'errors.ndjson');
    const r = await cashback([...inputs, '--transactions', tx, '--out', out, '--errors', errors]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(paymentsCsv(out)).toEqual(want.payments);
    expect(lines(errors)).toEqual(want.errors);
    expect(r.stdout).toContain(`cashback total: ${want.summary.totalCashback} EUR`);
    expect(r.stdout).toMatch(/^paid\s+9$/m);
  });

  it('writes payments as NDJSON and prints the summary as JSON with --json', async () => {
    const tx = file('tx.json', JSON.stringify(sample.transactions));
    const out = join(work, 'payments.ndjson');
    const r = await cashback([...inputs, '--transactions', tx, '--out', out, '--json']);
    expect(r.code).toBe(0);
    expect(lines(out)).toEqual(want.payments);
    const summary = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ ...want.summary, malformed: 0 });
    expect(summary.byMonth).toEqual({
      '2025-06': { payments: 5, cashback: '2.62' },
      '2025-07': { payments: 2, cashback: '3.40' },
      '2025-08': { payments: 2, cashback: '32.50' },
    });
  });

  it('reports a malformed line with file and line and goes on; --strict makes it exit 2', async () => {
    const text = sample.transactions.map((t) => JSON.stringify(t));
    text.splice(4, 0, '{"transaction_id": "t-x",');
    const tx = file('bad.ndjson', text.join('\n'));
    const r = await cashback([...inputs, '--transactions', tx, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^cashback: skipped ${tx}:5: not valid JSON: `));
    expect(JSON.parse(r.stdout)).toMatchObject({ paid: 9, malformed: 1 });
    const strict = await cashback([...inputs, '--transactions', tx, '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(new RegExp(`^cashback: ${tx}:5: not valid JSON: .*\\n$`));
    expect(strict.stdout).toBe('');
  });

  it('ends a JSON array at a syntax error with exit code 2, having written what it decided before', async () => {
    const items = sample.transactions.map((t) => JSON.stringify(t));
    const tx = file('broken.json', `[${items.slice(0, 12).join(',')},{"transaction_id": "t-x",,}]`);
    const out = join(work, 'broken-payments.ndjson');
    const errors = join(work, 'broken-errors.ndjson');
    for (const strict of [[], ['--strict']]) {
      const r = await cashback([
        ...inputs,
        '--transactions',
        tx,
        '--out',
        out,
        '--errors',
        errors,
        ...strict,
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(`^cashback: cannot read ${tx}: not valid JSON after item 12: [^\\n]*\\n$`),
      );
      const first = replay({ ...sample, transactions: sample.transactions.slice(0, 12) });
      expect(lines(out)).toEqual(first.payments);
      expect(lines(errors)).toEqual(first.errors);
    }
  });

  it('pays from CSV and Parquet transactions as from NDJSON, and writes errors as CSV', async () => {
    const data = generatedData(2028, 60, 600);
    // A few of customers nobody registered (the generator's own are all duplicates too).
    const flat = data.transactions.map((t, i) =>
      i % 97 === 10 ? { ...t, customer_id: `c-nobody-${i}` } : t,
    );
    const reference = replay({ ...data, transactions: flat.map(nested) });
    // CSV cells stay strings, read as JSON strings are (docs/replay.md, Formats).
    const asStrings = replay({
      ...data,
      transactions: flat.map((t) => ({ ...nested(t), amount: String(t.amount) })),
    });
    // What the outputs must carry: payments, and errors of every kind the data makes.
    expect(reference.summary.paid).toBeGreaterThan(20);
    expect(reference.summary.errors.invalid_transaction).toBeGreaterThan(0);
    expect(reference.summary.errors.customer_not_found).toBeGreaterThan(0);
    expect(reference.summary.errors.duplicate_transaction).toBeGreaterThan(0);
    const parquet = parquetWriteBuffer({
      columnData: (Object.keys(flat[0] ?? {}) as (keyof FlatTransaction)[]).map((name) => ({
        name,
        data: flat.map((t) => t[name]),
        type: name === 'amount' ? ('DOUBLE' as const) : ('STRING' as const),
      })),
      rowGroupSize: 250, // three row groups
    });
    const transactions = {
      ndjson: file('fmt.ndjson', ndjson(flat.map(nested))),
      csv: file(
        'fmt.csv',
        stringify(flat as unknown as Record<string, unknown>[], { header: true }),
      ),
      parquet: file('fmt.parquet', new Uint8Array(parquet)),
    };
    const args = [
      '--offers',
      file('fmt-offers.json', JSON.stringify(data.offers)),
      '--customers',
      file('fmt-customers.ndjson', ndjson(data.customers)),
    ];
    const runs: Record<string, { summary: unknown; payments: string; errors: string }> = {};
    for (const [format, tx] of Object.entries(transactions)) {
      const out = join(work, `fmt-${format}-payments.csv`);
      const errors = join(work, `fmt-${format}-errors.csv`);
      const r = await cashback([
        ...args,
        '--transactions',
        tx,
        '--out',
        out,
        '--errors',
        errors,
        '--json',
      ]);
      expect(r.stderr, format).toBe('');
      expect(r.code, format).toBe(0);
      expect(paymentsCsv(out), format).toEqual(reference.payments);
      const text = readFileSync(errors, 'utf8');
      expect(text.split('\n')[0], format).toBe('key,code,message');
      expect(parse(text, { columns: true }), format).toEqual(
        format === 'csv' ? asStrings.errors : reference.errors,
      );
      runs[format] = {
        summary: JSON.parse(r.stdout),
        payments: readFileSync(out, 'utf8'),
        errors: text,
      };
    }
    expect(runs.ndjson?.summary).toMatchObject({ ...reference.summary, malformed: 0 });
    expect(runs.parquet).toEqual(runs.ndjson);
    expect(runs.csv?.summary).toEqual(runs.ndjson?.summary);
    expect(runs.csv?.payments).toBe(runs.ndjson?.payments);
    // The same key and code for every error; only messages about a string amount may differ.
    const keysAndCodes = (text = ''): string[] =>
      (parse(text, { columns: true }) as { key: string; code: string }[]).map(
        (e) => `${e.key} ${e.code}`,
      );
    expect(keysAndCodes(runs.csv?.errors)).toEqual(keysAndCodes(runs.ndjson?.errors));
    // One row as written: a transaction of a customer nobody registered.
    const unknown = flat.find((t) => t.customer_id.startsWith('c-nobody-')) as FlatTransaction;
    for (const format of ['ndjson', 'csv', 'parquet']) {
      expect(runs[format]?.errors.split('\n'), format).toContain(
        `${unknown.transaction_id},customer_not_found,Customer with id '${unknown.customer_id}' not found`,
      );
    }
  });

  it('takes --activations in CSV for offers that require activation, paying as replay() does, with 1 and 2 workers', async () => {
    const offers = sample.offers.map((o) => ({
      ...(o as { offer_id: number }),
      requires_activation: true,
    }));
    // Every paid customer but the first activates every offer.
    const paid = [...new Set(want.payments.map((p) => p.customer_id))].slice(1);
    const activations = paid.flatMap((customer_id) =>
      offers.map((o) => ({ customer_id, offer_id: o.offer_id, date: '2000-01-01T00:00:00' })),
    );
    const expected = replay({ ...sample, offers, activations });
    expect(expected.payments.length).toBeGreaterThan(0);
    expect(expected.payments.length).toBeLessThan(want.payments.length);
    const out = join(work, 'gated.ndjson');
    const r = await cashback([
      '--offers',
      file('gated-offers.json', JSON.stringify(offers)),
      '--customers',
      file('customers.json', JSON.stringify(sample.customers)),
      '--history',
      file('history.json', JSON.stringify(sample.history)),
      '--activations',
      file(
        'activations.csv',
        stringify([...activations, { customer_id: 'nobody', offer_id: 1, date: '' }], {
          header: true,
        }),
      ),
      '--transactions',
      file('tx-gated.json', JSON.stringify(sample.transactions)),
      '--out',
      out,
    ]);
    expect(r.stderr).toBe('cashback: activation nobody/1: Invalid activation: date is required\n');
    expect(r.code).toBe(0);
    expect(lines(out)).toEqual(expected.payments);
    const twoOut = join(work, 'gated-2.ndjson');
    const two = await cashback([
      '--offers',
      join(work, 'gated-offers.json'),
      '--customers',
      join(work, 'customers.json'),
      '--history',
      join(work, 'history.json'),
      '--activations',
      join(work, 'activations.csv'),
      '--transactions',
      join(work, 'tx-gated.json'),
      '--out',
      twoOut,
      '--workers',
      '2',
    ]);
    expect(two.stderr).toBe(r.stderr);
    expect(two.code).toBe(0);
    expect(two.stdout).toBe(r.stdout);
    expect(readFileSync(twoOut, 'utf8')).toBe(readFileSync(out, 'utf8'));
  });

  it('ends with one line and exit code 2 for a missing file', async () => {
    const missing = join(work, 'nope.ndjson');
    const r = await cashback([...inputs, '--transactions', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`cashback: cannot read ${missing}: no such file\n`);
    expect(r.stdout).toBe('');
  });

  it('draws no progress bar when stderr is not a terminal', async () => {
    const tx = file('quiet.ndjson', ndjson(sample.transactions));
    const r = await cashback([...inputs, '--transactions', tx]);
    expect(r.stderr).toBe('');
  });

  it('draws a progress bar on stderr when it is a terminal (util-linux script gives it one)', async () => {
    const tx = file('tty.ndjson', ndjson(sample.transactions));
    const command = [process.execPath, cli, 'replay', ...inputs, '--transactions', tx, '--json']
      .map((a) => `'${a}'`)
      .join(' ');
    const { stdout } = await run('script', ['-qec', `${command} > /dev/null`, '/dev/null'], {
      cwd: work,
    });
    expect(stdout).toMatch(/\[#{24}\] 100% .* MiB \d+ tx\/s ETA 0s/);
  });

  it('writes the same files with 1, 2 and 4 workers, equal to replay(), on generated data', async () => {
    const big = generatedData(2026, 300, 12_000);
    // What makes partitioning hard, mixed in: malformed lines, items with no id (keyed by their
    // index in the stream), customer ids with spaces around (the engine trims them), and a
    // description quoting a customer_id key.
    const items: Record<string, unknown>[] = big.transactions.map((t, i) => {
      const tx = nested(t);
      if (i % 701 === 5) delete tx.transaction_id;
      if (i % 11 === 7) tx.customer_id = ` ${String(tx.customer_id)} `;
      if (i % 307 === 9) tx.description = `refund for "customer_id": "c-1"`;
      return tx;
    });
    const text = items.map((t, i) => (i % 997 === 3 ? `{"broken": ${i}` : JSON.stringify(t)));
    const kept = items.filter((_, i) => i % 997 !== 3);
    const tx = file('big.ndjson.gz', gzipSync(text.join('\n')));
    const args = [
      '--offers',
      file('big-offers.json', JSON.stringify(big.offers)),
      '--customers',
      file('big-customers.ndjson', ndjson(big.customers)),
      '--transactions',
      tx,
      '--json',
    ];
    const reference = replay({ ...big, transactions: kept });
    expect(reference.summary.errors.duplicate_transaction).toBeGreaterThan(100);
    expect(reference.errors.filter((e) => e.key.startsWith('#')).length).toBeGreaterThan(10);
    const outputs: string[] = [];
    for (const workers of [1, 2, 4]) {
      const out = join(work, `big-${workers}.csv`);
      const errors = join(work, `big-${workers}-errors.ndjson`);
      const r = await cashback([
        ...args,
        '--workers',
        String(workers),
        '--out',
        out,
        '--errors',
        errors,
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr.split('\n').filter((l) => l.includes('skipped')).length).toBe(
        text.length - kept.length,
      );
      expect(JSON.parse(r.stdout)).toMatchObject({
        ...reference.summary,
        malformed: text.length - kept.length,
      });
      // The printed summary too: its liability is as of the same instant with any workers.
      outputs.push(readFileSync(out, 'utf8') + readFileSync(errors, 'utf8') + r.stderr + r.stdout);
      expect(paymentsCsv(out)).toEqual(reference.payments);
      expect(lines(errors)).toEqual(reference.errors);
    }
    expect(outputs[1]).toBe(outputs[0]);
    expect(outputs[2]).toBe(outputs[0]);
  });

  it("gives one worker's output with 2 and 3 workers when customers and history are shared out by customer", async () => {
    const big = generatedData(2027, 200, 4000);
    const people = big.customers as Record<string, unknown>[];
    // Rejected before the transactions, as one replay rejects them: an id given twice (both
    // copies, the second with spaces the engine trims), a customer with no birthday; and
    // customers whose ids are not plain ASCII, routed by parsing their lines.
    const customers: unknown[] = [
      ...people,
      { ...people[7], customer_id: ' c-7 ' },
      { customer_id: 'c-nobirthday', gender: 'F', location: { country: 'FR', city: 'Paris' } },
      ...[0, 1, 2, 3, 4, 5].map((i) => ({ ...people[i], customer_id: `c-é-${i}` })),
    ];
    const owner = (i: number): string => (i % 9 === 0 ? `c-é-${i % 6}` : `c-${(i * 37) % 200}`);
    const merchants = ['Coffee House', 'Page Turner Books', 'FastFuel', 'Green Grocer'];
    // History reusing ids across customers (a duplicate, so not stored, whatever its worker),
    // of unknown customers, and invalid; transactions reuse history ids of other customers.
    const history = Array.from({ length: 300 }, (_, i) => ({
      transaction_id: i % 10 === 3 ? `h-${i - 1}` : `h-${i}`,
      customer_id: i % 25 === 4 ? `c-unknown-${i}` : owner(i + 1),
      date: `2024-12-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00`,
      amount: i % 31 === 5 ? -3 : 10 + (i % 40),
      merchant: { name: merchants[i % merchants.length] },
    }));
    const items: Record<string, unknown>[] = big.transactions.map((t, i) => {
      const tx = nested(t);
      if (i % 13 === 2) tx.customer_id = owner(i);
      if (i % 17 === 5) tx.transaction_id = `h-${(i * 7) % 300}`;
      if (i % 19 === 6) tx.description = 'refund "customer_id": "c-1" \\ done';
      return tx;
    });
    // Lines that routing must not read wrong: an escaped top-level key next to a nested one, a
    // non-ASCII customer id; and lines the reader skips: blank, white space only (a no-break
    // space too), CRLF line ends, malformed JSON, a last line with no line break.
    const text = items.map((t, i) => {
      if (i % 101 === 8) {
        const { customer_id, ...rest } = t;
        const json = JSON.stringify({
          ...rest,
          merchant: { ...(rest.merchant as object), customer_id: 'c-1' },
        });
        return `{"customer\\u005fid":${JSON.stringify(customer_id)},${json.slice(1)}`;
      }
      return JSON.stringify(t);
    });
    for (const at of [3000, 2000, 1000, 10]) text.splice(at, 0, '', '   ', '\u00a0', '{"broken": ');
    const tx = file('shared.ndjson', `${text.join('\r\n')}\r`);
    const kept = text
      .filter((l) => l.trim() !== '' && !l.startsWith('{"broken"'))
      .map((l) => JSON.parse(l) as unknown);
    const data = { offers: big.offers, customers, history, transactions: kept };
    const reference = replay(data);
    expect(reference.summary.rejected).toEqual({ customers: 2, history: expect.any(Number) });
    expect(reference.rejected.history.map((e) => e.code)).toEqual(
      expect.arrayContaining([
        'duplicate_transaction',
        'customer_not_found',
        'invalid_transaction',
      ]),
    );
    expect(reference.summary.errors.duplicate_transaction).toBeGreaterThan(200);
    expect(reference.summary.errors.customer_not_found).toBeGreaterThan(20);
    expect(reference.payments.some((p) => p.customer_id.startsWith('c-é-'))).toBe(true);
    const args = [
      '--offers',
      file('shared-offers.json', JSON.stringify(big.offers)),
      '--customers',
      file('shared-customers.ndjson', ndjson(customers)),
      '--history',
      file('shared-history.json', JSON.stringify(history)),
      '--transactions',
      tx,
      '--json',
    ];
    const outputs: string[] = [];
    for (const workers of [1, 2, 3]) {
      const out = join(work, `shared-${workers}.csv`);
      const errors = join(work, `shared-${workers}-errors.ndjson`);
      const r = await cashback([
        ...args,
        '--workers',
        String(workers),
        '--out',
        out,
        '--errors',
        errors,
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr.match(/skipped/g)?.length).toBe(4);
      expect(JSON.parse(r.stdout)).toMatchObject({ ...reference.summary, malformed: 4 });
      expect(paymentsCsv(out)).toEqual(reference.payments);
      expect(lines(errors)).toEqual(reference.errors);
      outputs.push(readFileSync(out, 'utf8') + readFileSync(errors, 'utf8') + r.stderr + r.stdout);
    }
    expect(outputs[1]).toBe(outputs[0]);
    expect(outputs[2]).toBe(outputs[0]);
  });

  it('gives the same output with 2 workers on a JSON array whose items include a string', async () => {
    const tx = file('sample-w.json', JSON.stringify(sample.transactions));
    const one = await cashback([...inputs, '--transactions', tx, '--json']);
    const two = await cashback([...inputs, '--transactions', tx, '--json', '--workers', '2']);
    expect(two.stderr).toBe('');
    expect(two.stdout).toBe(one.stdout);
    expect(JSON.parse(two.stdout)).toMatchObject(want.summary);
  });
});

describe('cashback explain', () => {
  it('prints the outcome and the first failed check of every offer at the merchant', async () => {
    const sample = sampleData();
    const tx = file('one.json', JSON.stringify(sample.transactions[4]));
    const args = [
      '--offers',
      file('x-offers.json', JSON.stringify(sample.offers)),
      '--customers',
      file('x-customers.ndjson', ndjson(sample.customers)),
      '--history',
      file('x-history.json', JSON.stringify(sample.history)),
    ];
    const text = await run(process.execPath, [cli, 'explain', ...args, tx]);
    expect(text.stdout).toBe(
      'no_offer: No cashback offer associated with this transaction: offer 3 failed its age check\n' +
        'candidate offers:\n' +
        '  offer 3: failed age: age 30 is not in 18-25, 65+\n',
    );
    const json = await run(process.execPath, [cli, 'explain', ...args, '--json', tx]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      outcome: { ok: false, error: { code: 'no_offer' } },
      candidates: [{ offer_id: 3, matched: false, failed: { check: 'age' } }],
    });
  });
});
