import type { Evaluate } from './Compilation.js';

/**
 * `all`: true when every part is; `all: []` is true, as in json-rules-engine. Stops at the first
 * false part, which json-rules-engine may not, but parts have no side effects.
 */
function every(parts: readonly Evaluate[]): Evaluate {
  const [a, b] = parts;
  if (a === undefined) return () => true;
  if (b === undefined) return a;
  if (parts.length === 2) return (ctx) => a(ctx) && b(ctx);
  return (ctx) => {
    for (const part of parts) if (!part(ctx)) return false;
    return true;
  };
}

/**
 * `any`: true when some part is. Never called with no parts: `any: []` is rejected.
 */
function some(parts: readonly Evaluate[]): Evaluate {
  const [a, b] = parts;
  if (a === undefined) return () => false;
  if (b === undefined) return a;
  if (parts.length === 2) return (ctx) => a(ctx) || b(ctx);
  return (ctx) => {
    for (const part of parts) if (part(ctx)) return true;
    return false;
  };
}

/**
 * Combines the parts of an `all` or `any` node.
 */
export function combine(kind: 'all' | 'any', parts: readonly Evaluate[]): Evaluate {
  return kind === 'all' ? every(parts) : some(parts);
}
