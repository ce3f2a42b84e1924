/**
 * Calendar days are plain numbers in src/model/day.ts, computed by hand for speed; date-fns is
 * the independent oracle they are checked against here.
 */
import { differenceInCalendarDays, format, isValid, parse } from 'date-fns';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatDay, parseDay } from '../../src/model/day.js';

const EPOCH = new Date(1970, 0, 1);

describe('calendar days agree with date-fns', () => {
  test('parseDay counts the days since 1970-01-01 as date-fns does, and formatDay undoes it', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date(1000, 0, 1), max: new Date(9999, 11, 31), noInvalidDate: true }),
        (date) => {
          const text = format(date, 'yyyy-MM-dd');
          const day = parseDay(text);
          expect(day).toBe(differenceInCalendarDays(date, EPOCH));
          expect(formatDay(day as number)).toBe(text);
        },
      ),
    );
  });

  test('a YYYY-MM-DD text is a day exactly when date-fns reads it as a real date', () => {
    const part = (max: number) =>
      fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 9999 }), part(13), part(32), (year, month, day) => {
        const text = `${year}-${month}-${day}`;
        const real = isValid(parse(text, 'yyyy-MM-dd', EPOCH));
        expect(parseDay(text) !== undefined).toBe(real);
      }),
    );
  });
});
