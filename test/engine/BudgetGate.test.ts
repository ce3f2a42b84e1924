/** `BudgetGate`: one unit at a time per budget, in one order, released however a unit ends. */
import { describe, expect, test } from 'vitest';
import { BudgetGate } from '../../src/engine/BudgetGate.js';

/** A unit that records when it ran and finishes when told. */
function unit(log: string[], name: string) {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((r) => {
    finish = r;
  });
  return {
    run: async () => {
      log.push(`${name} in`);
      await done;
      log.push(`${name} out`);
      return name;
    },
    finish,
  };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('BudgetGate', () => {
  test('lets one unit at a time through per budget, in arrival order', async () => {
    const gate = new BudgetGate();
    const log: string[] = [];
    const [a, b] = [unit(log, 'a'), unit(log, 'b')];
    const ra = gate.run(['1/0'], a.run);
    const rb = gate.run(['1/0'], b.run);
    await tick();
    expect(log).toEqual(['a in']);
    a.finish();
    b.finish();
    expect(await Promise.all([ra, rb])).toEqual(['a', 'b']);
    expect(log).toEqual(['a in', 'a out', 'b in', 'b out']);
  });

  test('units of different budgets, and units of none, do not wait for each other', async () => {
    const gate = new BudgetGate();
    const log: string[] = [];
    const [a, b, c] = [unit(log, 'a'), unit(log, 'b'), unit(log, 'c')];
    const runs = [gate.run(['1/0'], a.run), gate.run(['2/0'], b.run), gate.run([], c.run)];
    await tick();
    expect(log.sort()).toEqual(['a in', 'b in', 'c in']);
    for (const u of [a, b, c]) u.finish();
    await Promise.all(runs);
  });

  test('budgets named in opposite orders never leave two units waiting for each other', async () => {
    const gate = new BudgetGate();
    const ran: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        gate.run(i % 2 === 0 ? ['1/0', '2/0', '1/0'] : ['2/0', '1/0'], async () => {
          await tick();
          ran.push(i);
        }),
      ),
    );
    expect(ran).toHaveLength(20);
  });

  test('a unit that throws lets the next one through', async () => {
    const gate = new BudgetGate();
    await expect(
      gate.run(['1/0'], async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(gate.run(['1/0'], async () => 'next')).resolves.toBe('next');
  });
});
