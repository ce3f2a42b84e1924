// The partitions of `cashback replay --workers N` as the reading thread drives them: partition 0
// in the reading thread itself, the others each in a worker thread (docs/replay.md, Workers).
import { isMainThread, type TransferListItem, Worker, workerData } from 'node:worker_threads';
import type { Part } from './blocks.js';
import { type PartitionInit, PartitionReplay, type Screening } from './PartitionReplay.js';
import { runReplayWorker, type WorkerReply, type WorkerRequest } from './partitionWorker.js';
import { OutcomeList, OutcomeReader, type OutcomeSource } from './wireOutcomes.js';

// A worker thread runs the module that holds this code (no file of its own in the package), and
// this flag in its data makes it serve a partition instead of doing nothing.
const WORKER_FLAG = 'cashbackReplayWorker';
if (!isMainThread && (workerData as Record<string, unknown> | null)?.[WORKER_FLAG] === true) {
  runReplayWorker();
}

/** A partition's part of a block, decided: its outcomes to take in order. */
export interface DecidedPart {
  readonly outcomes: OutcomeSource;
  /** Purchases the partition's session holds now. */
  readonly purchases: number;
}

/** A partition as the reading thread drives it, in this thread or in a worker thread. */
export interface Partition {
  screen(block: number, part: Part): Promise<Screening>;
  decide(block: number, duplicates: Int32Array, indices: Int32Array): Promise<DecidedPart>;
  stop(): void;
}

/** Partition 0, replayed in the reading thread: no copy of its items or outcomes. */
export class LocalPartition implements Partition {
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
export class ThreadPartition implements Partition {
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
