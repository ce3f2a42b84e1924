import type { FactContext } from '../facts.js';

type Bag = { readonly [key: string]: Bag | undefined };

/**
 * Builds the closure that reads one fact value, e.g. `(ctx) => ctx.customer?.location?.city`,
 * so no path is walked by name at evaluation. A missing step gives `undefined`, as
 * json-rules-engine's JSONPath does. `ctx.history` is read only by getters of history facts.
 */
export function createGetter(
  fact: string,
  steps: readonly string[],
): (ctx: FactContext) => unknown {
  const [a, b, c] = steps;
  // The schema is at most three levels deep; longer paths compose closures.
  switch (steps.length) {
    case 0:
      return (ctx) => (ctx as unknown as Bag)[fact];
    case 1:
      return (ctx) => (ctx as unknown as Bag)[fact]?.[a!];
    case 2:
      return (ctx) => (ctx as unknown as Bag)[fact]?.[a!]?.[b!];
    case 3:
      return (ctx) => (ctx as unknown as Bag)[fact]?.[a!]?.[b!]?.[c!];
    default: {
      const parent = createGetter(fact, steps.slice(0, -1));
      const last = steps[steps.length - 1]!;
      return (ctx) => (parent(ctx) as Bag | undefined)?.[last];
    }
  }
}
