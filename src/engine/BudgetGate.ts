/**
 * One engine's units of work that hold the same budget, let through one at a time (docs/engine.md,
 * A hot budget): a unit holding a budget another unit holds waits for it inside the store, and
 * on PostgreSQL it waits with a pooled connection. Fifty batches at one budget would take every
 * connection of the pool and starve the other partners' batches, which need none of it; behind
 * this gate they wait here, holding nothing, and at most one of them per budget waits in the
 * store. Budgets are acquired in one order (sorted), so that two batches holding several of them
 * never wait for each other in a circle. Caps are per customer and rarely shared by batches in
 * flight, so they pass freely.
 */
export class BudgetGate {
  /** Per budget key, the promise the next unit waits for. */
  private readonly tails = new Map<string, Promise<void>>();

  /**
   * Runs `fn` once no other unit of this engine holds any of `keys`.
   * @param keys - the budgets the unit holds (counter keys), in any order, repeats allowed
   * @param fn - the unit
   * @returns what `fn` returns
   */
  async run<T>(keys: readonly string[], fn: () => Promise<T>): Promise<T> {
    if (keys.length === 0) return fn();
    const releases: (() => void)[] = [];
    try {
      for (const key of [...new Set(keys)].sort()) releases.push(await this.acquire(key));
      return await fn();
    } finally {
      for (const release of releases) release();
    }
  }

  /** Waits for the units before this one at `key`; returns what lets the next one through. */
  private async acquire(key: string): Promise<() => void> {
    const before = this.tails.get(key);
    let release: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = before === undefined ? mine : before.then(() => mine);
    this.tails.set(key, tail);
    await before;
    return () => {
      release();
      // The last unit in line leaves no entry behind.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}
