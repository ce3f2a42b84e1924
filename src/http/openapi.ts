import { z } from 'zod';
import { ERROR_CODES, type ReturnErrorCode } from '../model/errors.js';
import {
  ActivationSchema,
  CustomerSchema,
  DateTimeSchema,
  DaySchema,
  FundingPeriodSchema,
  HistoryTransactionSchema,
  IdSchema,
  OfferIdTextSchema,
  OfferSchema,
  ReturnSchema,
  TransactionAmountSchema,
  TransactionSchema,
} from '../model/schemas.js';
import { offerIdTextJsonSchema, transactionAmountJsonSchema } from './boundPatterns.js';
import { STATUS } from './errors.js';

// The OpenAPI document is generated from zod schemas: the request schemas are the model's own
// (the schema of record for validation), the response schemas below describe exactly what the
// routes send (strict objects: a field docs/http.md does not name would fail the response tests).

/** `info.version` of the document: the package version (a test keeps them equal). */
const OPENAPI_VERSION = '0.1.0';

const ErrorMapSchema = z.record(z.string(), z.string());

const SeedPaymentSchema = z.strictObject({
  cashback: z.number(),
  payment_date: DaySchema,
  transaction_id: z.string(),
});

const TransactionsResponseSchema = z
  .array(
    z.strictObject({
      event_id: z.string(),
      payments: z.array(SeedPaymentSchema),
      errors: ErrorMapSchema,
    }),
  )
  .length(1);

const AdjustmentSchema = z.strictObject({
  return_id: z.string(),
  transaction_id: z.string(),
  customer_id: z.string(),
  offer_id: z.int().min(1),
  previous_cashback: z.number(),
  cashback: z.number(),
  payment_date: DaySchema,
});

/** A wall-clock date-time as records give it back: `YYYY-MM-DDTHH:mm:ss.SSS`, no offset. */
const WallClockSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);

/** An instant the engine's clock stamped: ISO 8601 in UTC. */
const InstantSchema = z.iso.datetime();

const ClawbackSchema = z.strictObject({
  return_id: z.string(),
  transaction_id: z.string(),
  customer_id: z.string(),
  offer_id: z.int().min(1),
  offer_revision: z.int().min(1),
  amount: z.number().min(0),
  date: WallClockSchema,
  reported_at: WallClockSchema,
});

const ReturnsResponseSchema = z
  .array(
    z.strictObject({
      event_id: z.string(),
      adjustments: z.array(AdjustmentSchema),
      clawbacks: z.array(ClawbackSchema),
      errors: ErrorMapSchema,
    }),
  )
  .length(1);

const HistoryResponseSchema = z
  .array(z.strictObject({ event_id: z.string(), errors: ErrorMapSchema }))
  .length(1);

const CustomersResponseSchema = z.strictObject({
  Added: z.int().min(0),
  Updated: z.int().min(0),
  Errors: ErrorMapSchema,
});

/** A payment's status as of the engine's clock (docs/concepts.md, The lifecycle of a payment). */
const PaymentStatusSchema = z.enum(['pending', 'confirmed', 'cancelled']);

/** The statuses a listing shows and filters on: payments at 0 (cancelled) are never listed. */
const ListedStatusSchema = z.enum(['pending', 'confirmed']);

const CashbackPaymentRecordSchema = z.strictObject({
  transaction_id: z.string(),
  country: z.string(),
  city: z.string(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}T00:00:00\.000$/),
  cashback_amount: z.number(),
  offer_id: z.int().min(1),
  customer_id: z.string(),
  offer_revision: z.int().min(1),
  status: ListedStatusSchema,
});

const PaymentsPageSchema = z.strictObject({
  total_count: z.int().min(0),
  current_page: z.int().min(1),
  page_size: z.int().min(1),
  date_from: DaySchema,
  date_to: DaySchema,
  transactions: z.array(CashbackPaymentRecordSchema),
});

const ClawbacksPageSchema = z.strictObject({
  total_count: z.int().min(0),
  current_page: z.int().min(1),
  page_size: z.int().min(1),
  date_from: DaySchema,
  date_to: DaySchema,
  clawbacks: z.array(ClawbackSchema),
});

const HistoryEntrySchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('adjustment'),
    return_id: z.string(),
    previous_cashback: z.number(),
    cashback: z.number(),
    recorded_at: InstantSchema,
  }),
  z.strictObject({
    kind: z.literal('clawback'),
    recorded_at: InstantSchema,
    ...ClawbackSchema.shape,
  }),
]);

