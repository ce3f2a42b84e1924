/**
 * The TypeScript type of each operand type an operator can declare.
 * @public
 */
export interface OperandValues {
  /** A string. */
  string: string;
  /** A finite number. */
  number: number;
  /** A number, or `undefined` (e.g. `history.days_since_last_merchant_purchase`). */
  'number?': number | undefined;
  /** A boolean (a literal only; no fact is a boolean). */
  boolean: boolean;
  /** A list of strings (a literal only). */
  'string[]': readonly string[];
  /** A list of numbers (a literal only). */
  'number[]': readonly number[];
  /** Anything; the operator checks for itself. */
  unknown: unknown;
}

/** An operand type an operator can declare for its fact or its value. @public */
export type OperandType = keyof OperandValues;

/** The TypeScript type of operand type `T`. @public */
export type OperandValue<T extends OperandType> = OperandValues[T];
