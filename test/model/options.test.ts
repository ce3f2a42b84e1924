import { describe, expect, test } from 'vitest';
import { resolveOptions } from '../../src/model/options.js';
import { createOperatorRegistry } from '../../src/rules/index.js';

describe('resolveOptions', () => {
  test('fills in the defaults', () => {
    expect(resolveOptions()).toMatchObject({
      timeZone: 'UTC',
      scale: 2,
      rounding: 'half-up',
      currency: 'EUR',
      unit: 100,
      operators: undefined,
    });
  });

  test('rejects a key that is not an option, naming the nearest one', () => {
    expect(() => resolveOptions({ timezone: 'Europe/Paris' } as never)).toThrow(
      new TypeError(
        "core options: unknown option 'timezone'; did you mean 'timeZone'? " +
          '(known: timeZone, scale, rounding, currency, operators, lateReturns)',
      ),
    );
  });

  test('rejects values of the wrong type or out of range, naming the option', () => {
    expect(() => resolveOptions({ timeZone: 5 } as never)).toThrow(
      new RangeError("Unknown time zone '5'"),
    );
    expect(() => resolveOptions({ scale: '2' } as never)).toThrow(
      new TypeError('scale must be a whole number from 0 to 10, got the string "2"'),
    );
    expect(() => resolveOptions({ currency: '' })).toThrow(
      new TypeError('currency must be a non-empty string, got the string ""'),
    );
    expect(() => resolveOptions({ operators: {} } as never)).toThrow(
      new TypeError('operators must be a registry from createOperatorRegistry, got an object'),
    );
    const operators = createOperatorRegistry();
    expect(resolveOptions({ operators }).operators).toBe(operators);
  });
});
