/**
 * An inclusive range of calendar days, `YYYY-MM-DD`, from which arbitraries draw dates.
 * @example
 * ```ts
 * const year2025: DayRange = { from: '2025-01-01', to: '2025-12-31' };
 * ```
 * @public
 */
export interface DayRange {
  /** First day, inclusive. */
  readonly from: string;
  /** Last day, inclusive. */
  readonly to: string;
}
