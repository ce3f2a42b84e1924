/**
 * Calendar days as integers (days since 1970-01-01). Matching compares and adds days millions of
 * times a second, so days are plain numbers here; date-fns would allocate a `Date` per call in
 * that hot path. Time zones are handled once, when a date-time is parsed (see `dateTime.ts`).
 */

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days in `month` (1–12) of `year`, proleptic Gregorian. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a civil date (H. Hinnant's days_from_civil). */
export function dayNumberOf(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The civil date `[year, month, day]` of a day number. */
export function civilDate(dayNumber: number): [number, number, number] {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [month <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, month, day];
}

/** `true` when the three parts name a real calendar date. */
export function isRealDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * Parses a `YYYY-MM-DD` calendar day.
 * @param text - the day, e.g. `2025-02-28`
 * @returns the day number (days since 1970-01-01), or `undefined` when the text is not a real date
 * @example
 * ```ts
 * parseDay('2025-02-30') // undefined
 * ```
 * @public
 */
export function parseDay(text: string): number | undefined {
  const m = DAY_RE.exec(text);
  if (m === null) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  return isRealDate(y, mo, d) ? dayNumberOf(y, mo, d) : undefined;
}

/** `n` (a whole number ≥ 0) in at least `width` digits, zeros in front: `pad(7, 2)` is `07`. */
export function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Formats `[year, month, day]` as `YYYY-MM-DD`. */
export function formatCivil(year: number, month: number, day: number): string {
  const y = year >= 0 && year < 10000 ? pad(year, 4) : String(year);
  return `${y}-${pad(month)}-${pad(day)}`;
}

/**
 * Formats a day number as `YYYY-MM-DD`.
 * @param dayNumber - days since 1970-01-01
 * @returns the calendar day
 * @public
 */
export function formatDay(dayNumber: number): string {
  const cached = DAY_TEXTS.get(dayNumber);
  if (cached !== undefined) return cached;
  const [y, m, d] = civilDate(dayNumber);
  const text = formatCivil(y, m, d);
  if (DAY_TEXTS.size >= DAY_TEXTS_MAX) DAY_TEXTS.clear();
  DAY_TEXTS.set(dayNumber, text);
  return text;
}

/**
 * Texts of recent day numbers. Every payment carries the text of its payment date, and a batch
 * pays on few distinct days: sharing the strings takes formatting out of `decide`'s profile and
 * saves allocation (docs/benchmarks.md). Bounded, and emptied when full (no eviction order to
 * keep). Only `formatDay` reads it: a caller gets an equal text whether it was cached or not.
 */
const DAY_TEXTS = new Map<number, string>();
const DAY_TEXTS_MAX = 4096;

/**
 * Age in whole years on a day. Birthdays compare as month-day pairs, so a 29 February birthday
 * is reached on 1 March in common years (docs/concepts.md, Eligibility).
 */
export function ageOn(
  birthYear: number,
  birthMonthDay: number,
  year: number,
  monthDay: number,
): number {
  return year - birthYear - (monthDay < birthMonthDay ? 1 : 0);
}
