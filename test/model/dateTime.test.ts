import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { dayInZone, parseDateTime } from '../../src/model/dateTime.js';
import { formatDay, parseDay } from '../../src/model/day.js';

function wall(text: string, zone = 'UTC') {
  const w = parseDateTime(text, zone);
  if (typeof w === 'string') throw new Error(w);
  return w;
}

describe('parseDay', () => {
  test('rejects an impossible date such as 2025-02-30', () => {
    expect(parseDay('2025-02-30')).toBeUndefined();
    expect(parseDay('2025-13-01')).toBeUndefined();
    expect(parseDay('2025-1-01')).toBeUndefined();
  });

  test('accepts 29 February only in leap years', () => {
    expect(parseDay('2024-02-29')).toBeDefined();
    expect(parseDay('2000-02-29')).toBeDefined();
    expect(parseDay('1900-02-29')).toBeUndefined();
  });

  test('round-trips through formatDay over four centuries', () => {
    for (
      let d = parseDay('1800-01-01') as number;
      d < (parseDay('2200-01-01') as number);
      d += 17
    ) {
      expect(parseDay(formatDay(d))).toBe(d);
    }
  });

  test('gives the same text when asked again, also after its cache of texts was emptied', () => {
    // 10,000 days, twice: more than the cache holds, so the second pass mixes hits and misses.
    for (let pass = 0; pass < 2; pass++) {
      for (let d = 0; d < 10_000; d++) {
        expect(formatDay(d)).toBe(new Date(d * 86_400_000).toISOString().slice(0, 10));
      }
    }
  });
});

describe('parseDateTime', () => {
  test('takes a date-time without a zone as wall-clock time, whatever the engine zone', () => {
    const w = wall('2025-06-02T23:30:00.5', 'Pacific/Kiritimati');
    expect(w.text).toBe('2025-06-02T23:30:00.500');
    expect(w.dayText).toBe('2025-06-02');
    expect(w.hour).toBe(23);
    // The texts are made on first use, and still serialise.
    expect(JSON.parse(JSON.stringify(w))).toMatchObject({
      text: '2025-06-02T23:30:00.500',
      dayText: '2025-06-02',
      nanos: 500_000_000,
    });
  });

  test('converts a value with Z or an offset into the engine zone', () => {
    expect(wall('2025-06-02T23:30:00Z', 'Europe/Paris').dayText).toBe('2025-06-03');
    expect(wall('2025-06-02T23:30:00Z', 'Europe/Paris').hour).toBe(1);
    expect(wall('2025-06-03T01:30:00+02:00', 'UTC').text).toBe('2025-06-02T23:30:00.000');
    expect(wall('2025-06-03T01:30:00-0130', 'UTC').text).toBe('2025-06-03T03:00:00.000');
  });

  test('gives the ISO weekday: 2025-06-02 is a Monday and 2025-06-08 a Sunday', () => {
    expect(wall('2025-06-02T00:00:00').weekday).toBe(1);
    expect(wall('2025-06-08T00:00:00').weekday).toBe(7);
    expect(wall('1969-12-31T00:00:00').weekday).toBe(3);
  });

  test('keeps the fraction of a second to the nanosecond', () => {
    expect(wall('2025-06-02T10:00:00.000000001').nanos).toBe(1);
    expect(wall('2025-06-02T10:00:00.5').nanos).toBe(500_000_000);
    expect(wall('2025-06-02T10:00:01').seconds - wall('2025-06-02T10:00:00.999').seconds).toBe(1);
  });

  test.each([
    ['2025-02-30T10:00:00', 'is not a real calendar date'],
    ['2025-06-02T24:00:00', 'is not a valid time of day'],
    ['2025-06-02 10:00:00', 'must be a date-time YYYY-MM-DDTHH:mm:ss[.fff]'],
    ['2025-06-02', 'must be a date-time YYYY-MM-DDTHH:mm:ss[.fff]'],
    ['2025-06-02T10:00:00+25:00', 'has an invalid UTC offset'],
  ])('rejects %s', (text, reason) => {
    expect(parseDateTime(text, 'UTC')).toBe(reason);
  });
});

