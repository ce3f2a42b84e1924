import { type ParsedReturn, parseReturn } from '../../model/parseReturn.js';
import type { ParseResult } from '../../model/parseTransaction.js';
import { requireArray } from '../requireInput.js';

/**
 * Parses one request's returns, item by item.
 * @param returns - the items as sent
 * @param timeZone - the zone of their wall-clock dates
 * @param offset - index of the first item in its stream: item keys are `#<offset + i>`
 * @returns one parse result per item
 * @throws TypeError when `returns` is not an array
 * @public
 */
export function parseReturns(
  returns: readonly unknown[],
  timeZone: string,
  offset = 0,
): ParseResult<ParsedReturn>[] {
  requireArray(returns, 'returns');
  return returns.map((r, i) => parseReturn(r, offset + i, timeZone));
}
