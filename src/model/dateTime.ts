import { TZDate } from '@date-fns/tz';
import { dayNumberOf, formatCivil, isRealDate, pad } from './day.js';

/**
 * A transaction date-time as wall-clock time in the engine's time zone.
 * @public
 */
export interface WallClock {
  /** Normalised text, `YYYY-MM-DDTHH:mm:ss.SSS`. */
  readonly text: string;
  /** Calendar day, `YYYY-MM-DD`. */
  readonly dayText: string;
  /** Day number (days since 1970-01-01). */
  readonly day: number;
  /** Year of the day. */
  readonly year: number;
  /** `month × 100 + day of month`, for age comparisons. */
  readonly monthDay: number;
  /** ISO weekday, 1 Monday … 7 Sunday. */
  readonly weekday: number;
  /** Hour, 0–23. */
  readonly hour: number;
  /** Whole seconds since 1970-01-01T00:00 wall-clock; with `nanos`, orders date-times. */
  readonly seconds: number;
  /** Fraction of the second in nanoseconds (0–999,999,999): "strictly before" is exact. */
  readonly nanos: number;
}

const DATE_TIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** The number written by `count` ASCII digits at `at`, or -1 if any is not a digit. */
function digits(text: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const c = text.charCodeAt(i) - 48;
    if (!(c >= 0 && c <= 9)) return -1;
    n = n * 10 + c;
  }
  return n;
}

/**
 * A parsed date-time. The texts are made on first use: matching reads only the numbers, and two
 * strings per transaction were measurable garbage in a replay of millions.
 */
class Clock implements WallClock {
  private shown: string | undefined;
  readonly day: number;
  readonly monthDay: number;
  readonly weekday: number;
  readonly seconds: number;
  constructor(
    readonly year: number,
    month: number,
    dayOfMonth: number,
    readonly hour: number,
    minute: number,
    second: number,
    readonly nanos: number,
  ) {
    const day = dayNumberOf(year, month, dayOfMonth);
    this.day = day;
    this.monthDay = month * 100 + dayOfMonth;
    // 1970-01-01 was a Thursday (ISO 4).
    this.weekday = ((((day + 3) % 7) + 7) % 7) + 1;
    this.seconds = day * 86_400 + hour * 3600 + minute * 60 + second;
  }

  get dayText(): string {
    return formatCivil(this.year, Math.floor(this.monthDay / 100), this.monthDay % 100);
  }

  get text(): string {
    if (this.shown === undefined) {
      const inDay = this.seconds - this.day * 86_400;
      const minute = Math.floor(inDay / 60) % 60;
      this.shown = `${this.dayText}T${pad(this.hour, 2)}:${pad(minute, 2)}:${pad(inDay % 60, 2)}.${pad(Math.floor(this.nanos / 1_000_000), 3)}`;
    }
    return this.shown;
  }

  toJSON(): Record<keyof WallClock, string | number> {
    const { text, dayText, day, year, monthDay, weekday, hour, seconds, nanos } = this;
    return { text, dayText, day, year, monthDay, weekday, hour, seconds, nanos };
  }
}

/** `true` when wall-clock time `a` is strictly before `b`. */
export function isBefore(aSeconds: number, aNanos: number, b: WallClock): boolean {
  return aSeconds < b.seconds || (aSeconds === b.seconds && aNanos < b.nanos);
}

/**
 * Parses a transaction date-time: `YYYY-MM-DDTHH:mm:ss` with optional fractional seconds, taken
 * as wall-clock time in `timeZone`. A value with `Z` or an offset is an instant and is converted
 * into that zone (docs/concepts.md, Time zones).
 * @param text - the date-time text
 * @param timeZone - IANA zone of the engine
 * @returns the wall-clock time, or a reason why the text is not a valid date-time
 * @public
 */
export function parseDateTime(text: string, timeZone: string): WallClock | string {
  // Digits are read with charCodeAt, not by a regex with eight captures and their Number()
  // conversions (docs/benchmarks.md, Figures behind choices in the code). DATE_TIME_RE stays the
  // definition of the shape.
  const y = digits(text, 0, 4);
  const mo = digits(text, 5, 2);
  const d = digits(text, 8, 2);
  const h = digits(text, 11, 2);
  const mi = digits(text, 14, 2);
  const s = digits(text, 17, 2);
  const shaped =
    y >= 0 &&
    mo >= 0 &&
    d >= 0 &&
    h >= 0 &&
    mi >= 0 &&
    s >= 0 &&
    text.charCodeAt(4) === 45 &&
    text.charCodeAt(7) === 45 &&
    text.charCodeAt(10) === 84 &&
    text.charCodeAt(13) === 58 &&
    text.charCodeAt(16) === 58;
  if (!shaped || (text.length > 19 && text.length !== 23 && !DATE_TIME_RE.test(text))) {
    return 'must be a date-time YYYY-MM-DDTHH:mm:ss[.fff]';
  }
  if (!isRealDate(y, mo, d)) return 'is not a real calendar date';
  if (h > 23 || mi > 59 || s > 59) return 'is not a valid time of day';
  if (text.length === 19) return new Clock(y, mo, d, h, mi, s, 0);
  const millis = text.length === 23 && text.charCodeAt(19) === 46 ? digits(text, 20, 3) : -1;
  if (millis >= 0) return new Clock(y, mo, d, h, mi, s, millis * 1_000_000);
  const m = DATE_TIME_RE.exec(text);
  if (m === null) return 'must be a date-time YYYY-MM-DDTHH:mm:ss[.fff]';
  const nanos = m[7] === undefined ? 0 : Number(m[7].padEnd(9, '0'));
  const zone = m[8];
  if (zone === undefined) return new Clock(y, mo, d, h, mi, s, nanos);
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (oh > 23 || om > 59) return 'has an invalid UTC offset';
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  // Not Date.UTC: it reads years 0–99 as 1900–1999.
  const instant =
    (dayNumberOf(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s) * 1000 - offsetMinutes * 60_000;
  const z = timeZone === 'UTC' ? undefined : new TZDate(instant, timeZone);
  const u = z ?? new Date(instant);
  const year = z === undefined ? u.getUTCFullYear() : z.getFullYear();
  // An offset can move a date at either end of the four-digit years out of them; every stored
  // day and date is a four-digit year.
  if (year < 0 || year > 9999) return OUT_OF_RANGE;
  if (z === undefined) {
    return new Clock(
      year,
      u.getUTCMonth() + 1,
      u.getUTCDate(),
      u.getUTCHours(),
      u.getUTCMinutes(),
      u.getUTCSeconds(),
      nanos,
    );
  }
  return new Clock(
    year,
    z.getMonth() + 1,
    z.getDate(),
    z.getHours(),
    z.getMinutes(),
    z.getSeconds(),
    nanos,
  );
}

const OUT_OF_RANGE = "is outside the years 0000–9999 in the engine's time zone";

/**
 * The calendar day of an instant in a time zone, e.g. "today" from the engine clock.
 * @param instant - a point in time
 * @param timeZone - IANA zone
 * @returns the day number (days since 1970-01-01)
 * @public
 */
export function dayInZone(instant: Date, timeZone: string): number {
  const z = new TZDate(instant.getTime(), timeZone);
  return dayNumberOf(z.getFullYear(), z.getMonth() + 1, z.getDate());
}
