/**
 * `ReturnSchema`, from which the OpenAPI document describes `POST /returns` (docs/http.md),
 * accepts exactly the returns `parseReturn` accepts.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { parseReturn } from '../../src/model/parseReturn.js';
import { ReturnSchema } from '../../src/model/schemas.js';

const ret = {
  return_id: 'r1',
  transaction_id: 't1',
  date: '2025-06-05T10:00:00',
  amount: 4,
};

/** Values that are sometimes right and often wrong, for every field. */
const anyValue = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom(
    '',
    ' ',
    'x'.repeat(129),
    '2025-02-30T10:00:00',
    '2025-06-02T10:00:00.123',
    '2025-06-02T10:00:00+02:00',
    '2025-06-02',
    '0',
    '0.00',
    '12.5',
    '1e5',
    '-1',
    '1000000000001',
    'a\u0000',
    'y-\ud800',
    `1.${'5'.repeat(1001)}`,
  ),
  fc.double(),
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom(null, undefined, true, [], {}, 1e12, 1e12 + 1),
);

/** The valid return with up to three fields set to any value (or an unknown field added). */
const mutated = fc
  .array(fc.tuple(fc.constantFrom(...Object.keys(ret), 'extra'), anyValue), { maxLength: 3 })
  .map((edits) => {
    const copy: Record<string, unknown> = { ...ret };
    for (const [field, value] of edits) copy[field] = value;
    return copy;
  });

test('parseReturn accepts exactly what ReturnSchema accepts', () => {
  fc.assert(
    fc.property(fc.oneof(mutated, anyValue), (input) => {
      expect(parseReturn(input, 0, 'UTC').ok).toBe(ReturnSchema.safeParse(input).success);
    }),
    { numRuns: 3000 },
  );
});
