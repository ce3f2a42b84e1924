import fc from 'fast-check';
import { formatDay, pad, parseDay } from '../../model/day.js';
import { assertKnownKeys } from '../../model/knownKeys.js';
import type { DayRange } from '../DayRange.js';

/**
 * Day numbers of a range, checked.
 */
export function dayNumbers(range: DayRange, what: string): { min: number; max: number } {
  assertKnownKeys(range, ['from', 'to'], what, 'field');
  const min = parseDay(range.from);
  const max = parseDay(range.to);
  if (min === undefined || max === undefined || min > max) {
    throw new RangeError(
      `${what} must be real days YYYY-MM-DD with from <= to, got ${range.from}..${range.to}`,
    );
  }
  return { min, max };
}

/** A day of the range. */
function dayArbitrary(range: DayRange, what: string): fc.Arbitrary<string> {
  return fc.integer(dayNumbers(range, what)).map(formatDay);
}

/** Fractional seconds: none most often, milliseconds, or up to nanoseconds. */
const fraction = fc.oneof(
  { weight: 4, arbitrary: fc.constant('') },
  fc.integer({ min: 0, max: 999 }).map((n) => `.${pad(n, 3)}`),
  fc
    .tuple(fc.integer({ min: 1, max: 9 }), fc.nat(999_999_999))
    .map(([w, n]) => `.${pad(n, 9).slice(0, w)}`),
);

/** A zone suffix: `Z`, or an offset from −12:00 to +14:00 as `±HH:MM`, `±HHMM` or `±HH`. */
const zone = fc.oneof(
  fc.constant('Z'),
  fc
    .tuple(
      fc.integer({ min: -12, max: 14 }),
      fc.constantFrom(0, 30, 45),
      fc.constantFrom(':', '', 'h'),
    )
    .map(([h, m, style]) => {
      const sign = h < 0 ? '-' : '+';
      const hh = pad(Math.abs(h));
      return style === 'h' ? `${sign}${hh}` : `${sign}${hh}${style}${pad(m)}`;
    }),
);

/**
 * A transaction date-time `YYYY-MM-DDTHH:mm:ss[.f…]` on a day of the range, optionally with `Z` or
 * an offset (docs/concepts.md, Time zones).
 */
export function dateTimeArbitrary(range: DayRange, offsets: boolean): fc.Arbitrary<string> {
  const local = fc
    .tuple(
      dayArbitrary(range, 'dates'),
      fc.integer({ min: 0, max: 23 }),
      fc.integer({ min: 0, max: 59 }),
      fc.integer({ min: 0, max: 59 }),
      fraction,
    )
    .map(([day, h, m, s, f]) => `${day}T${pad(h)}:${pad(m)}:${pad(s)}${f}`);
  if (!offsets) return local;
  return fc
    .tuple(local, fc.oneof({ weight: 3, arbitrary: fc.constant('') }, zone))
    .map(([t, z]) => t + z);
}

/**
 * A birthday in the range, with 29 February of a leap year in the range drawn often.
 */
export function birthdayArbitrary(range: DayRange): fc.Arbitrary<string> {
  const { min, max } = dayNumbers(range, 'birthdays');
  const leapDays: string[] = [];
  for (let y = Number(range.from.slice(0, 4)); y <= Number(range.to.slice(0, 4)); y++) {
    const d = parseDay(`${pad(y, 4)}-02-29`);
    if (d !== undefined && d >= min && d <= max) leapDays.push(formatDay(d));
  }
  const any = fc.integer({ min, max }).map(formatDay);
  return leapDays.length === 0
    ? any
    : fc.oneof({ weight: 4, arbitrary: any }, fc.constantFrom(...leapDays));
}
