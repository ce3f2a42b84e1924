// One worker thread of `cashback replay --workers N`: replays the transactions of its share of
// the customers. The protocol and why it gives one worker's output: src/files/workers.ts.
import { parentPort } from 'node:worker_threads';
import {
  createReplay,
  type Outcome,
  type ParsedTransaction,
  type ParseResult,
  parseTransaction,
  resolveOptions,
  screenCustomers,
} from '../index.js';
import { duplicateTransaction } from '../model/errors.js';
import type { WorkerInit, WorkerReply, WorkerRequest } from './workers.js';

/**
 * Serves the replay of one partition in this worker thread until it is terminated.
 * @param init - offers, customers, history and options
 */
export function runReplayWorker(init: WorkerInit): void {
  const port = parentPort;
  if (port === null) throw new Error('runReplayWorker runs in a worker thread');
  const { maxLatenessDays, timeZone, scale, rounding, currency } = init.options;
  const session = createReplay(
    { offers: init.offers, customers: init.customers, history: init.history },
    { timeZone, scale, rounding, currency, maxLatenessDays },
  );
  const zone = resolveOptions({ timeZone }).timeZone;
  const known = new Set(screenCustomers(init.customers).accepted.map((c) => c.customerId));
  // Items of blocks whose screening was sent and whose decision is still to come.
  const pending = new Map<
    number,
    { values: unknown[]; parsed: ParseResult<ParsedTransaction>[] }
  >();

  port.on('message', (request: WorkerRequest) => {
    try {
      if (request.type === 'screen') {
        // NDJSON lines come as text and are parsed here, off the reading thread. Keys of items
        // with no usable id (`#<index>`) are made again at decision time, once the reading thread
        // knows which lines were malformed.
        const malformed: (string | null)[] = [];
        const values = request.items.map((item) => {
          if (!request.texts || typeof item !== 'string') {
            malformed.push(null);
            return item;
          }
          try {
            const value: unknown = JSON.parse(item);
            malformed.push(null);
            return value;
          } catch (err) {
            malformed.push(`not valid JSON: ${(err as Error).message}`);
            return undefined;
          }
        });
        const parsed = values.map((v) => parseTransaction(v, 0, zone));
        pending.set(request.block, { values, parsed });
        // Per item: its id when valid (null when not), and whether its customer is known: then it
        // is stored unless it is a duplicate.
        const ids = parsed.map((p, i) =>
          p.ok && malformed[i] === null ? p.value.transactionId : null,
        );
        const stored = parsed.map((p) => p.ok && known.has(p.value.customerId));
        const days = parsed.map((p) => (p.ok ? p.value.when.day : 0));
        const merchants = parsed.map((p) => (p.ok ? p.value.merchantKey : ''));
        port.postMessage({
          type: 'screened',
          block: request.block,
          ids,
          stored,
          malformed,
          days,
          merchants,
        } satisfies WorkerReply);
        return;
      }
      const { values, parsed: all } = pending.get(request.block) ?? { values: [], parsed: [] };
      pending.delete(request.block);
      const kept = new Set(request.kept);
      const parsed: ParseResult<ParsedTransaction>[] = [];
      for (let i = 0; i < all.length; i++) {
        if (!kept.has(i)) continue;
        const p = all[i] as ParseResult<ParsedTransaction>;
        const index = request.indices[parsed.length] as number;
        parsed.push(p.ok ? p : parseTransaction(values[i], index, zone));
      }
      const duplicates = new Set(request.duplicates);
      const fresh = parsed.filter((_, i) => !duplicates.has(i));
      const decided = session.pushParsed(fresh);
      let next = 0;
      const outcomes: Outcome[] = parsed.map((p, i) => {
        if (!duplicates.has(i)) return decided[next++] as Outcome;
        const id = p.ok ? p.value.transactionId : '';
        return {
          ok: false,
          error: { key: id, code: 'duplicate_transaction', message: duplicateTransaction(id) },
        };
      });
      port.postMessage({
        type: 'decided',
        block: request.block,
        outcomes: outcomes.map((o) => (o.ok ? { ok: true, payment: o.payment } : o)),
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
