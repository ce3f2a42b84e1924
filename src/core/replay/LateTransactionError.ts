/**
 * Thrown by a replay session for a transaction at a merchant whose offers read history that is
 * dated more than `maxLatenessDays` days before the newest such transaction pushed before it: the
 * purchases its lookback needs may have been dropped, so it cannot be decided exactly. Nothing of
 * the chunk was decided or recorded; the session goes on as if the chunk had not been pushed.
 * @public
 */
export class LateTransactionError extends RangeError {
  /** Key of the transaction: its `transaction_id`. */
  readonly key: string;
  /** Its calendar day, `YYYY-MM-DD`. */
  readonly day: string;
  /** The newest day pushed before it at a merchant whose offers read history. */
  readonly newestDay: string;
  /** The session's `maxLatenessDays`. */
  readonly maxLatenessDays: number;

  /**
   * @param key - transaction id
   * @param day - its day
   * @param newestDay - the newest day before it
   * @param maxLatenessDays - the session's allowance
   */
  constructor(key: string, day: string, newestDay: string, maxLatenessDays: number) {
    super(
      `Transaction '${key}' of ${day} is more than ${maxLatenessDays} day(s) older than ${newestDay}, ` +
        'the newest transaction replayed at a merchant whose offers read history, and the purchases ' +
        'its lookback needs may be gone. Push transactions in date order, or raise maxLatenessDays ' +
        '(Infinity keeps every purchase).',
    );
    this.name = 'LateTransactionError';
    this.key = key;
    this.day = day;
    this.newestDay = newestDay;
    this.maxLatenessDays = maxLatenessDays;
  }
}