const PaymentHistorySchema = z.strictObject({
  transaction_id: z.string(),
  customer_id: z.string(),
  offer_id: z.int().min(1),
  offer_revision: z.int().min(1),
  decided_cashback: z.number(),
  cashback: z.number(),
  clawed_back: z.number().min(0),
  payment_date: DaySchema,
  status: PaymentStatusSchema,
  changes: z.array(HistoryEntrySchema),
});

const TokenResponseSchema = z.strictObject({ Token: z.string() });

const HealthSchema = z.strictObject({ status: z.literal('ok') });

const ErrorBodySchema = z.strictObject({
  error: z.strictObject({
    code: z.enum(Object.keys(STATUS) as [keyof typeof STATUS, ...(keyof typeof STATUS)[]]),
    message: z.string(),
    details: z.array(z.strictObject({ path: z.string(), message: z.string() })),
  }),
});

/** A page input on the wire: a whole number in decimal digits. */
const PageInputSchema = z.string().regex(/^[0-9]+$/);

type JsonSchema = Record<string, unknown>;

/** Replaces every keyword of `target` with those of `source`. */
function replaceKeywords(target: JsonSchema, source: JsonSchema): void {
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, source);
}

/**
 * JSON Schema 2020-12 (OpenAPI 3.1's dialect) of a zod schema, formats of days and times added,
 * and the bounds that zod's refinements check written as patterns and maximums.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: (ctx) => {
      if (ctx.zodSchema === TransactionAmountSchema) {
        replaceKeywords(ctx.jsonSchema, transactionAmountJsonSchema());
      } else if (ctx.zodSchema === OfferIdTextSchema) {
        replaceKeywords(ctx.jsonSchema, offerIdTextJsonSchema());
      } else if (ctx.zodSchema === InstantSchema) {
        // zod writes its own long pattern; the format says the same to every reader.
        replaceKeywords(ctx.jsonSchema, { type: 'string', format: 'date-time' });
      } else if (ctx.zodSchema === DaySchema) {
        ctx.jsonSchema.format = 'date';
        ctx.jsonSchema.pattern = '^\\d{4}-\\d{2}-\\d{2}$';
      } else if (ctx.zodSchema === DateTimeSchema) {
        ctx.jsonSchema.pattern =
          '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}(:?\\d{2})?)?$';
      }
    },
  }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** An object schema of exactly these properties, the `required` ones required. */
function exactly(properties: Record<string, unknown>, required: readonly string[]): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** A reward as listed (the engine's `SeedReward`): each shape, amounts and rates as numbers. */
function rewardResponseSchema(amount: JsonSchema): JsonSchema {
  const rate = jsonSchema(z.number().min(0).max(100), 'output');
  const from = jsonSchema(z.number().min(0), 'output');
  return {
    oneOf: [
      exactly({ type: { const: 'percent' }, rate, max_eligible_amount: amount }, ['type', 'rate']),
      exactly({ type: { const: 'fixed' }, amount }, ['type', 'amount']),
      exactly(
        {
          type: { const: 'tiers' },
          mode: { type: 'string', enum: ['whole', 'marginal'] },
          tiers: {
            type: 'array',
            minItems: 1,
            maxItems: 20,
            items: exactly({ from, rate }, ['from', 'rate']),
          },
        },
        ['type', 'mode', 'tiers'],
      ),
    ],
  };
}

/**
 * An offer as listed (the engine's `SeedOffer`): the model's offer with `active`, `age` and
 * `gender` always present and the amounts as JSON numbers only.
 */
function offerResponseSchema(): JsonSchema {
  const s = jsonSchema(OfferSchema, 'input');
  const amount = jsonSchema(z.number().positive(), 'output');
  const properties = s.properties as Record<string, JsonSchema>;
  const period = jsonSchema(FundingPeriodSchema, 'output');
  const budget = {
    type: 'object',
    properties: { amount, period },
    required: ['amount', 'period'],
    additionalProperties: false,
  };
  const customerCap = {
    type: 'object',
    properties: { amount, count: jsonSchema(z.number().int().positive(), 'output'), period },
    required: ['period'],
    additionalProperties: false,
  };
  return {
    ...s,
    properties: {
      ...properties,
      discount: amount,
      reward: rewardResponseSchema(amount),
      min_amount: amount,
      max_cashback: amount,
      budget,
      customer_cap: customerCap,
    },
    required: [...((s.required as string[]) ?? []), 'age', 'gender', 'active'],
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });

const ERROR_TEXT: Readonly<Record<number, string>> = {
  400: 'Malformed JSON, a body that is not an array or that broke off, or a bad query',
  401: 'No valid token (or, at /get-token, bad credentials)',
  404: 'No such route',
  405: 'The path exists with another method',
  413: 'The body is over the byte limit, the array over the item limit, or the nesting too deep',
  415: 'The body is not declared as application/json',
  429: 'Too many token requests; see Retry-After',
  500: 'The server failed; no internals are disclosed',
  503:
    'Not now, see Retry-After: the store refused the whole call and kept nothing ' +
    '(storage_full, store_unavailable; unless the message says the connection was lost while ' +
    'the request was being stored: then it may have been stored whole, and sending it again is ' +
    'safe), or too many key checks are in progress (busy)',
};

/** The header every response carries (hono's request-id middleware). */
const REQUEST_ID_HEADER = {
  'X-Request-Id': {
    description:
      "The request's id, also in the server's log: the request's own X-Request-Id when it is at " +
      'most 255 characters of letters, digits, `_`, `-` and `=`, else a new UUID',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_=-]+$' },
  },
};

