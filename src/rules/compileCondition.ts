import type { Compilation, Evaluate } from './_internals/Compilation.js';
import { compileNode } from './_internals/compileNode.js';
import { assertKnownKeys } from './_internals/knownKeys.js';
import { ConditionError, type ConditionIssue } from './ConditionError.js';
import {
  createOperatorRegistry,
  type OperatorRegistry,
  operatorsOption,
} from './createOperatorRegistry.js';
import type { FactContext } from './facts.js';
import type { LeafResult } from './LeafResult.js';

/** A condition compiled into plain synchronous closures. @public */
export interface CompiledCondition {
  /**
   * Decides the condition for one transaction, as json-rules-engine 7.x would with
   * `allowUndefinedFacts: true`.
   */
  readonly evaluate: (ctx: FactContext) => boolean;
  /** Whether any comparison reads `history`; when false, `ctx.history` is never read. */
  readonly usesHistory: boolean;
  /**
   * Evaluates every comparison of the tree for one transaction, even those `evaluate` would
   * skip, for people reading why a condition held or not.
   * @param ctx - the facts of the transaction.
   * @returns one result per comparison, in tree order.
   */
  readonly explain: (ctx: FactContext) => readonly LeafResult[];
}

/** Options of `compileCondition` and `checkCondition`. @public */
export interface CompileOptions {
  /**
   * The operators the condition may use.
   * @defaultValue the built-in operators only
   */
  readonly operators?: OperatorRegistry;
  /**
   * Name of the condition's root in issue paths, e.g. `offers[3].conditions`.
   * @defaultValue `'conditions'`
   */
  readonly path?: string;
}

let builtIns: OperatorRegistry | undefined;

const COMPILE_OPTION_KEYS: readonly (keyof CompileOptions)[] = ['operators', 'path'];

function compile(condition: unknown, options: CompileOptions) {
  assertKnownKeys(options, COMPILE_OPTION_KEYS, 'compileCondition options');
  builtIns ??= createOperatorRegistry();
  const c: Compilation = {
    operators: operatorsOption(options.operators) ?? builtIns,
    issues: [],
    leaves: [],
    usesHistory: false,
  };
  const evaluate: Evaluate = compileNode(c, condition, options.path ?? 'conditions');
  const { leaves } = c;
  const explain = (ctx: FactContext) => leaves.map((leaf) => leaf(ctx));
  return { evaluate, usesHistory: c.usesHistory, explain, issues: c.issues };
}

/**
 * Checks a condition against the language, the fact schema and the operators' types, without
 * throwing.
 * @param condition - the condition, typically parsed JSON.
 * @param options - operators and the root's name in issue paths.
 * @returns every issue found, in tree order; empty when the condition compiles.
 * @throws TypeError when `options` has a key it does not know.
 * @public
 */
export function checkCondition(
  condition: unknown,
  options: CompileOptions = {},
): readonly ConditionIssue[] {
  return compile(condition, options).issues;
}

/**
 * Compiles a condition once, when offers load, into closures evaluated per transaction.
 * @param condition - the condition, typically parsed JSON (see `Condition`).
 * @param options - operators and the root's name in issue paths.
 * @returns the compiled condition.
 * @throws ConditionError listing every issue when the condition is malformed or ill-typed;
 *   TypeError when `options` has a key it does not know.
 * @example
 * ```ts
 * const { evaluate, usesHistory } = compileCondition({
 *   all: [
 *     { fact: 'transaction.amount', operator: 'greaterThanInclusive', value: 20 },
 *     { fact: 'customer', path: '$.location.city', operator: 'in', value: ['Paris', 'Lyon'] },
 *   ],
 * });
 * ```
 * @public
 */
export function compileCondition(
  condition: unknown,
  options: CompileOptions = {},
): CompiledCondition {
  const { evaluate, usesHistory, explain, issues } = compile(condition, options);
  if (issues.length > 0) throw new ConditionError(issues);
  return Object.freeze({ evaluate, usesHistory, explain });
}
