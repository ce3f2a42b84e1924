/** Paid transactions, cashback and customers reached of one offer set in one row. @public */
export interface BacktestFigures {
  /** Transactions paid. */
  readonly paid: number;
  /** Cashback paid, an exact decimal string with `scale` places. */
  readonly cashback: string;
  /** Distinct customers paid at least once. */
  readonly customers: number;
}

/** One row of a difference table: the key, both sets' figures and candidate minus baseline. @public */
export interface BacktestRow {
  /** The offer id, month (`YYYY-MM`), day or segment value the row is about. */
  readonly key: string;
  /** Figures of the baseline. */
  readonly baseline: BacktestFigures;
  /** Figures of the candidate. */
  readonly candidate: BacktestFigures;
  /** Candidate minus baseline. */
  readonly difference: BacktestFigures;
}