/** A 200 response with a JSON body. */
function ok(description: string, schema: object): object {
  return { description, headers: REQUEST_ID_HEADER, content: json(schema) };
}

function errors(...statuses: number[]): Record<string, object> {
  return errorsSaying({}, ...statuses);
}

/** Error responses, with descriptions of this route's own where `texts` has them. */
function errorsSaying(
  texts: Readonly<Record<number, string>>,
  ...statuses: number[]
): Record<string, object> {
  const out: Record<string, object> = {};
  for (const s of statuses) {
    const headers: Record<string, object> = { ...REQUEST_ID_HEADER };
    if (s === 429 || s === 503) {
      headers['Retry-After'] = {
        description: 'Seconds to wait',
        required: true,
        schema: { type: 'integer', minimum: 1 },
      };
    }
    if (s === 405) {
      headers.Allow = {
        description: 'The allowed methods',
        required: true,
        schema: { type: 'string' },
      };
    }
    out[String(s)] = {
      description: texts[s] ?? ERROR_TEXT[s],
      headers,
      content: json(ref('Error')),
    };
  }
  return out;
}

const GET_ERRORS = [401, 404, 405, 500, 503];
const POST_ERRORS = [400, 401, 404, 405, 413, 415, 500, 503];

function batch(item: string, description: string, result: string, resultText: string) {
  return {
    requestBody: {
      required: true,
      description,
      content: json({ type: 'array', items: ref(item) }),
    },
    responses: {
      '200': ok(resultText, ref(result)),
      ...errors(...POST_ERRORS),
    },
  };
}

/** One input of a listing, read from the query string or else a header of the same name. */
type ListingInput = [name: string, schema: JsonSchema, description: string];

/**
 * The inputs of a listing paged as payments are: the range of `day` (`payment` or `return`), the
 * page, and any `extra` inputs, each as a query and as a header parameter.
 */
function pageParameters(day: string, items: string, extra: ListingInput[] = []): object[] {
  const inputs: ListingInput[] = [
    ['date_from', jsonSchema(DaySchema, 'input'), `First ${day} day, inclusive (required)`],
    ['date_to', jsonSchema(DaySchema, 'input'), `Last ${day} day, inclusive (required)`],
    ['current_page', jsonSchema(PageInputSchema, 'input'), 'Page number from 1 (default 1)'],
    ['page_size', jsonSchema(PageInputSchema, 'input'), `${items} per page, 1–1000 (default 100)`],
    ...extra,
  ];
  return inputs.flatMap(([name, schema, description]) => [
    { name, in: 'query', required: false, schema, description },
    {
      name,
      in: 'header',
      required: false,
      schema,
      description: `${description}; read when the query string lacks it`,
    },
  ]);
}

/**
 * A return as sent: the model's schema, with what its fields mean where a pattern cannot say it
 * (`reported_at` is read, and refused when malformed or before `date`, but the engine goes by its
 * own clock).
 */
function returnRequestSchema(): JsonSchema {
  const s = jsonSchema(ReturnSchema, 'input');
  const properties = s.properties as Record<string, JsonSchema>;
  properties.reported_at = {
    ...properties.reported_at,
    description:
      'When the return arrived, in the format of date and not before it; a malformed one is ' +
      'invalid_return. The server judges lateness by its own clock, the moment it receives ' +
      'the return: reported_at is for replays of files (docs/concepts.md, Late returns)',
  };
  return s;
}

/** The codes a return that adjusts nothing can get, in the order their checks run. */
const RETURN_ERROR_CODES = [
  'invalid_return',
  'duplicate_return',
  'transaction_not_found',
  'return_exceeds_amount',
  'not_paid',
  'after_warranty',
  'late_return',
] as const satisfies readonly ReturnErrorCode[];

