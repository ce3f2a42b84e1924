import { z } from 'zod';
import { parseDay } from './day.js';
import { MAX_ID_LENGTH } from './itemKey.js';
import {
  AMOUNT_TOO_LARGE,
  compareExact,
  type ExactAmount,
  overMaxAmount,
  PLAIN_DECIMAL,
  parseAmount,
  parseAmountOrZero,
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

/**
 * Where a card payment was made (docs/concepts.md, Rewards and scopes): on line or at a till.
 * Optional on a transaction; an offer's `channels` requires it. @public
 */
export const ChannelSchema = z.enum(['online', 'in_store']);

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
  channel: ChannelSchema.optional(),
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
  channel: ChannelSchema.optional(),
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
/** A percentage: above 0 and at most 100, a number or a plain decimal string. */
function percentage() {
  return AmountSchema.refine((v) => !overHundred(v), 'must be at most 100');
}

/** An amount that may be 0 (a tier's `from` and `rate`), read by `parseAmountOrZero`. */
const AmountOrZeroSchema = z
  .union([
    z.number().finite('must be a finite number').min(0, 'must be at least 0'),
    z.string().regex(PLAIN_DECIMAL, 'must be a plain decimal string'),
  ])
  .refine((v) => parseAmountOrZero(v) !== TOO_MANY_DIGITS, TOO_MANY_DIGITS);

/**
 * A percentage of the amount, or of the amount up to `max_eligible_amount` (docs/concepts.md,
 * Rewards). `discount: d` is `{ type: 'percent', rate: d }`. @public
 */
export const PercentRewardSchema = z.object({
  type: z.literal('percent'),
  rate: percentage(),
  max_eligible_amount: AmountSchema.optional(),
});

/**
 * A fixed amount per purchase, never more than the purchase's amount (docs/concepts.md, Rewards).
 * At most `scale` decimals, which `compileOffers` checks. @public
 */
export const FixedRewardSchema = z.object({
  type: z.literal('fixed'),
  amount: AmountSchema,
});

/** One tier of a tiered reward: its rate from the amount `from` on. @public */
export const TierSchema = z.object({
  from: AmountOrZeroSchema,
  rate: AmountOrZeroSchema.refine((v) => {
    const a = parseAmountOrZero(v);
    return typeof a === 'string' || !a.decimal.gt(100);
  }, 'must be at most 100'),
});

/** Most tiers of a tiered reward. */
const MAX_TIERS = 20;

/** A valid amount (one the tier schema accepted), or `undefined`. */
function tierAmount(v: unknown): ExactAmount | undefined {
  const a = parseAmountOrZero(v);
  return typeof a === 'string' ? undefined : a;
}

/**
 * The rules over a list of tiers: the first from 0, `from` strictly ascending, some rate above 0.
 * Run whenever the list is a list, whatever else is wrong: every problem at once.
 */
function checkTiers(tiers: unknown, ctx: z.RefinementCtx<unknown>): void {
  if (!Array.isArray(tiers) || tiers.length === 0) return;
  const first = tierAmount((tiers[0] as { from?: unknown } | null)?.from);
  if (first !== undefined && first.units !== 0) {
    ctx.addIssue({ code: 'custom', path: ['tiers', 0, 'from'], message: 'must be 0' });
  }
  let previous = first;
  let paying = false;
  tiers.forEach((tier: unknown, i) => {
    const t = (typeof tier === 'object' && tier !== null ? tier : {}) as Record<string, unknown>;
    const from = tierAmount(t.from);
    const rate = tierAmount(t.rate);
    if (rate !== undefined && !rate.decimal.isZero()) paying = true;
    if (
      i > 0 &&
      from !== undefined &&
      previous !== undefined &&
      compareExact(from, previous) <= 0
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['tiers', i, 'from'],
        message: `must be above the previous tier's from (${previous.text})`,
      });
    }
    previous = from;
  });
  const rates = tiers.map((t) => tierAmount((t as { rate?: unknown } | null)?.rate));
  if (!paying && rates.every((r) => r !== undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: ['tiers'],
      message: 'must have a tier with a rate above 0',
    });
  }
}

/**
 * Rates by tiers of the amount (docs/concepts.md, Rewards): `whole`, the rate of the last tier
 * whose `from` is at most the amount, on the whole amount; `marginal`, each tier's rate on the
 * part of the amount between its `from` and the next tier's. 1 to 20 tiers, `from` strictly
 * ascending from 0, each rate in [0, 100], at least one above 0. @public
 */
export const TiersRewardSchema = z
  .object({
    type: z.literal('tiers'),
    mode: z.enum(['whole', 'marginal']),
    tiers: z
      .array(TierSchema, 'must be a list')
      .min(1, 'must have at least 1 tier')
      .max(MAX_TIERS, `must have at most ${MAX_TIERS} tiers`),
  })
  .superRefine((r, ctx) => checkTiers(r.tiers, ctx), {
    when: (payload) => Array.isArray((payload.value as { tiers?: unknown } | null)?.tiers),
  });

/** The reward shapes, by their `type`. */
const REWARD_TYPES = ['percent', 'fixed', 'tiers'] as const;

/** An offer's reward (docs/concepts.md, Rewards): a percentage, a fixed amount or tiers. @public */
export const RewardSchema = z.discriminatedUnion(
  'type',
  [PercentRewardSchema, FixedRewardSchema, TiersRewardSchema],
  {
    error: (issue) =>
      issue.code === 'invalid_union' && issue.input !== undefined
        ? `must be one of ${REWARD_TYPES.map((t) => `'${t}'`).join(', ')}`
        : undefined,
  },
);

