import { z } from 'zod';
import { parseDay } from './day.js';
import { MAX_ID_LENGTH } from './itemKey.js';
import {
  AMOUNT_TOO_LARGE,
  overMaxAmount,
  PLAIN_DECIMAL,
  parseAmount,
  TOO_MANY_DIGITS,
} from './money.js';
import { textIssue } from './storableText.js';

/**
 * zod schemas of the JSON shapes of the partner API (docs/concepts.md, Input rules and Offers). They are the schema of record: the input types
 * at the end are theirs, and the HTTP layer's OpenAPI document is generated from them. Submitted and history
 * transactions are validated on the hot path by a hand-written validator that a property test
 * proves equal to these schemas (see `parseTransaction.ts`), apart from a date that an offset
 * moves outside the years 0000–9999 in the engine's time zone, which only it can tell. A
 * well-formed customer is read by hand too, and anything else by `CustomerSchema`
 * (see `parseCustomer.ts`).
 */

/** Refuses a string that not every store can keep as sent (`textIssue`). */
const storable = z.superRefine<string>((value, ctx) => {
  const message = textIssue(value);
  if (message !== undefined) ctx.addIssue({ code: 'custom', message });
});

/** A string of an item that a store keeps: any text but U+0000 and unpaired surrogates. */
function text() {
  return z.string().check(storable);
}

/** A string that must not be blank, kept trimmed as sent otherwise. */
function nonBlankText() {
  return z.string().trim().min(1, 'must not be empty').check(storable);
}

