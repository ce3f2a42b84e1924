import { isBefore, type WallClock } from '../../model/dateTime.js';
import { readDateTime } from '../../model/parseTransaction.js';
import { isRecord } from '../../rules/_internals/isRecord.js';

/**
 * The date-time of an item as given, or `undefined` when it cannot be read: such an item comes
 * before every other in the merge of transactions and returns (docs/replay.md, Returns).
 * @param item - a transaction or a return, as given
 * @param timeZone - the replay's zone
 * @returns its wall-clock date-time, if readable
 */
export function dateOf(item: unknown, timeZone: string): WallClock | undefined {
  return isRecord(item) ? readDateTime(item.date, 'date', timeZone, []) : undefined;
}

/**
 * When a return arrived, as given: its `reported_at`, else its date; `undefined` when that cannot
 * be read (it then comes before every other in the merge, docs/replay.md, Late returns).
 * @param item - a return, as given
 * @param timeZone - the replay's zone
 * @returns its wall-clock arrival, if readable
 */
export function arrivalOf(item: unknown, timeZone: string): WallClock | undefined {
  if (!isRecord(item) || item.reported_at === undefined) return dateOf(item, timeZone);
  return readDateTime(item.reported_at, 'reported_at', timeZone, []);
}

/**
 * The returns of a replay not yet pushed, in their given order, read against the transactions
 * in the merge order: the next return goes first when its arrival (`reported_at`, else its date)
 * is strictly before the next transaction's date-time (docs/replay.md, Returns).
 */
export class ReturnCursor {
  private next = 0;
  private nextDate: WallClock | undefined;

  /**
   * @param returns - the returns, in their given order
   * @param timeZone - the replay's zone
   */
  constructor(
    private readonly returns: readonly unknown[],
    private readonly timeZone: string,
  ) {
    this.read();
  }

  /** Whether every return was taken. */
  get done(): boolean {
    return this.next >= this.returns.length;
  }

  /**
   * Whether the next return goes before a transaction dated `date`.
   * @param date - the transaction's date-time, `undefined` when unreadable
   * @returns whether a return is left and goes first
   */
  before(date: WallClock | undefined): boolean {
    if (this.done) return false;
    const r = this.nextDate;
    if (r === undefined) return true;
    return date !== undefined && isBefore(r.seconds, r.nanos, date);
  }

  /**
   * Takes the returns that go before a transaction dated `date` (all of them when there is none).
   * @param date - the next transaction's date-time; `null` for the end of the transactions
   * @returns the returns, in order
   */
  take(date: WallClock | undefined | null): readonly unknown[] {
    const from = this.next;
    if (date === null) this.next = this.returns.length;
    else {
      while (this.before(date)) {
        this.next++;
        this.read();
      }
    }
    return this.returns.slice(from, this.next);
  }

  private read(): void {
    this.nextDate = this.done ? undefined : arrivalOf(this.returns[this.next], this.timeZone);
  }
}
