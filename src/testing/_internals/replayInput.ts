import { assertKnownKeys } from '../../model/knownKeys.js';
import { type ExactAmount, parseAmount } from '../../model/money.js';
import { type ResolvedOptions, resolveOptions } from '../../model/options.js';
import { type ParsedTransaction, parseTransaction } from '../../model/parseTransaction.js';
import type { InvariantOptions, ReplayInput, ReplayOutput } from '../invariants/types.js';
import { type RewardTerms, rewardTermsOf } from './rewardTerms.js';

/** A payment as the invariants read it. */
export type ReplayPayment = ReplayOutput['payments'][number];

/** A budget or a customer cap as the invariants read it (docs/concepts.md, Funding controls). */
export interface LimitTerms {
  readonly amount: ExactAmount | undefined;
  readonly count: number | undefined;
  readonly period: 'offer' | 'day' | 'week' | 'month';
}

/** Where an offer pays, as sent: one merchant's name, or a scope's lists. */
export interface PlaceTerms {
  readonly merchantName: string | undefined;
  readonly scope:
    | {
        readonly merchants: readonly string[];
        readonly merchantIds: readonly string[];
        readonly mcc: readonly string[];
        readonly exclude: readonly string[];
      }
    | undefined;
  /** The channels it requires; `undefined`: any. */
  readonly channels: readonly string[] | undefined;
}

/** What the invariants read of an offer. */
interface OfferTerms {
  readonly reward: RewardTerms;
  readonly place: PlaceTerms;
  readonly maxCashback: ExactAmount | undefined;
  readonly warranty: number;
  readonly budget: LimitTerms | undefined;
  readonly customerCap: LimitTerms | undefined;
}

/**
 * What the invariants read from a replay's input, prepared once.
 */
export interface PreparedInput {
  readonly options: ResolvedOptions;
  /** The terms of an `offer_id`. */
  offer(offerId: number): OfferTerms | undefined;
  /** The submitted transaction a payment pays for: the first valid one with its id and customer. */
  paidTransaction(payment: ReplayPayment): ParsedTransaction | undefined;
}

/**
 * The options of `replay`: the invariants read three of them, and accept the others so that the
 * options `replay` was given can be passed as they are.
 */
const REPLAY_OPTION_KEYS: readonly string[] = [
  'timeZone',
  'scale',
  'rounding',
  'currency',
  'operators',
  'maxLatenessDays',
  'asOf',
  'lateReturns',
  'clock',
  'ids',
];

function amountOf(v: unknown): ExactAmount | undefined {
  const a = v === undefined ? undefined : parseAmount(v);
  return typeof a === 'object' ? a : undefined;
}

const PERIODS: readonly LimitTerms['period'][] = ['offer', 'day', 'week', 'month'];

/** A `budget` or `customer_cap` object; `undefined` when absent or not an object. */
function limitOf(v: unknown, defaultPeriod: LimitTerms['period']): LimitTerms | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const { amount, count, period } = v as { amount?: unknown; count?: unknown; period?: unknown };
  return {
    amount: amountOf(amount),
    count: typeof count === 'number' ? count : undefined,
    period: PERIODS.find((p) => p === period) ?? defaultPeriod,
  };
}

/** A list of strings as sent; `[]` for anything else. */
function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Where an offer pays, as sent. */
function placeOf(o: { merchant_name?: unknown; scope?: unknown; channels?: unknown }): PlaceTerms {
  const s = o.scope as Record<string, unknown> | null | undefined;
  return {
    merchantName: typeof o.merchant_name === 'string' ? o.merchant_name : undefined,
    scope:
      typeof s === 'object' && s !== null
        ? {
            merchants: strings(s.merchants),
            merchantIds: strings(s.merchant_ids),
            mcc: strings(s.mcc),
            exclude: strings(s.exclude_merchants),
          }
        : undefined,
    channels: Array.isArray(o.channels) ? strings(o.channels) : undefined,
  };
}

/**
 * Reads the offers' terms and indexes the valid submitted transactions by id and customer.
 */
export function prepareInput(input: ReplayInput, options: InvariantOptions): PreparedInput {
  assertKnownKeys(options, REPLAY_OPTION_KEYS, 'invariants options');
  const resolved = resolveOptions({
    timeZone: options.timeZone,
    scale: options.scale,
    rounding: options.rounding,
  });
  const offers = new Map<number, OfferTerms>();
  for (const raw of input.offers) {
    const o = raw as {
      offer_id?: unknown;
      discount?: unknown;
      reward?: unknown;
      merchant_name?: unknown;
      scope?: unknown;
      channels?: unknown;
      max_cashback?: unknown;
      warranty?: unknown;
      budget?: unknown;
      customer_cap?: unknown;
    };
    const reward = rewardTermsOf(o);
    if (typeof o.offer_id !== 'number' || reward === undefined || typeof o.warranty !== 'number')
      continue;
    offers.set(o.offer_id, {
      reward,
      place: placeOf(o),
      maxCashback: amountOf(o.max_cashback),
      warranty: o.warranty,
      budget: limitOf(o.budget, 'offer'),
      customerCap: limitOf(o.customer_cap, 'offer'),
    });
  }
  const parsed = new Map<string, ParsedTransaction>();
  input.transactions.forEach((item, i) => {
    const r = parseTransaction(item, i, resolved.timeZone);
    if (!r.ok) return;
    const key = `${r.value.transactionId}\u0000${r.value.customerId}`;
    if (!parsed.has(key)) parsed.set(key, r.value);
  });
  return {
    options: resolved,
    offer: (id) => offers.get(id),
    paidTransaction: (p) => parsed.get(`${p.transaction_id}\u0000${p.customer_id}`),
  };
}

/** Describes a payment in an error message. */
export function describePayment(p: ReplayPayment): string {
  return `payment for transaction '${p.transaction_id}' (offer ${p.offer_id}, cashback ${p.cashback}, payment_date ${p.payment_date})`;
}