/** An identifier: a string, trimmed, 1–128 characters, storable. @public */
export const IdSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`)
  .check(storable);

/** A real calendar day `YYYY-MM-DD`. @public */
export const DaySchema = z
  .string()
  .refine((s) => parseDay(s) !== undefined, 'must be a real date YYYY-MM-DD');

/**
 * A positive decimal: a finite JSON number greater than 0, or a plain decimal string; with at
 * most as many digits as `parseAmount` reads. @public
 */
export const AmountSchema = z
  .union([
    z.number().finite('must be a finite number').positive('must be greater than 0'),
    z
      .string()
      .regex(PLAIN_DECIMAL, 'must be a plain decimal string')
      .refine((s) => /[1-9]/.test(s), 'must be greater than 0'),
  ])
  .refine((v) => parseAmount(v) !== TOO_MANY_DIGITS, TOO_MANY_DIGITS);

/** Whether a valid amount is above 100 (a discount is a percentage). */
function overHundred(v: string | number): boolean {
  const a = parseAmount(v);
  return typeof a !== 'string' && a.decimal.gt(100);
}

/** The amount of a transaction, history transaction or return: an {@link AmountSchema} of at most 10^12. */
export const TransactionAmountSchema = AmountSchema.refine((v) => {
  const a = parseAmount(v);
  return typeof a === 'string' || !overMaxAmount(a);
}, AMOUNT_TOO_LARGE);

const DATE_TIME_RE =
  /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2})(:?(\d{2}))?)?$/;

function isDateTime(s: string): boolean {
  const m = DATE_TIME_RE.exec(s);
  if (m === null || parseDay(m[1] as string) === undefined) return false;
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4]) > 59) return false;
  return m[7] === undefined || (Number(m[7]) <= 23 && Number(m[9] ?? 0) <= 59);
}

/**
 * A date-time of a transaction: `YYYY-MM-DDTHH:mm:ss`, optional fractional seconds (up to 9
 * digits), optional `Z` or `±HH[:MM]` offset; the date must be real and the time of day valid.
 * @public
 */
export const DateTimeSchema = z
  .string()
  .refine(isDateTime, 'must be a real date-time YYYY-MM-DDTHH:mm:ss[.fff]');

/** Location of a customer or a transaction. @public */
export const LocationSchema = z.object({ country: text(), city: text() });

/** Merchant of a submitted transaction. @public */
export const MerchantSchema = z.object({
  id: text(),
  name: nonBlankText(),
  category_code: text(),
});

/** Customer: all four fields required. @public */
export const CustomerSchema = z.object({
  customer_id: IdSchema,
  birthday: DaySchema,
  gender: nonBlankText(),
  location: LocationSchema,
});

/** Transaction submitted for cashback: all seven fields required. @public */
export const TransactionSchema = z.object({
  transaction_id: IdSchema,
  description: text(),
  customer_id: IdSchema,
  date: DateTimeSchema,
  amount: TransactionAmountSchema,
  merchant: MerchantSchema,
  location: LocationSchema,
});

/**
 * Return of a stored transaction (docs/concepts.md, Returns): `amount` absent returns all that is
 * not yet returned; `reported_at` (docs/concepts.md, Late returns) is when it arrived, read by a
 * replay (the engine goes by its own clock). Returns are read by `parseReturn`, with the same
 * field readers as a transaction; this schema describes them in the OpenAPI document, and a
 * property test (test/model/returnSchema.test.ts) proves both accept the same items, apart from a
 * `reported_at` before `date`, which only `parseReturn` tells (an offset on one of the two makes
 * their order depend on the engine's time zone).
 */
export const ReturnSchema = z.object({
  return_id: IdSchema,
  transaction_id: IdSchema,
  date: DateTimeSchema,
  amount: TransactionAmountSchema.optional(),
  reported_at: DateTimeSchema.optional(),
});

/** History transaction: `description`, `merchant.id`, `merchant.category_code`, `location` optional. @public */
export const HistoryTransactionSchema = z.object({
  transaction_id: IdSchema,
  description: text().optional(),
  customer_id: IdSchema,
  date: DateTimeSchema,
  amount: TransactionAmountSchema,
  merchant: z.object({
    id: text().optional(),
    name: nonBlankText(),
    category_code: text().optional(),
  }),
  location: LocationSchema.optional(),
});

/** Audience of an offer (extension): everyone, first-time or returning customers of the merchant. @public */
export const AudienceSchema = z.enum(['all', 'new', 'returning']);

/** A number of days in an offer (`warranty`, `lookback_days`): a whole number from 0 to 36,500. */
function wholeDays() {
  return z
    .number()
    .int('must be a whole number')
    .min(0, 'must be at least 0')
    .max(36_500, 'must be at most 36500');
}

const JSON_VALUE = z.json();
const METADATA_JSON =
  'must hold JSON values only (strings, finite numbers, booleans, null, lists, objects)';

/** The period of a budget or a cap (docs/concepts.md, Funding controls). @public */
export const FundingPeriodSchema = z.enum(['offer', 'day', 'week', 'month']);

/** An offer's budget: what its payments in one period add up to at most. @public */
export const BudgetSchema = z.object({
  amount: AmountSchema,
  period: FundingPeriodSchema.optional(),
  /**
   * What a budget does with a payment larger than what is left of it (docs/concepts.md, Budget
   * exhaustion): `partial` pays what is left, `skip` lets the offer fail its `budget` check.
   */
  on_exhaust: z.enum(['partial', 'skip']).optional(),
});

/** A per-customer cap of an offer: an amount, a count of payments, or both, per period. @public */
export const CustomerCapSchema = z
  .object({
    amount: AmountSchema.optional(),
    count: z
      .number()
      .int('must be a whole number')
      .positive('must be greater than 0')
      .max(Number.MAX_SAFE_INTEGER, 'must be a safe integer')
      .optional(),
    period: FundingPeriodSchema,
  })
  .refine((c) => c.amount !== undefined || c.count !== undefined, {
    message: 'must have an amount, a count or both',
  });

/** An offer id: a positive safe integer. @public */
export const OfferIdSchema = z
  .number()
  .int('must be a whole number')
  .positive('must be greater than 0')
  .max(Number.MAX_SAFE_INTEGER, 'must be a safe integer');

/** Most characters of an offer id written as decimal digits (leading zeros count). */
export const OFFER_ID_TEXT_DIGITS = 16;

/** An offer id written as decimal digits, read as the number it writes. */
export const OFFER_ID_TEXT = new RegExp(`^[0-9]{1,${OFFER_ID_TEXT_DIGITS}}$`);

/**
 * An activation's offer id as a string (CSV and Parquet files give every cell as text): decimal
 * digits, which must then write an {@link OfferIdSchema}.
 */
export const OfferIdTextSchema = z.string().regex(OFFER_ID_TEXT, 'must be a whole number');

/** Offer with `active` and the extensions (docs/concepts.md, Offers). @public */
export const OfferSchema = z
  .object({
    offer_id: OfferIdSchema,
    name: z.string(),
    merchant_name: z.string().trim().min(1, 'must not be empty'),
    merchant_logo: z.url().optional(),
    warranty: wholeDays(),
    age: z.array(z.string()).optional(),
    gender: z.array(z.string()).optional(),
    category_name: z.string().optional(),
    discount: AmountSchema.refine((v) => !overHundred(v), 'must be at most 100'),
    valid_from: DaySchema,
    valid_to: DaySchema,
    active: z.boolean().optional(),
    min_amount: AmountSchema.optional(),
    max_cashback: AmountSchema.optional(),
    audience: AudienceSchema.optional(),
    lookback_days: wholeDays().optional(),
    conditions: z.unknown().optional(),
    requires_activation: z.boolean().optional(),
    budget: BudgetSchema.optional(),
    customer_cap: CustomerCapSchema.optional(),
    // The operator's own data: kept and reported, never read (docs/concepts.md, Offers).
    metadata: z
      .record(z.string(), z.unknown(), 'must be an object')
      .refine((m) => JSON_VALUE.safeParse(m).success, METADATA_JSON)
      .optional(),
  })
  .refine((o) => (parseDay(o.valid_from) as number) <= (parseDay(o.valid_to) as number), {
    path: ['valid_to'],
    message: 'must not be before valid_from',
    // Whenever both days are real, even if other fields are wrong: every problem at once.
    when: (payload) => {
      const o = payload.value as { valid_from?: unknown; valid_to?: unknown } | null;
      return isDay(o?.valid_from) && isDay(o?.valid_to);
    },
  });

/**
 * An activation (docs/concepts.md, Activation): a customer opts in to an offer from `date` on
 * (a date-time read as a transaction's; absent: the engine's clock). @public
 */
export const ActivationSchema = z.object({
  customer_id: IdSchema,
  // Also as decimal digits: CSV and Parquet files give every cell as text.
  offer_id: z.union([OfferIdSchema, OfferIdTextSchema.transform(Number).pipe(OfferIdSchema)]),
  date: DateTimeSchema.optional(),
});

function isDay(value: unknown): boolean {
  return typeof value === 'string' && parseDay(value) !== undefined;
}

// The input types of the schemas, written out: a public signature that named
// `z.input<typeof CustomerSchema>` would make the schema a name of the API. The schemas stay the
// record; test/model/inputTypes.test.ts holds each type equal to its schema's input.

/**
 * A location: where a customer lives, or where a transaction was made.
 * @public
 */
export interface Location {
  /** The country, any string the store can keep (docs/concepts.md, Input rules). */
  country: string;
  /** The city, any string the store can keep. */
  city: string;
}

/**
 * The merchant of a submitted transaction.
 * @public
 */
export interface Merchant {
  /** The partner's id of the merchant. */
  id: string;
  /** The merchant's name, not blank: offers match it by its key (`merchantKey`). */
  name: string;
  /** The merchant's category code. */
  category_code: string;
}

/**
 * A customer as sent: all four fields required (docs/concepts.md, Input rules).
 * @public
 */
export interface CustomerInput {
  /** The customer's id: 1 to 128 characters once trimmed. */
  customer_id: string;
  /** A real date `YYYY-MM-DD`. */
  birthday: string;
  /** Any string that is not blank. */
  gender: string;
  /** Where the customer lives. */
  location: Location;
}

/**
 * A submitted transaction as sent: all seven fields required (docs/concepts.md, Input rules).
 * @public
 */
export interface TransactionInput {
  /** The transaction's id: 1 to 128 characters once trimmed, unique with history's ids. */
  transaction_id: string;
  /** A description, possibly empty. */
  description: string;
  /** The id of a registered customer. */
  customer_id: string;
  /** `YYYY-MM-DDTHH:mm:ss[.fff]`, with an optional `Z` or `±HH[:MM]` offset. */
  date: string;
  /** A number above 0, or a plain decimal string; at most 10^12. */
  amount: string | number;
  /** Where the transaction was made. */
  merchant: Merchant;
  /** Where the transaction was made. */
  location: Location;
}

/**
 * A history transaction as sent: `description`, `merchant.id`, `merchant.category_code` and
 * `location` optional (docs/concepts.md, Input rules).
 * @public
 */
export interface HistoryTransactionInput {
  /** The transaction's id, as a submitted transaction's. */
  transaction_id: string;
  /** A description. */
  description?: string;
  /** The id of a registered customer. */
  customer_id: string;
  /** A date-time, as a submitted transaction's. */
  date: string;
  /** An amount, as a submitted transaction's. */
  amount: string | number;
  /** The merchant: its name required. */
  merchant: {
    id?: string;
    name: string;
    category_code?: string;
  };
  /** Where the transaction was made. */
  location?: Location;
}

/**
 * An offer as loaded, extensions included (docs/concepts.md, Offers).
 * @public
 */
export interface OfferInput {
  /** A positive safe integer, unique within a load. */
  offer_id: number;
  /** The offer's name. */
  name: string;
  /** The merchant it pays at, matched by its key (`merchantKey`). */
  merchant_name: string;
  /** A URL of the merchant's logo. */
  merchant_logo?: string;
  /** Days from the transaction to the payment: a whole number from 0 to 36,500. */
  warranty: number;
  /** Age bands (`18-25`, `50+`); absent, any age. */
  age?: string[];
  /** Genders; absent, any gender. */
  gender?: string[];
  /** The category's name. */
  category_name?: string;
  /** The percentage paid back: above 0, at most 100; a number or a plain decimal string. */
  discount: string | number;
  /** The first day, `YYYY-MM-DD`. */
  valid_from: string;
  /** The last day, `YYYY-MM-DD`, not before `valid_from`. */
  valid_to: string;
  /** Whether the offer pays at all. @defaultValue `true` */
  active?: boolean;
  /** The smallest transaction amount that qualifies, inclusive. */
  min_amount?: string | number;
  /** The most cashback one transaction earns. */
  max_cashback?: string | number;
  /** Everyone, or only new or returning customers of the merchant. @defaultValue `'all'` */
  audience?: 'all' | 'new' | 'returning';
  /** The window of `audience` and of the history facts, in days. @defaultValue `365` */
  lookback_days?: number;
  /** A condition tree (docs/concepts.md, The condition language). */
  conditions?: unknown;
  /** Whether only customers who activated the offer qualify. @defaultValue `false` */
  requires_activation?: boolean;
  /** The most the offer's payments in one period add up to. */
  budget?: {
    amount: string | number;
    period?: 'offer' | 'day' | 'week' | 'month';
    /** `partial` pays what is left of it, `skip` fails the check. @defaultValue `'partial'` */
    on_exhaust?: 'partial' | 'skip';
  };
  /** The most one customer's payments of the offer in one period add up to and number. */
  customer_cap?: {
    period: 'offer' | 'day' | 'week' | 'month';
    amount?: string | number;
    count?: number;
  };
  /** Data of your own (JSON values): stored and reported, never read by the engine. */
  metadata?: Record<string, unknown>;
}

/**
 * An offer as loaded and as the engine reports it and a store keeps it (docs/concepts.md, Offers):
 * the offer's fields with `active` filled in, and the extensions.
 * @public
 */
export type Offer = Omit<OfferInput, 'active'> & { readonly active: boolean };

/** An activation as sent. @public */
export type ActivationInput = z.input<typeof ActivationSchema>;
