// A worker thread of `cashback replay --workers N`: serves one partition's replay over messages.
// How the reading thread drives it: replayInWorkers.ts and docs/replay.md (Workers).
import { parentPort } from 'node:worker_threads';
import type { Part } from './blocks.js';
import { type PartitionInit, PartitionReplay, type Screening } from './PartitionReplay.js';
import { encodeOutcomes, type WireOutcomes } from './wireOutcomes.js';

/**
 * Where this module is, once built: a worker thread imports it from there and calls
 * `servePartition` (see `ThreadPartition`). The reading thread imports it when it starts its
 * first worker, so that a bundle puts it, and what it needs, in a module of its own.
 */
export const partitionWorkerUrl: string = import.meta.url;

/**
 * Messages to a worker: its partition first (as a message, not as worker data, which would stay
 * in memory for the thread's life), then for each block: screen its part, then decide it.
 */
export type WorkerRequest =
  | { readonly type: 'start'; readonly init: PartitionInit }
  | { readonly type: 'screen'; readonly block: number; readonly part: Part }
  | {
      readonly type: 'decide';
      readonly block: number;
      /** Positions in the part of the duplicates of ids stored before them, ascending. */
      readonly duplicates: Int32Array;
      /** The stream index of each invalid item, in order, for its `#<index>` key. */
      readonly indices: Int32Array;
    };

/** Messages from a worker, one per request but `start` (unless it fails), in request order. */
export type WorkerReply =
  | ({ readonly type: 'screened' } & Screening)
  | {
      readonly type: 'decided';
      /** The outcomes of the items that are neither skipped nor duplicates. */
      readonly outcomes: WireOutcomes;
      /** Purchases the partition's session holds now. */
      readonly purchases: number;
    }
  | { readonly type: 'failed'; readonly name: string; readonly message: string };

/** Serves the replay of one partition in this worker thread until it is terminated. */
export function servePartition(): void {
  const port = parentPort;
  if (port === null) throw new Error('servePartition runs in a worker thread');
  let partition: PartitionReplay | undefined;
  port.on('message', (request: WorkerRequest) => {
    try {
      if (request.type === 'start') {
        partition = new PartitionReplay(request.init);
        return;
      }
      if (partition === undefined) throw new Error('the worker has no partition');
      if (request.type === 'screen') {
        const s = partition.screen(request.block, request.part);
        port.postMessage({ type: 'screened', ...s } satisfies WorkerReply);
        return;
      }
      const outcomes = encodeOutcomes(
        partition.decide(request.block, request.duplicates, request.indices),
      );
      port.postMessage({
        type: 'decided',
        outcomes,
        purchases: partition.purchases(),
      } satisfies WorkerReply);
    } catch (err) {
      port.postMessage({
        type: 'failed',
        name: err instanceof Error ? err.name : 'Error',
        message: err instanceof Error ? err.message : String(err),
      } satisfies WorkerReply);
    }
  });
}
