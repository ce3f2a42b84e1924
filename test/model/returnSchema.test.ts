/**
 * `ReturnSchema`, from which the OpenAPI document describes `POST /returns` (docs/http.md),
 * accepts exactly the returns `parseReturn` accepts, apart from a `reported_at` before `date`,
 * which only `parseReturn` refuses (their order can depend on the engine's time zone).
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
    '2025-06-09T10:00:00Z',
    '2026-01-15T08:00:00.5',
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
  .array(fc.tuple(fc.constantFrom(...Object.keys(ret), 'reported_at', 'extra'), anyValue), {
    maxLength: 3,
  })
  .map((edits) => {
    const copy: Record<string, unknown> = { ...ret };
    for (const [field, value] of edits) copy[field] = value;
    return copy;
  });

/** Whether the only problem found is a `reported_at` before `date`. */
const onlyReportedBeforeDate = (r: ReturnType<typeof parseReturn>) =>
  !r.ok &&
  r.issues.length > 0 &&
  r.issues.every((i) => i.path === 'reported_at' && i.message.startsWith('must not be before'));

test('parseReturn accepts exactly what ReturnSchema accepts', () => {
  fc.assert(
    fc.property(fc.oneof(mutated, anyValue), (input) => {
      const parsed = parseReturn(input, 0, 'UTC');
      const admitted = ReturnSchema.safeParse(input).success;
      if (admitted && onlyReportedBeforeDate(parsed)) return;
      expect(parsed.ok).toBe(admitted);
    }),
    { numRuns: 3000 },
  );
});

test('a reported_at before date is well-formed for the schema, refused by parseReturn', () => {
  const early = { ...ret, reported_at: '2025-06-04T10:00:00' };
  expect(ReturnSchema.safeParse(early).success).toBe(true);
  expect(onlyReportedBeforeDate(parseReturn(early, 0, 'UTC'))).toBe(true);
  expect(parseReturn({ ...ret, reported_at: '2025-06-05T10:00:00' }, 0, 'UTC').ok).toBe(true);
});