/** A non-blank name of a merchant, kept trimmed (matched by its normalised form). */
function merchantName() {
  return z.string().trim().min(1, 'must not be empty');
}

/** A non-blank code (a merchant id, an MCC), kept and compared exactly as sent. */
function code() {
  return z.string().refine((s) => s.trim().length > 0, 'must not be empty');
}

/**
 * Where an offer pays when it is not at one merchant (docs/concepts.md, Scopes): a transaction is
 * in scope when its normalised merchant name is in `merchants`, or its `merchant.id` in
 * `merchant_ids`, or its `merchant.category_code` in `mcc`, and its name is not in
 * `exclude_merchants`. At least one of the first three is not empty. @public
 */
export const ScopeSchema = z
  .object({
    merchants: z.array(merchantName(), 'must be a list').optional(),
    merchant_ids: z.array(code(), 'must be a list').optional(),
    mcc: z.array(code(), 'must be a list').optional(),
    exclude_merchants: z.array(merchantName(), 'must be a list').optional(),
  })
  .refine(
    (s) => (s.merchants?.length ?? 0) + (s.merchant_ids?.length ?? 0) + (s.mcc?.length ?? 0) > 0,
    'must list at least one merchant, merchant id or mcc',
  );

/** An offer's fields of which it has exactly one, and what each alternative is called. */
const EITHER: readonly (readonly [string, string])[] = [
  ['discount', 'reward'],
  ['merchant_name', 'scope'],
];

/** Exactly one of each pair of {@link EITHER}, on the offer as sent. */
function checkEither(raw: unknown, ctx: z.RefinementCtx<unknown>): void {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return;
  const o = raw as Record<string, unknown>;
  for (const [a, b] of EITHER) {
    if (o[a] !== undefined && o[b] !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [b],
        message: `cannot be given with ${a}: an offer has exactly one of them`,
      });
    } else if (o[a] === undefined && o[b] === undefined) {
      ctx.addIssue({ code: 'custom', path: [a], message: `is required (or ${b})` });
    }
  }
}

/** Offer with `active` and the extensions (docs/concepts.md, Offers). @public */
export const OfferSchema = z
  .object({
    offer_id: OfferIdSchema,
    name: z.string(),
    merchant_name: merchantName().optional(),
    scope: ScopeSchema.optional(),
    channels: z.array(ChannelSchema, 'must be a list').min(1, 'must not be empty').optional(),
    merchant_logo: z.url().optional(),
    warranty: wholeDays(),
    age: z.array(z.string()).optional(),
    gender: z.array(z.string()).optional(),
    category_name: z.string().optional(),
    discount: percentage().optional(),
    reward: RewardSchema.optional(),
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
  })
  // Exactly one of `discount` and `reward`, of `merchant_name` and `scope`: always checked.
  .superRefine((o, ctx) => checkEither(o, ctx), { when: () => true });

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
  /** `online` or `in_store`; an offer with `channels` pays only transactions that give one. */
  channel?: Channel;
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
  /** `online` or `in_store`, as a submitted transaction's. */
  channel?: Channel;
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
  /**
   * The merchant it pays at, matched by its key (`merchantKey`); an offer has this or `scope`.
   */
  merchant_name?: string;
  /** Where it pays when not at one merchant (docs/concepts.md, Scopes); or `merchant_name`. */
  scope?: ScopeInput;
  /** The channels it pays on; absent, every transaction whatever its channel. */
  channels?: Channel[];
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
  /**
   * The percentage paid back: above 0, at most 100; a number or a plain decimal string. An offer
   * has this or `reward`.
   */
  discount?: string | number;
  /** What it pays (docs/concepts.md, Rewards): a percentage, a fixed amount or tiers; or `discount`. */
  reward?: RewardInput;
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
/**
 * An offer's reward as loaded (docs/concepts.md, Rewards): amounts and rates are numbers or plain
 * decimal strings.
 * @public
 */
export type RewardInput =
  | {
      type: 'percent';
      /** The percentage: above 0, at most 100. */
      rate: string | number;
      /** The most of a purchase's amount the rate applies to. */
      max_eligible_amount?: string | number;
    }
  | {
      type: 'fixed';
      /** Paid per purchase, never more than its amount; at most `scale` decimals. */
      amount: string | number;
    }
  | {
      type: 'tiers';
      /** `whole`: the last reached tier's rate on the whole amount; `marginal`: each on its part. */
      mode: 'whole' | 'marginal';
      /** 1 to 20 tiers, `from` strictly ascending from 0, each `rate` from 0 to 100. */
      tiers: { from: string | number; rate: string | number }[];
    };

/**
 * An offer's scope as loaded (docs/concepts.md, Scopes): a transaction is in it when its merchant
 * name, id or category code is listed and its name is not excluded.
 * @public
 */
export interface ScopeInput {
  /** Merchant names, matched as `merchant_name` is. */
  merchants?: string[];
  /** Merchant ids, matched exactly. */
  merchant_ids?: string[];
  /** Merchant category codes, matched exactly. */
  mcc?: string[];
  /** Merchant names never in the scope. */
  exclude_merchants?: string[];
}

/** The channel of a transaction. @public */
export type Channel = 'online' | 'in_store';
