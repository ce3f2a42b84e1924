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
});

describe('parseDateTime', () => {
  test('takes a date-time without a zone as wall-clock time, whatever the engine zone', () => {
    const w = wall('2025-06-02T23:30:00.5', 'Pacific/Kiritimati');
    expect(w.text).toBe('2025-06-02T23:30:00.500');
    expect(w.dayText).toBe('2025-06-02');
    expect(w.hour).toBe(23);
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
