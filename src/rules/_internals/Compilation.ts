import type { ConditionIssue, ConditionIssueCode } from '../ConditionError.js';
import type { OperatorRegistry } from '../createOperatorRegistry.js';
import type { FactContext } from '../facts.js';
import type { LeafResult } from '../LeafResult.js';

/** A compiled condition node. */
export type Evaluate = (ctx: FactContext) => boolean;

/** What compiling one condition tree accumulates. */
export interface Compilation {
  readonly operators: OperatorRegistry;
  readonly issues: ConditionIssue[];
  /** One tracer per comparison, in tree order, for `CompiledCondition.explain`. */
  readonly leaves: ((ctx: FactContext) => LeafResult)[];
  usesHistory: boolean;
}

/** Stands in for a node that has issues; it is never evaluated, since compiling throws. */
export const NEVER: Evaluate = () => false;

/** Records an issue. */
export function report(c: Compilation, code: ConditionIssueCode, path: string, message: string) {
  c.issues.push({ code, path, message });
}

/**
 * Reports every key of `node` outside `allowed`; `params` gets its own reason.
 */
export function checkKeys(
  c: Compilation,
  node: Readonly<Record<string, unknown>>,
  allowed: readonly string[],
  path: string,
) {
  for (const key of Object.keys(node)) {
    if (allowed.includes(key)) continue;
    if (key === 'params') {
      const message = `"params" feeds json-rules-engine's computed facts; facts here are fixed`;
      report(c, 'unsupported', `${path}.params`, message);
    } else {
      report(c, 'unknown_key', `${path}.${key}`, `unknown property "${key}"`);
    }
  }
}
