type Json = Record<string, unknown>;

/** One way to make a valid item invalid; `n` picks among its variants. */
export interface Corruption {
  readonly name: string;
  readonly apply: (item: Json, n: number) => unknown;
}

function pick<T>(list: readonly T[], n: number): T {
  return list[n % list.length] as T;
}

/** Removes the field at a dotted path. */
function without(item: Json, path: string): Json {
  const copy = structuredClone(item);
  const steps = path.split('.');
  let target: Json = copy;
  for (const step of steps.slice(0, -1)) target = target[step] as Json;
  delete target[steps[steps.length - 1] as string];
  return copy;
}

function withField(item: Json, path: string, value: unknown): Json {
  const copy = structuredClone(item);
  const steps = path.split('.');
  let target: Json = copy;
  for (const step of steps.slice(0, -1)) target = target[step] as Json;
  target[steps[steps.length - 1] as string] = value;
  return copy;
}

const NOT_OBJECTS: readonly unknown[] = [null, 42, 'tx', [], true];

/** Transaction corruptions; `required` names the fields whose absence is an error. */
export function transactionCorruptions(required: readonly string[]): readonly Corruption[] {
  return [
    { name: 'not an object', apply: (_, n) => pick(NOT_OBJECTS, n) },
    { name: 'missing field', apply: (t, n) => without(t, pick(required, n)) },
    {
      name: 'impossible date',
      apply: (t, n) =>
        withField(
          t,
          'date',
          pick(
            [
              '2025-02-30T10:00:00',
              '2024-04-31T08:15:00Z',
              '2025-03-01T24:00:00',
              '2025-03-01 10:00:00',
              '2025-13-01T00:00:00',
            ],
            n,
          ),
        ),
    },
    {
      name: 'negative or zero amount',
      apply: (t, n) => withField(t, 'amount', pick([-5, -0.01, 0, '0.00', '-1.50'], n)),
    },
    {
      name: 'malformed amount',
      apply: (t, n) => withField(t, 'amount', pick(['1e3', '12,50', ' 5', 'abc', true, null], n)),
    },
    {
      name: 'empty merchant name',
      apply: (t, n) => withField(t, 'merchant.name', pick(['', '   '], n)),
    },
    {
      name: 'unusable id',
      apply: (t, n) =>
        withField(
          t,
          n % 2 === 0 ? 'transaction_id' : 'customer_id',
          pick(['', '   ', 'x'.repeat(129), 7], n >> 1),
        ),
    },
    {
      name: 'wrong type',
      apply: (t, n) =>
        withField(t, pick(['date', 'merchant', 'location', 'description'], n), 20250101),
    },
  ];
}

/** Every field a submitted transaction needs. */
export const TRANSACTION_REQUIRED: readonly string[] = [
  'transaction_id',
  'customer_id',
  'description',
  'date',
  'amount',
  'merchant',
  'merchant.id',
  'merchant.name',
  'merchant.category_code',
  'location',
  'location.country',
  'location.city',
];

/** What a history transaction needs. */
export const HISTORY_REQUIRED: readonly string[] = [
  'transaction_id',
  'customer_id',
  'date',
  'amount',
  'merchant',
  'merchant.name',
];

/** Customer corruptions (all four fields are required). */
export const CUSTOMER_CORRUPTIONS: readonly Corruption[] = [
  { name: 'not an object', apply: (_, n) => pick(NOT_OBJECTS, n) },
  {
    name: 'missing field',
    apply: (c, n) =>
      without(
        c,
        pick(
          ['customer_id', 'birthday', 'gender', 'location', 'location.city', 'location.country'],
          n,
        ),
      ),
  },
  {
    name: 'impossible birthday',
    apply: (c, n) =>
      withField(c, 'birthday', pick(['2025-02-30', '1990-13-01', '1990-1-1', '2023-02-29'], n)),
  },
  { name: 'empty gender', apply: (c, n) => withField(c, 'gender', pick(['', '  '], n)) },
  {
    name: 'unusable id',
    apply: (c, n) => withField(c, 'customer_id', pick(['', '  ', 'x'.repeat(129)], n)),
  },
];

/** Applies a corruption chosen by `which` and `n` to an item. */
export function corrupt(
  item: object,
  corruptions: readonly Corruption[],
  which: number,
  n: number,
): unknown {
  return (corruptions[which % corruptions.length] as Corruption).apply(item as Json, n);
}
