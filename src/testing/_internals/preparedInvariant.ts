import type { InvariantOptions, ReplayInput, ReplayOutput } from '../invariants/types.js';
import { type PreparedInput, prepareInput } from './replayInput.js';

/** An invariant that reads the input with the options `replay` was given. */
export type InvariantWithOptions = (
  input: ReplayInput,
  result: ReplayOutput,
  options?: InvariantOptions,
) => void;

/**
 * An invariant whose check reads the input prepared with the options `replay` was given: the
 * offers' terms and the paid transactions, as every such invariant reads them.
 * @param check - what the invariant checks, throwing an `Error` at the first violation
 * @returns the invariant, called with the input, the result and the options
 */
export function preparedInvariant(
  check: (prepared: PreparedInput, result: ReplayOutput) => void,
): InvariantWithOptions {
  return (input, result, options = {}) => check(prepareInput(input, options), result);
}
