/**
 * The engine over the memory store decides exactly as `replay` of the same inputs, however the
 * transactions are split into requests: a transaction sees as history everything stored before
 * it (docs/concepts.md), whether it was stored by an earlier request or earlier in its own.
 */
import { describe, it } from 'vitest';
import { decidesAsReplay } from './_decidesAsReplay.js';

describe('the engine over the memory store', () => {
  it('pays and rejects exactly as replay, however the transactions are split into requests', async () => {
    await decidesAsReplay(async () => undefined, 150);
  });

  it('with budgets and caps that run out, too', async () => {
    await decidesAsReplay(async () => undefined, 100, true);
  });
});
