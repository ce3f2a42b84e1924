/**
 * json-rules-engine's fact-value validator for its numeric operators
 * (`Number.parseFloat(x).toString() !== 'NaN'`): a number, or a string that starts like one.
 */
export function numberValidator(factValue: unknown): boolean {
  // parseFloat converts its argument to a string itself; the cast only satisfies its signature.
  return !Number.isNaN(Number.parseFloat(factValue as string));
}
