import { describe, expect, test } from 'vitest';
import { assertKnownKeys } from '../../src/model/knownKeys.js';

const KNOWN = ['timeZone', 'scale', 'rounding', 'currency', 'operators', 'store'];

describe('assertKnownKeys', () => {
  test('accepts undefined and objects with known keys only', () => {
    expect(() => assertKnownKeys(undefined, KNOWN, 'opts')).not.toThrow();
    expect(() => assertKnownKeys({}, KNOWN, 'opts')).not.toThrow();
    expect(() => assertKnownKeys({ timeZone: 'UTC', scale: 2 }, KNOWN, 'opts')).not.toThrow();
  });

  test('names a misspelt key and suggests the known one that differs only by case', () => {
    expect(() =>
      assertKnownKeys({ timezone: 'Europe/Riga' }, KNOWN, 'createEngine options'),
    ).toThrow(
      new TypeError(
        "createEngine options: unknown option 'timezone'; did you mean 'timeZone'? " +
          '(known: timeZone, scale, rounding, currency, operators, store)',
      ),
    );
  });

  test('suggests the nearest key within a few edits', () => {
    expect(() => assertKnownKeys({ rounidng: 'up' }, KNOWN, 'o')).toThrow(
      /did you mean 'rounding'/,
    );
    expect(() => assertKnownKeys({ stor: {} }, KNOWN, 'o')).toThrow(/did you mean 'store'/);
  });

  test('suggests nothing for a key far from every known one', () => {
    expect(() => assertKnownKeys({ banana: 1 }, KNOWN, 'o')).toThrow(
      /^o: unknown option 'banana' \(known: /,
    );
  });

  test('rejects a value that is not a plain object', () => {
    expect(() => assertKnownKeys('UTC', KNOWN, 'o')).toThrow(
      new TypeError('o must be an object, got the string "UTC"'),
    );
    expect(() => assertKnownKeys(null, KNOWN, 'o')).toThrow(
      new TypeError('o must be an object, got null'),
    );
    expect(() => assertKnownKeys([], KNOWN, 'o')).toThrow(
      new TypeError('o must be an object, got a list'),
    );
  });
});
