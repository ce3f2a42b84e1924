/**
 * The condition language as JSON, compatible with json-rules-engine's condition syntax
 * (see docs/concepts.md, The condition language).
 */

/** A JSON value, as a literal `value` of a leaf. @public */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/**
 * A value read from a fact at evaluation time, json-rules-engine's `{ fact, path? }`.
 * `fact` may be dotted (`customer.location.city`), as in a leaf.
 * @public
 */
export interface FactReference {
  /** Fact name, optionally dotted into its properties. */
  readonly fact: string;
  /** JSONPath of plain member steps into the fact, e.g. `$.location.city`. */
  readonly path?: string;
}

/** What a leaf compares its fact with: a literal, or a reference to another fact. @public */
export type ConditionValue = FactReference | JsonValue;

/**
 * Properties json-rules-engine allows on any condition. They do not change the result:
 * `name` is a label, `priority` only orders evaluation. The types are what json-rules-engine
 * documents; when conditions load from JSON, a value of any type is accepted and ignored, as
 * json-rules-engine does (see docs/concepts.md, The condition language).
 * @public
 */
export interface ConditionMetadata {
  /** A label for people reading the condition. */
  readonly name?: string;
  /** json-rules-engine's evaluation order hint; ignored, since evaluation has no side effects. */
  readonly priority?: number;
}

/** True when every sub-condition is true; `all: []` is true. @public */
export interface AllCondition extends ConditionMetadata {
  /** The sub-conditions. */
  readonly all: readonly Condition[];
}

/**
 * True when some sub-condition is true. Must not be empty: json-rules-engine makes `any: []`
 * true, which is rarely what its author meant, so it is rejected.
 * @public
 */
export interface AnyCondition extends ConditionMetadata {
  /** The sub-conditions, at least one. */
  readonly any: readonly Condition[];
}

/** True when its sub-condition is false. @public */
export interface NotCondition extends ConditionMetadata {
  /** The negated condition. */
  readonly not: Condition;
}

/**
 * A comparison: the fact (at `path`, if given) `operator` `value`.
 * @example `{ "fact": "customer.location.city", "operator": "equal", "value": "Paris" }`
 * @public
 */
export interface LeafCondition extends ConditionMetadata {
  /** Fact name, optionally dotted: `customer.location.city` means fact `customer`, path `$.location.city`. */
  readonly fact: string;
  /** JSONPath of plain member steps into the fact, e.g. `$.location.city`. */
  readonly path?: string;
  /**
   * Name of a built-in or registered operator, optionally prefixed by json-rules-engine's
   * decorators: `not:`, `swap:`, `someFact:`, `everyFact:`, `someValue:`, `everyValue:`
   * (`not:someValue:equal`).
   */
  readonly operator: string;
  /** What the fact is compared with. */
  readonly value: ConditionValue;
}

/** A condition tree. @public */
export type Condition = AllCondition | AnyCondition | NotCondition | LeafCondition;