/** What each per-item code of a return means, for the description of `POST /returns`. */
function returnErrorText(): string {
  return RETURN_ERROR_CODES.map((code) => `\`${code}\`: ${ERROR_CODES[code]}`).join(' ');
}

/** The schemas of `components`: the requests' from the model, the responses' from above. */
function componentSchemas(): Record<string, JsonSchema> {
  return {
    Customer: jsonSchema(CustomerSchema, 'input'),
    Activation: jsonSchema(ActivationSchema, 'input'),
    Transaction: jsonSchema(TransactionSchema, 'input'),
    HistoryTransaction: jsonSchema(HistoryTransactionSchema, 'input'),
    Return: returnRequestSchema(),
    Offer: offerResponseSchema(),
    Payment: jsonSchema(SeedPaymentSchema, 'output'),
    CashbackPaymentRecord: jsonSchema(CashbackPaymentRecordSchema, 'output'),
    TransactionsResult: jsonSchema(TransactionsResponseSchema, 'output'),
    Adjustment: jsonSchema(AdjustmentSchema, 'output'),
    Clawback: jsonSchema(ClawbackSchema, 'output'),
    ReturnsResult: jsonSchema(ReturnsResponseSchema, 'output'),
    HistoryResult: jsonSchema(HistoryResponseSchema, 'output'),
    CustomersResult: jsonSchema(CustomersResponseSchema, 'output'),
    ActivationsResult: jsonSchema(CustomersResponseSchema, 'output'),
    PaymentsPage: jsonSchema(PaymentsPageSchema, 'output'),
    ClawbacksPage: jsonSchema(ClawbacksPageSchema, 'output'),
    PaymentHistory: jsonSchema(PaymentHistorySchema, 'output'),
    Token: jsonSchema(TokenResponseSchema, 'output'),
    Health: jsonSchema(HealthSchema, 'output'),
    Error: jsonSchema(ErrorBodySchema, 'output'),
  };
}

/** The path of `routes/tokens.ts`. */
function tokenPaths(): Record<string, object> {
  return {
    '/get-token': {
      get: {
        operationId: 'getToken',
        summary: 'Get token',
        security: [],
        parameters: [
          { name: 'applicationId', in: 'header', required: true, schema: { type: 'string' } },
          { name: 'applicationKey', in: 'header', required: true, schema: { type: 'string' } },
        ],
        responses: {
          '200': ok('A token for the Token header', ref('Token')),
          ...errors(401, 404, 405, 429, 500, 503),
        },
      },
    },
  };
}

/** The paths of `routes/batches.ts`, in the order they are mounted. */
function batchPaths(): Record<string, object> {
  const customers = () =>
    batch('Customer', 'Customers', 'CustomersResult', 'Counts and per-item errors');
  return {
    '/transactions-history': {
      post: {
        operationId: 'addTransactionsHistory',
        summary: 'Add transactions history',
        ...batch(
          'HistoryTransaction',
          'History transactions',
          'HistoryResult',
          'One result: an error per item not stored',
        ),
      },
    },
    '/customers/': {
      post: { operationId: 'addCustomers', summary: 'Add customers', ...customers() },
    },
    '/customers': {
      post: {
        operationId: 'addCustomersNoSlash',
        summary: 'Add customers, path without the slash',
        ...customers(),
      },
    },
    '/activations': {
      post: {
        operationId: 'addActivations',
        summary: 'Activate offers for customers (opt-in); date defaults to the server clock',
        ...batch(
          'Activation',
          'Activations: customer_id, offer_id, optional date',
          'ActivationsResult',
          'Counts (a pair activated before counts as updated, unchanged) and per-item errors',
        ),
      },
    },
    '/transactions': {
      post: {
        operationId: 'addTransactions',
        summary: 'Add transactions',
        ...batch(
          'Transaction',
          'Transactions to decide, all seven fields each',
          'TransactionsResult',
          'One result: payments, and an error per transaction that earns nothing',
        ),
      },
    },
    '/returns': {
      post: {
        operationId: 'addReturns',
        summary: 'Add returns',
        description:
          'Returns of stored transactions. One dated before the payment day that arrives ' +
          'before it lowers the payment (an adjustment; 0 cancels it); one that arrives once ' +
          'the payment is confirmed (from the start of its payment day, by the server clock) ' +
          'leaves it as it is and is recorded as a clawback, or, when the server ignores late ' +
          'returns, is answered late_return; one dated on or after the payment day leaves the ' +
          `cashback standing. Per-item codes, each message in errors: ${returnErrorText()}`,
        ...batch(
          'Return',
          'Returns; amount absent returns all that is not yet returned',
          'ReturnsResult',
          'One result: an adjustment per return that lowered a payment, a clawback per late ' +
            'return, and an error per other return',
        ),
      },
    },
  };
}

