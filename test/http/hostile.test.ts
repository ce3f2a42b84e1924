/**
 * Bodies under the byte limit that would cost the most to read: millions of tiny items or of
 * nesting levels. They are refused at the item or nesting limit without being parsed in full,
 * and the server keeps answering other clients while several of them arrive.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterEach, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from './_harness.js';

const A = 'bank-a';
const N = 2_500_000;
const manyItems = `[${'0,'.repeat(N - 1)}0]`;
const deepNesting = `${'['.repeat(N)}${']'.repeat(N)}`;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('bodies of millions of items or levels, under the byte limit', () => {
  test('are answered 413 batch_too_large and 413 nesting_too_deep', async () => {
    h = await startHarness();
    expect(manyItems.length).toBeLessThan(5 * 1024 * 1024);
    expect(deepNesting.length).toBeLessThan(5 * 1024 * 1024);
    const token = await h.token(A);
    const send = (body: string) =>
      h?.call('POST', '/transactions', {
        headers: { Token: token, 'content-type': 'application/json' },
        body,
      });
    const many = await send(manyItems);
    expect([many?.status, many?.body.error]).toEqual([
      413,
      {
        code: 'batch_too_large',
        message: `A request may carry at most 1000 items, got ${N}`,
        details: [],
      },
    ]);
    const deep = await send(deepNesting);
    expect([deep?.status, deep?.body.error.code]).toEqual([413, 'nesting_too_deep']);
    const history = await h.call('POST', '/transactions-history', {
      headers: { Token: token, 'content-type': 'application/json' },
      body: `[{"a": ${'['.repeat(40)}${']'.repeat(40)}}]`,
    });
    expect([history.status, history.body.error.code]).toEqual([413, 'nesting_too_deep']);
  });

  test('8 at once do not hold up other clients: /healthz is answered meanwhile, and no task blocks the server for as long as one JSON.parse of such a body', async () => {
    h = await startHarness();
    const token = await h.token(A);
    // What reading one such body in full costs here and now, the least the server used to spend
    // on each without answering anyone else.
    const started = performance.now();
    JSON.parse(deepNesting);
    const oneParse = performance.now() - started;

    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    let bodiesDone = false;
    let healthBeforeLastBody = 0;
    const health = (async () => {
      while (!bodiesDone) {
        const r = await fetch(`${h?.url}/healthz`);
        expect(r.status).toBe(200);
        await r.text();
        if (!bodiesDone) healthBeforeLastBody++;
      }
    })();
    const statuses = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const r = await fetch(`${h?.url}/transactions`, {
          method: 'POST',
          headers: { Token: token, 'content-type': 'application/json' },
          body: i % 2 === 0 ? manyItems : deepNesting,
        });
        await r.text();
        return r.status;
      }),
    );
    bodiesDone = true;
    await health;
    delay.disable();
    expect(statuses).toEqual(Array(8).fill(413));
    expect(healthBeforeLastBody).toBeGreaterThanOrEqual(1);
    // The longest the server's event loop was held, against one full parse measured above: a
    // generous bound (the reading stops early, in a small part of that), so that a loaded
    // machine slowing both alike does not make it fail.
    const longest = delay.max / 1e6;
    expect(longest, `longest stall ${longest} ms, one parse ${oneParse} ms`).toBeLessThan(
      oneParse / 2,
    );
  });
});
