import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { periodEnd, periodStart } from '../../src/matching/fundingPeriod.js';
import { civilDate, dayNumberOf } from '../../src/model/day.js';

/** Every day number from 0001-01-01 to 9999-12-31. */
const anyDay = fc.integer({ min: dayNumberOf(1, 1, 1), max: dayNumberOf(9999, 12, 31) });

describe('funding periods (docs/decisions.md, What a period is)', () => {
  test('a month runs from its first calendar day to its last', () => {
    fc.assert(
      fc.property(anyDay, (day) => {
        const [year, month] = civilDate(day);
        const start = periodStart('month', day);
        expect(start).toBe(dayNumberOf(year, month, 1));
        const end = periodEnd('month', start);
        expect(civilDate(end).slice(0, 2)).toEqual([year, month]);
        expect(civilDate(end + 1)[2]).toBe(1);
        expect(start <= day && day <= end).toBe(true);
      }),
    );
  });

  test('a week runs from Monday to Sunday', () => {
    fc.assert(
      fc.property(anyDay, (day) => {
        const start = periodStart('week', day);
        expect(new Date(start * 86_400_000).getUTCDay()).toBe(1);
        expect(start <= day && day <= periodEnd('week', start)).toBe(true);
      }),
    );
  });

  test('leap days and year ends', () => {
    expect(periodStart('month', dayNumberOf(2024, 2, 29))).toBe(dayNumberOf(2024, 2, 1));
    expect(periodEnd('month', dayNumberOf(2024, 2, 1))).toBe(dayNumberOf(2024, 2, 29));
    expect(periodStart('month', dayNumberOf(2025, 12, 31))).toBe(dayNumberOf(2025, 12, 1));
    expect(periodEnd('month', dayNumberOf(2025, 12, 1))).toBe(dayNumberOf(2025, 12, 31));
    expect(periodStart('day', 20_000)).toBe(20_000);
    expect(periodStart('offer', 20_000)).toBe(dayNumberOf(0, 1, 1));
  });

  test('every period lies inside the calendar: the ISO weeks at both of its ends are cut short', () => {
    const first = dayNumberOf(0, 1, 1);
    const last = dayNumberOf(9999, 12, 31);
    for (const period of ['offer', 'month', 'week', 'day'] as const) {
      for (const day of [first, first + 1, first + 9, last - 9, last - 3, last]) {
        const start = periodStart(period, day);
        const end = periodEnd(period, start);
        expect(start).toBeGreaterThanOrEqual(first);
        expect(end).toBeLessThanOrEqual(last);
        expect(day).toBeGreaterThanOrEqual(start);
        expect(day).toBeLessThanOrEqual(end);
      }
    }
    // 0000-01-01 is a Saturday: its week is cut to the weekend; 9999-12-31 a Friday.
    expect(periodEnd('week', periodStart('week', first))).toBe(dayNumberOf(0, 1, 2));
    expect(periodStart('week', dayNumberOf(0, 1, 3))).toBe(dayNumberOf(0, 1, 3));
    expect(periodStart('week', last)).toBe(dayNumberOf(9999, 12, 27));
  });
});
