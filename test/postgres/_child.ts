/**
 * A child process of the multi-process tests (built by `_children.ts`): one engine over its own
 * pool, or one migration. It reads its job as the first line of stdin, prints `ready`, waits for
 * a `go` line so that every child starts at once, then prints its result as one JSON line.
 */
import { createInterface } from 'node:readline';
import { createEngine } from '../../src/engine/entry.js';
import { createPostgresStore, migrate } from '../../src/store/postgres/index.js';

/** What a child is asked to do. */
export type ChildJob =
  | { readonly mode: 'migrate'; readonly url: string }
  | {
      readonly mode: 'submit';
      readonly url: string;
      readonly index: number;
      readonly partner: string;
      /** The transactions, in this child's order. */
      readonly transactions: readonly Record<string, unknown>[];
      readonly batch: number;
      /** Requests in flight at once. */
      readonly concurrency: number;
      /** One transaction, sent this many times all at once, alongside the batches. */
      readonly copies: { readonly transaction: Record<string, unknown>; readonly count: number };
    };

/** What a child answers. */
export interface ChildResult {
  readonly applied?: readonly number[];
  /** Calls made, and those that rejected (with their messages). */
  readonly calls?: number;
  readonly rejected?: readonly string[];
  /** Transaction ids this child's calls paid. */
  readonly paid?: readonly string[];
}

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

/** The next line of stdin. */
async function line(): Promise<string> {
  const next = await lines.next();
  if (next.done === true) throw new Error('stdin ended before the job and go lines');
  return next.value;
}

async function go(): Promise<void> {
  while ((await line()).trim() !== 'go') {
    // wait for the start signal
  }
}

async function submit(job: Extract<ChildJob, { mode: 'submit' }>): Promise<ChildResult> {
  const store = await createPostgresStore({ connectionString: job.url, poolSize: 6 });
  let n = 0;
  const engine = createEngine({ store, ids: () => `child-${job.index}-${++n}` });
  const requests: (readonly Record<string, unknown>[])[] = [];
  for (let i = 0; i < job.transactions.length; i += job.batch) {
    requests.push(job.transactions.slice(i, i + job.batch));
  }
  process.stdout.write('ready\n');
  await go();
  const paid: string[] = [];
  const rejected: string[] = [];
  let next = 0;
  const send = async (request: readonly Record<string, unknown>[]): Promise<void> => {
    try {
      const r = await engine.addTransactions(job.partner, request);
      for (const p of r.details.payments) paid.push(p.transaction_id);
    } catch (e) {
      rejected.push(e instanceof Error ? e.message : String(e));
    }
  };
  const worker = async (): Promise<void> => {
    while (next < requests.length)
      await send(requests[next++] as readonly Record<string, unknown>[]);
  };
  // The copies all at once, alongside the batches.
  const copies = Array.from({ length: job.copies.count }, () => send([job.copies.transaction]));
  await Promise.all([...copies, ...Array.from({ length: job.concurrency }, worker)]);
  await store.close?.();
  return { calls: requests.length + job.copies.count, rejected, paid };
}

const job = JSON.parse(await line()) as ChildJob;
const result: ChildResult =
  job.mode === 'migrate'
    ? await (async () => {
        process.stdout.write('ready\n');
        await go();
        return { applied: await migrate({ connectionString: job.url }) };
      })()
    : await submit(job);
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
