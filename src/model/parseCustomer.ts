import { civilDate, parseDay } from './day.js';
import type { FieldIssue } from './errors.js';
import { itemKey } from './itemKey.js';
import { normaliseGender } from './normalise.js';
import type { ParseResult } from './parseTransaction.js';
import { CustomerSchema, type Location } from './schemas.js';

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

/**
 * Parses a customer: all four fields required (docs/concepts.md, Input rules).
 * @param input - the JSON item
 * @param index - its position, for the `#<index>` key of an item without a usable id
 * @returns the parsed customer, or its problems
 * @public
 */
export function parseCustomer(input: unknown, index: number): ParseResult<ParsedCustomer> {
  const r = CustomerSchema.safeParse(input, { error: zodMessage });
  if (!r.success) {
    const key = itemKey((input as { customer_id?: unknown } | null)?.customer_id, index);
    return { ok: false, key, issues: zodIssues(r.error.issues) };
  }
  const c = r.data;
  const [y, m, d] = civilDate(parseDay(c.birthday) as number);
  return {
    ok: true,
    value: {
      customerId: c.customer_id,
      birthday: c.birthday,
      birthYear: y,
      birthMonthDay: m * 100 + d,
      gender: c.gender,
      genderKey: normaliseGender(c.gender),
      location: { country: c.location.country, city: c.location.city },
    },
  };
}
