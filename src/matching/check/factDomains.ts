import { merchantKey, normaliseGender } from '../../model/normalise.js';
import type { CompiledOffer } from '../offer.js';

/** The values a number fact can take for transactions an offer's other checks let through. */
export interface NumberDomain {
  readonly kind: 'number';
  /** Inclusive ranges, whose union is the domain (`max` may be `Infinity`). */
  readonly ranges: readonly {
    readonly min: number;
    readonly minIn: boolean;
    readonly max: number;
  }[];
  readonly integer: boolean;
  readonly canBeUndefined: boolean;
}

/** The values a string fact can take: those in `oneOf` (any when absent) that `accepts`. */
export interface StringDomain {
  readonly kind: 'string';
  readonly oneOf: readonly string[] | undefined;
  readonly accepts: (value: string) => boolean;
}

export type Domain = NumberDomain | StringDomain;

const whole = (min: number, max: number): NumberDomain => ({
  kind: 'number',
  ranges: [{ min, minIn: true, max }],
  integer: true,
  canBeUndefined: false,
});

/**
 * Whether a transaction at a merchant key can qualify for an offer: its merchant's for a
 * merchant-bound offer; for a scoped one, a name it does not exclude, and one it lists when it
 * lists neither ids nor category codes (which any name may have).
 */
function namePossible(offer: CompiledOffer, key: string): boolean {
  const scope = offer.scope;
  if (scope === undefined) return key === offer.merchantKey;
  if (scope.exclude.has(key)) return false;
  return scope.merchantIds.size + scope.mcc.size > 0 || scope.merchants.has(key);
}

/**
 * The domain of each fact for an offer: the schema's ranges (an hour is 0–23) narrowed by the
 * offer's own fields (`min_amount`, `age`, `gender`, `audience`, `merchant_name` or `scope`). Facts not
 * listed take any value of their type.
 */
export function factDomains(offer: CompiledOffer): ReadonlyMap<string, Domain> {
  const min = offer.minAmount === undefined ? 0 : Number(offer.minAmount.text);
  const audience = offer.audience;
  const lookback = offer.lookbackDays;
  const domains = new Map<string, Domain>([
    [
      'transaction.amount',
      {
        kind: 'number',
        ranges: [{ min, minIn: offer.minAmount !== undefined, max: Infinity }],
        integer: false,
        canBeUndefined: false,
      },
    ],
    ['transaction.hour', whole(0, 23)],
    ['transaction.weekday', whole(1, 7)],
    [
      'customer.age',
      {
        kind: 'number',
        ranges:
          offer.ageBands.length === 0
            ? [{ min: 0, minIn: true, max: Infinity }]
            : offer.ageBands.map((b) => ({ min: b.min, minIn: true, max: b.max })),
        integer: true,
        canBeUndefined: false,
      },
    ],
    [
      'customer.gender',
      {
        kind: 'string',
        oneOf: offer.genders.length === 0 ? undefined : offer.genders,
        accepts: (g) => normaliseGender(g) === g,
      },
    ],
    [
      'transaction.merchant.name',
      { kind: 'string', oneOf: undefined, accepts: (n) => namePossible(offer, merchantKey(n)) },
    ],
    [
      'history.merchant_purchases',
      audience === 'new' ? whole(0, 0) : whole(audience === 'returning' ? 1 : 0, Infinity),
    ],
    [
      'history.merchant_spend',
      {
        kind: 'number',
        ranges: [
          audience === 'new'
            ? { min: 0, minIn: true, max: 0 }
            : { min: 0, minIn: audience !== 'returning', max: Infinity },
        ],
        integer: false,
        canBeUndefined: false,
      },
    ],
    [
      'history.days_since_last_merchant_purchase',
      {
        kind: 'number',
        ranges: audience === 'new' ? [] : [{ min: 0, minIn: true, max: lookback }],
        integer: true,
        canBeUndefined: audience !== 'returning',
      },
    ],
  ]);
  return domains;
}
