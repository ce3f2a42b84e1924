import { civilDate, dayNumberOf, formatDay } from '../model/day.js';
import type { FundingPeriod } from './offer.js';

/**
 * The first and last day numbers any date-time can have (0000-01-01 and 9999-12-31): every period
 * is clamped to them, so that the ISO weeks at both ends of the calendar, which run past it, are
 * periods whose days a store can name (docs/decisions.md, What a period is).
 */
const FIRST_DAY = dayNumberOf(0, 1, 1);
const LAST_DAY = dayNumberOf(9999, 12, 31);

/**
 * The first day of the period holding `day`. An offer-long period starts on the first day a
 * date-time can have, whatever the offer's valid dates (they may change on a reload); the ISO week
 * holding 0000-01-01 starts then too.
 * @param period - the period
 * @param day - a day number
 * @returns the day number its period starts on
 */
export function periodStart(period: FundingPeriod, day: number): number {
  switch (period) {
    case 'day':
      return day;
    case 'week':
      return Math.max(FIRST_DAY, periodStartOfWeek(day));
    case 'month':
      // The first of the month is day-of-month − 1 days before.
      return day - civilDate(day)[2] + 1;
    default:
      return FIRST_DAY;
  }
}

/**
 * The last day of the period that starts on `start`; the ISO week holding 9999-12-31 ends then.
 * @param period - the period
 * @param start - a day number `periodStart` gave
 * @returns its last day number
 */
export function periodEnd(period: FundingPeriod, start: number): number {
  switch (period) {
    case 'day':
      return start;
    case 'week':
      // From the Monday: the first week of the calendar starts later, clamped.
      return Math.min(LAST_DAY, periodStartOfWeek(start) + 6);
    case 'month': {
      const [year, month] = civilDate(start);
      return month === 12 ? dayNumberOf(year + 1, 1, 1) - 1 : dayNumberOf(year, month + 1, 1) - 1;
    }
    default:
      return LAST_DAY;
  }
}

/** The Monday of the ISO week holding `day`, unclamped. */
function periodStartOfWeek(day: number): number {
  // Day 0 (1970-01-01) was a Thursday: Monday is 3 days before a day ≡ 0 (mod 7).
  return day - ((((day + 3) % 7) + 7) % 7);
}

/** The period of a budget or a cap that holds one day (docs/concepts.md, Funding controls). @public */
export interface FundingPeriodDays {
  /** Its first day number (days since 1970-01-01): what `DecideState.spent` is asked with. */
  readonly start: number;
  /** Its last day number. */
  readonly end: number;
  /** Its first day, `YYYY-MM-DD`. */
  readonly from: string;
  /** Its last day, `YYYY-MM-DD`. */
  readonly to: string;
}

/**
 * The period of a budget or a cap that holds a day: the day, its ISO week (Monday to Sunday), its
 * calendar month, or the whole offer (every day a date-time can have). A caller that keeps what
 * budgets and caps spent in storage of its own sums a counter over these days.
 * @param period - the budget's or the cap's period
 * @param day - a day number (days since 1970-01-01), such as `parseDay` gives
 * @returns the period's first and last day
 * @example
 * ```ts
 * fundingPeriod('week', parseDay('2025-06-12')!) // { from: '2025-06-09', to: '2025-06-15', … }
 * ```
 * @public
 */
export function fundingPeriod(period: FundingPeriod, day: number): FundingPeriodDays {
  const start = periodStart(period, day);
  const end = periodEnd(period, start);
  return { start, end, from: formatDay(start), to: formatDay(end) };
}
