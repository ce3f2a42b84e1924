// A partition of `cashback replay --workers N` replayed in a worker thread (docs/replay.md,
// Workers). The thread runs a few lines that import partitionWorker.ts from where it was built
// and call its `servePartition`: no module of the package does anything when it is imported.
import { type TransferListItem, Worker } from 'node:worker_threads';
import type { Part } from './blocks.js';
import type { DecidedPart, Partition } from './Partition.js';
import type { PartitionInit, Screening } from './PartitionReplay.js';
import type { WorkerReply, WorkerRequest } from './partitionWorker.js';
import { OutcomeReader } from './wireOutcomes.js';

/**
 * The code a worker thread runs: it imports the module at `url` and serves a partition.
 * @param url - where partitionWorker.ts was built
 * @returns the code, for `new Worker(code, { eval: true })`
 */
function bootstrap(url: string): string {
  return `import(${JSON.stringify(url)}).then((m) => m.servePartition());`;
}

/** A partition replayed in a worker thread, with a queue of the replies it owes. */
export class ThreadPartition implements Partition {
  private readonly waiting: ((reply: WorkerReply) => void)[] = [];
  private failure: Error | undefined;

  /**
   * Starts a worker thread serving a partition.
   * @param init - offers, the partition's customers and history, options
   * @returns the partition
   */
  static async start(init: PartitionInit): Promise<ThreadPartition> {
    const { partitionWorkerUrl } = await import('./partitionWorker.js');
    return new ThreadPartition(new Worker(bootstrap(partitionWorkerUrl), { eval: true }), init);
  }

  private constructor(
    private readonly thread: Worker,
    init: PartitionInit,
  ) {
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
