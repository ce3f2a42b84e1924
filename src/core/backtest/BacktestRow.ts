/** Paid transactions, cashback and customers reached of one offer set in one row. @public */
export interface BacktestFigures {
  /** Transactions paid. */
  readonly paid: number;
  /** Cashback paid, an exact decimal string with `scale` places. */
  readonly cashback: string;
  /** Distinct customers paid at least once. */
  readonly customers: number;
}

/**
 * One row of a difference table: the key, both sets' figures and candidate minus baseline. The
 * rows of held-back cashback (`BacktestHeldBack`) are rows of `HeldBackFigures`.
 * @typeParam F - the figures of each set
 * @public
 */
export interface BacktestRow<F = BacktestFigures> {
  /** The offer id, month (`YYYY-MM`), day or segment value the row is about; `total` for a total. */
  readonly key: string;
  /** Figures of the baseline. */
  readonly baseline: F;
  /** Figures of the candidate. */
  readonly candidate: F;
  /** Candidate minus baseline. */
  readonly difference: F;
}