describe('dayInZone', () => {
  test('gives the calendar day of an instant in a zone', () => {
    const instant = new Date('2025-06-02T23:30:00Z');
    expect(formatDay(dayInZone(instant, 'UTC'))).toBe('2025-06-02');
    expect(formatDay(dayInZone(instant, 'Asia/Tokyo'))).toBe('2025-06-03');
  });
});

describe('parseDateTime against Date.UTC', () => {
  test('reads every field of any well-formed date-time, with or without a zone', () => {
    const two = (n: number) => String(n).padStart(2, '0');
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1900-01-01T00:00:00Z'),
          max: new Date('2199-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        fc.stringMatching(/^\d{0,9}$/),
        fc.option(
          fc.tuple(
            fc.constantFrom('+', '-'),
            fc.integer({ min: 0, max: 14 }),
            fc.constantFrom(0, 30, 45),
          ),
          { nil: undefined },
        ),
        (date, fraction, offset) => {
          const base = date.toISOString().slice(0, 19);
          const zone =
            offset === undefined ? '' : `${offset[0]}${two(offset[1])}:${two(offset[2])}`;
          const text = `${base}${fraction === '' ? '' : `.${fraction}`}${zone}`;
          const w = parseDateTime(text, 'UTC');
          if (typeof w === 'string') throw new Error(`${text}: ${w}`);
          const sign = offset?.[0] === '-' ? -1 : 1;
          const shift = offset === undefined ? 0 : sign * (offset[1] * 60 + offset[2]) * 60;
          const seconds = Math.floor(date.getTime() / 1000) - shift;
          expect(w.seconds).toBe(seconds);
          expect(w.nanos).toBe(Number(fraction.padEnd(9, '0')));
          expect(w.dayText).toBe(new Date(seconds * 1000).toISOString().slice(0, 10));
          expect(w.text).toBe(
            `${new Date(seconds * 1000).toISOString().slice(0, 19)}.${fraction.padEnd(3, '0').slice(0, 3)}`,
          );
          expect(w.hour).toBe(new Date(seconds * 1000).getUTCHours());
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('parseDateTime with an offset in the first century', () => {
  test('keeps years 0–99 as written', () => {
    const w = parseDateTime('0050-06-01T12:00:00Z', 'UTC');
    expect(typeof w !== 'string' && w.dayText).toBe('0050-06-01');
    const z = parseDateTime('0050-06-01T01:00:00+02:00', 'UTC');
    expect(typeof z !== 'string' && z.text).toBe('0050-05-31T23:00:00.000');
  });
});

describe('parseDateTime at the ends of the four-digit years', () => {
  const outside = "is outside the years 0000–9999 in the engine's time zone";

  test('refuses a date an offset moves past 9999 or before 0000, in the engine zone', () => {
    expect(parseDateTime('9999-12-31T23:30:00-01:00', 'UTC')).toBe(outside);
    expect(parseDateTime('0000-01-01T00:30:00+01:00', 'UTC')).toBe(outside);
    // 12:00 UTC is already the next day at +14.
    expect(parseDateTime('9999-12-31T12:00:00Z', 'Pacific/Kiritimati')).toBe(outside);
    expect(parseDateTime('0000-01-01T03:00:00Z', 'America/New_York')).toBe(outside);
  });

  test('keeps the last and first moments that stay inside', () => {
    expect(wall('9999-12-31T22:30:00-01:00').dayText).toBe('9999-12-31');
    expect(wall('0000-01-01T01:30:00+01:00').dayText).toBe('0000-01-01');
    expect(wall('9999-12-31T09:00:00Z', 'Pacific/Kiritimati').dayText).toBe('9999-12-31');
    expect(wall('9999-12-31T23:59:59').dayText).toBe('9999-12-31');
    expect(wall('0000-01-01T00:00:00').dayText).toBe('0000-01-01');
  });
});
