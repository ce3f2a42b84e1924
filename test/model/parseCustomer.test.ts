import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { civilDate, parseDay } from '../../src/model/day.js';
import { normaliseGender } from '../../src/model/normalise.js';
import { parseCustomer } from '../../src/model/parseCustomer.js';
import { CustomerSchema } from '../../src/model/schemas.js';
import { customer } from '../fixtures.js';

/** The customer `CustomerSchema` reads from `input`, built as the engine builds it; or undefined. */
function viaSchema(input: unknown) {
  const r = CustomerSchema.safeParse(input);
  if (!r.success) return undefined;
  const [y, m, d] = civilDate(parseDay(r.data.birthday) as number);
  return {
    customerId: r.data.customer_id,
    birthday: r.data.birthday,
    birthYear: y,
    birthMonthDay: m * 100 + d,
    gender: r.data.gender,
    genderKey: normaliseGender(r.data.gender),
    location: { country: r.data.location.country, city: r.data.location.city },
  };
}

// Values near each field's edges: blanks, padding, over-long ids, impossible days, other types.
const text = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('', ' ', '\t\n', ' c1 ', 'F', ' female ', '\u00a0x\u3000', 'x'.repeat(128)),
  fc.constantFrom('a\u0000', ' y-\ud800 ', '\udc00', 'x\ud83d\ude00'),
  fc.constant('y'.repeat(129)),
  fc.constant(` ${'z'.repeat(128)} `),
);
const day = fc.oneof(
  fc.constantFrom(
    '1990-05-15',
    '2000-02-29',
    '1900-02-29',
    '2025-13-01',
    '2025-1-01',
    ' 1990-05-15',
  ),
  fc
    .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
);
const other = fc.constantFrom(undefined, null, 7, true, [], {});
const field = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: other, weight: 1 });
const location = fc.oneof(
  { arbitrary: fc.record({ country: field(text), city: field(text) }), weight: 6 },
  { arbitrary: other, weight: 1 },
);
const input = fc.oneof(
  {
    arbitrary: fc.record(
      {
        customer_id: field(text),
        birthday: field(day),
        gender: field(text),
        location,
        extra: fc.string(),
      },
      { requiredKeys: [] },
    ),
    weight: 9,
  },
  { arbitrary: other, weight: 1 },
);

describe('parseCustomer', () => {
  test('reads exactly what CustomerSchema accepts, into the same customer', () => {
    fc.assert(
      fc.property(input, (value) => {
        const expected = viaSchema(value);
        const r = parseCustomer(value, 4);
        expect(r.ok).toBe(expected !== undefined);
        if (r.ok) expect(r.value).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  test('trims the id and the gender, and keeps the birthday as sent', () => {
    const r = parseCustomer(customer({ customer_id: ' c9 ', gender: ' Female ' }), 0);
    expect(r).toEqual({
      ok: true,
      value: {
        customerId: 'c9',
        birthday: '1990-05-15',
        birthYear: 1990,
        birthMonthDay: 515,
        gender: 'Female',
        genderKey: 'female',
        location: { country: 'FR', city: 'Paris' },
      },
    });
  });

  test('names every problem of an invalid customer, keyed by its index when the id is unusable', () => {
    const r = parseCustomer({ customer_id: ' ', birthday: '2025-02-30', gender: 3 }, 5);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.key).toBe('#5');
    expect(r.issues.map((i) => i.path)).toEqual(['customer_id', 'birthday', 'gender', 'location']);
  });
});
