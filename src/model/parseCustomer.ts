import { isRecord } from '../rules/_internals/isRecord.js';
import { civilDate, parseDay } from './day.js';
import type { FieldIssue } from './errors.js';
import { itemKey, MAX_ID_LENGTH } from './itemKey.js';
import { normaliseGender } from './normalise.js';
import type { ParseResult } from './parseTransaction.js';
import { CustomerSchema, type Location } from './schemas.js';
import { textIssue } from './storableText.js';

/**
 * A customer after parsing: id trimmed, gender normalised, birthday as parts for age checks.
 * @public
 */
export interface ParsedCustomer {
  /** Customer id, trimmed. */
  readonly customerId: string;
  /** Birthday, `YYYY-MM-DD`. */
  readonly birthday: string;
  /** Year of birth. */
  readonly birthYear: number;
  /** `month × 100 + day` of the birthday. */
  readonly birthMonthDay: number;
  /** Gender as sent. */
  readonly gender: string;
  /** Gender trimmed and lower-cased: what offers compare. */
  readonly genderKey: string;
  /** Location. */
  readonly location: Location;
}

/**
 * Messages for zod's type issues in the words the hand-written transaction parser uses (`is
 * required`, `must be a string`), so that customers, offers and transactions report alike, and
 * for a value outside an enumeration (`must be one of 'all', 'new', 'returning'`); other issues
 * keep the schema's own message.
 */
export function zodMessage(issue: {
  readonly code?: string;
  readonly input?: unknown;
  readonly expected?: string;
  readonly errors?: readonly (readonly { readonly code?: string; readonly expected?: string }[])[];
  readonly values?: readonly unknown[];
}): string | undefined {
  if (issue.code === 'invalid_value' && issue.values !== undefined && issue.input !== undefined) {
    return `must be one of ${issue.values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))).join(', ')}`;
  }
  if (issue.code !== 'invalid_type' && issue.code !== 'invalid_union') return undefined;
  if (issue.input === undefined) return 'is required';
  if (issue.code === 'invalid_type') return `must be ${typeName(issue.expected)}`;
  // A union whose every branch refused the value's type (`discount`: a number or a string).
  const expected = (issue.errors ?? []).map((branch) =>
    branch.length === 1 && branch[0]?.code === 'invalid_type' ? branch[0].expected : undefined,
  );
  if (expected.length === 0 || expected.some((e) => e === undefined)) return undefined;
  return `must be ${expected.map(typeName).join(' or ')}`;
}

function typeName(expected: string | undefined): string {
  const name = expected ?? 'value';
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
}

/** Converts zod's issue paths to our dotted form. */
export function zodIssues(
  issues: readonly { path: PropertyKey[]; message: string }[],
): FieldIssue[] {
  return issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/** A parsed customer from its fields, once they are known to be what the schema accepts. */
function customerOf(
  customerId: string,
  birthday: string,
  day: number,
  gender: string,
  location: Location,
): ParsedCustomer {
  const [y, m, d] = civilDate(day);
  return {
    customerId,
    birthday,
    birthYear: y,
    birthMonthDay: m * 100 + d,
    gender,
    genderKey: normaliseGender(gender),
    location: { country: location.country, city: location.city },
  };
}

/**
 * The customer when every field is what `CustomerSchema` accepts, read without zod; `undefined`
 * for anything else, which the schema then reads and explains. A replay reads every customer at
 * start, and zod took about 3 µs each: 0.3 s of the start of a replay of 100,000 customers
 * (docs/benchmarks.md, Figures behind choices in the code). A property test
 * (test/model/parseCustomer.test.ts) proves that both give the same customer.
 */
function plainCustomer(input: unknown): ParsedCustomer | undefined {
  if (!isRecord(input)) return undefined;
  const { customer_id, birthday, gender, location } = input;
  if (typeof customer_id !== 'string' || typeof birthday !== 'string') return undefined;
  if (typeof gender !== 'string' || !isRecord(location)) return undefined;
  const { country, city } = location;
  if (typeof country !== 'string' || typeof city !== 'string') return undefined;
  const id = customer_id.trim();
  const trimmedGender = gender.trim();
  const day = parseDay(birthday);
  if (id.length === 0 || id.length > MAX_ID_LENGTH || trimmedGender.length === 0) return undefined;
  if (day === undefined) return undefined;
  const issue = textIssue(id) ?? textIssue(trimmedGender) ?? textIssue(country) ?? textIssue(city);
  if (issue !== undefined) return undefined;
  return customerOf(id, birthday, day, trimmedGender, { country, city });
}

/**
 * Parses a customer: all four fields required (docs/concepts.md, Input rules).
 * @param input - the JSON item
 * @param index - its position, for the `#<index>` key of an item without a usable id
 * @returns the parsed customer, or its problems
 * @public
 */
export function parseCustomer(input: unknown, index: number): ParseResult<ParsedCustomer> {
  const plain = plainCustomer(input);
  if (plain !== undefined) return { ok: true, value: plain };
  const r = CustomerSchema.safeParse(input, { error: zodMessage });
  if (!r.success) {
    const key = itemKey((input as { customer_id?: unknown } | null)?.customer_id, index);
    return { ok: false, key, issues: zodIssues(r.error.issues) };
  }
  const c = r.data;
  return {
    ok: true,
    value: customerOf(
      c.customer_id,
      c.birthday,
      parseDay(c.birthday) as number,
      c.gender,
      c.location,
    ),
  };
}