/** The paths of `routes/payments.ts`, in the order they are mounted. */
function paymentPaths(): Record<string, object> {
  const status: ListingInput = [
    'status',
    jsonSchema(ListedStatusSchema, 'input'),
    'Only the payments pending (payment day not begun) or only the confirmed ones, by the ' +
      'server clock (default: both); another value is a 400',
  ];
  return {
    '/cashback-payments': {
      get: {
        operationId: 'getCashbackPayments',
        summary: 'Get cashback payments',
        description:
          'Each input is read from the query string, or else from a header of the same name. ' +
          'Each payment shows its current cashback and its status as of the server clock; ' +
          'payments at 0 are left out.',
        parameters: pageParameters('payment', 'Payments', [status]),
        responses: {
          '200': ok('A page of payments', ref('PaymentsPage')),
          ...errors(400, ...GET_ERRORS),
        },
      },
    },
    '/clawbacks': {
      get: {
        operationId: 'getClawbacks',
        summary: 'Get clawbacks',
        description:
          'The clawbacks of late returns (returns that arrived once their payment was ' +
          "confirmed) whose return day lies in the range, by the return's day, then return_id. " +
          'Each input is read from the query string, or else from a header of the same name.',
        parameters: pageParameters('return', 'Clawbacks'),
        responses: {
          '200': ok('A page of clawbacks', ref('ClawbacksPage')),
          ...errors(400, ...GET_ERRORS),
        },
      },
    },
    '/payments/{transaction_id}/history': {
      get: {
        operationId: 'getPaymentHistory',
        summary: "Get a payment's history",
        description:
          'The payment of a transaction as decided (cashback, offer, revision), then each ' +
          'adjustment and clawback in the order recorded. Percent-encode the id.',
        parameters: [
          {
            name: 'transaction_id',
            in: 'path',
            required: true,
            schema: jsonSchema(IdSchema, 'input'),
            description: 'The paid transaction (trimmed, as transaction ids are)',
          },
        ],
        responses: {
          '200': ok('The payment and its changes', ref('PaymentHistory')),
          ...errorsSaying(
            {
              400:
                'The transaction id cannot be one: blank, over 128 characters, or holding ' +
                'U+0000 or an unpaired surrogate (invalid_query)',
              404: 'The partner has no payment of this transaction (payment_not_found), or no such route',
            },
            400,
            ...GET_ERRORS,
          ),
        },
      },
    },
  };
}

/** The path of `routes/offers.ts`. */
function offerPaths(): Record<string, object> {
  return {
    '/active-offers': {
      get: {
        operationId: 'getActiveOffers',
        summary: 'Get all active offers',
        responses: {
          '200': ok('Active offers not yet expired, by offer_id', {
            type: 'array',
            items: ref('Offer'),
          }),
          ...errors(...GET_ERRORS),
        },
      },
    },
  };
}

/** The paths of `routes/meta.ts`, open without a token. */
function metaPaths(): Record<string, object> {
  return {
    '/openapi.json': {
      get: {
        operationId: 'getOpenApi',
        summary: 'This document',
        security: [],
        responses: {
          '200': ok('The OpenAPI 3.1 document', { type: 'object' }),
          ...errors(404, 405, 500),
        },
      },
    },
    '/healthz': {
      get: {
        operationId: 'getHealth',
        summary: 'Liveness',
        security: [],
        responses: {
          '200': ok('The server is up', ref('Health')),
          ...errors(404, 405, 500),
        },
      },
    },
  };
}

/**
 * The OpenAPI 3.1 document of the partner API, generated from the zod schemas; the app serves it
 * at `GET /openapi.json` and `docs/openapi.json` holds a copy.
 * @returns the document, a plain JSON object
 * @public
 */
export function openApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'cashback-engine partner API',
      version: OPENAPI_VERSION,
      description:
        'The cashback service interface: tokens, customers, history, transactions, returns, ' +
        "payments, clawbacks, payments' histories and offers.",
    },
    components: {
      securitySchemes: { Token: { type: 'apiKey', in: 'header', name: 'Token' } },
      schemas: componentSchemas(),
    },
    security: [{ Token: [] }],
    // In the order of the routes in app.ts; the committed copy is compared byte for byte.
    paths: {
      ...tokenPaths(),
      ...batchPaths(),
      ...paymentPaths(),
      ...offerPaths(),
      ...metaPaths(),
    },
  };
}
