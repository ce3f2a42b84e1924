/**
 * What can be wrong with a condition, as a code:
 * - `invalid_node`: not an object, or not exactly one of `all`, `any`, `not` or a comparison;
 * - `invalid_type`: a property has the wrong JSON type (e.g. `all` is not an array);
 * - `missing_key`: a comparison lacks `fact`, `operator` or `value`;
 * - `unknown_key`: a property the language does not know (often a typo);
 * - `unsupported`: json-rules-engine features left out (shared condition references, `params`);
 * - `empty_any`: `any: []`, which json-rules-engine makes true;
 * - `invalid_path`: `path` is not a JSONPath of plain member steps;
 * - `unknown_fact`, `unknown_property`: the fact or one of its properties does not exist;
 * - `not_a_value`: fact and path lead to an object, not a value;
 * - `unknown_operator`: no operator of that name is registered;
 * - `type_mismatch`: the operator does not apply to the fact's or the value's type.
 * @public
 */
export type ConditionIssueCode =
  | 'invalid_node'
  | 'invalid_type'
  | 'missing_key'
  | 'unknown_key'
  | 'unsupported'
  | 'empty_any'
  | 'invalid_path'
  | 'unknown_fact'
  | 'unknown_property'
  | 'not_a_value'
  | 'unknown_operator'
  | 'type_mismatch';

/** One problem found in a condition when it is compiled. @public */
export interface ConditionIssue {
  /** What kind of problem it is. */
  readonly code: ConditionIssueCode;
  /** Where in the condition tree, e.g. `conditions.all[2].value`. */
  readonly path: string;
  /** Why it is a problem, for people. */
  readonly message: string;
}

/**
 * Thrown by `compileCondition` when a condition is malformed or ill-typed; carries every issue
 * found, not only the first.
 * @public
 */
export class ConditionError extends Error {
  /** Every problem found, in tree order. */
  readonly issues: readonly ConditionIssue[];

  /**
   * @param issues - the problems found; at least one.
   */
  constructor(issues: readonly ConditionIssue[]) {
    const lines = issues.map((issue) => `\n  ${issue.path}: ${issue.message}`);
    super(
      `Invalid condition (${issues.length} problem${issues.length === 1 ? '' : 's'}):${lines.join('')}`,
    );
    this.name = 'ConditionError';
    this.issues = issues;
  }
}
