/**
 * The JSON shapes the arbitraries draw (docs/concepts.md, Offers and Input rules),
 * spelled out so that this entry point stands on its own. `_internals/shapeChecks.ts` proves each
 * one is accepted by the engine's zod input type.
 */

/**
 * A location.
 * @example
 * ```ts
 * const paris: LocationJson = { country: 'FR', city: 'Paris' };
 * ```
 * @public
 */
export interface LocationJson {
  /** Country. */
  country: string;
  /** City. */
  city: string;
}

/**
 * The period of a budget or a customer cap: the whole offer, a calendar day, an ISO week or a
 * calendar month, in the engine's time zone.
 * @public
 */
export type FundingPeriodJson = 'offer' | 'day' | 'week' | 'month';

/**
 * An offer as `compileOffers` loads it (`active` and the extensions included).
 * @example
 * ```ts
 * const offer: OfferJson = { offer_id: 1, name: 'Coffee', merchant_name: 'Coffee House',
 *   warranty: 14, discount: 5, valid_from: '2025-01-01', valid_to: '2025-12-31' };
 * ```
 * @public
 */
export interface OfferJson {
  /** Positive integer id. */
  offer_id: number;
  /** Display name. */
  name: string;
  /** Merchant the offer is at, matched by normalised name; or `scope` instead. */
  merchant_name?: string;
  /** Where a scoped offer pays, instead of `merchant_name` (docs/concepts.md, Scopes). */
  scope?: ScopeJson;
  /** The channels it requires of a transaction; absent: any. */
  channels?: ChannelJson[];
  /** Days from the transaction's day to the payment. */
  warranty: number;
  /** Percentage in (0, 100], as a number or a decimal string; or `reward` instead. */
  discount?: number | string;
  /** What it pays, instead of `discount` (docs/concepts.md, Rewards). */
  reward?: RewardJson;
  /** First valid day, `YYYY-MM-DD`. */
  valid_from: string;
  /** Last valid day, `YYYY-MM-DD`. */
  valid_to: string;
  /** Age labels `A-B` or `A+`; absent or empty: any age. */
  age?: string[];
  /** Genders; absent or empty: any. */
  gender?: string[];
  /** Category, informational. */
  category_name?: string;
  /** Whether the offer is active; absent means `true`. */
  active?: boolean;
  /** Smallest qualifying amount, inclusive. */
  min_amount?: number | string;
  /** Cap of cashback per transaction. */
  max_cashback?: number | string;
  /** Who may earn it. */
  audience?: 'all' | 'new' | 'returning';
  /** Lookback of `audience` and `history` facts, in days. */
  lookback_days?: number;
  /** A condition tree (docs/concepts.md, The condition language). */
  conditions?: Record<string, unknown>;
  /** Whether only customers who activated the offer qualify (docs/concepts.md, Activation). */
  requires_activation?: boolean;
  /**
   * What the offer's payments in one period add up to at most (docs/concepts.md, Funding
   * controls); `period` absent: the whole offer.
   */
  budget?: {
    amount: number | string;
    period?: FundingPeriodJson;
    /**
     * What the budget does when less is left than a payment: pay what is left (`partial`, the
     * default) or fail the `budget` check (`skip`; docs/concepts.md, Funding controls).
     */
    on_exhaust?: 'partial' | 'skip';
  };
  /** What one customer's payments of the offer in one period add up to and number at most. */
  customer_cap?: { amount?: number | string; count?: number; period: FundingPeriodJson };
  /** The operator's own data, JSON values only: kept and reported, never read. */
  metadata?: Record<string, unknown>;
}

/**
 * Where a transaction was paid.
 * @public
 */
export type ChannelJson = 'online' | 'in_store';

/**
 * An offer's scope: merchant names, merchant ids or category codes (at least one listed), minus
 * the names excluded.
 * @example
 * ```ts
 * const groceries: ScopeJson = { mcc: ['5411'], exclude_merchants: ['Big Box'] };
 * ```
 * @public
 */
export interface ScopeJson {
  /** Merchant names, matched normalised. */
  merchants?: string[];
  /** Merchant ids, matched as sent. */
  merchant_ids?: string[];
  /** Merchant category codes, matched as sent. */
  mcc?: string[];
  /** Merchant names never in scope. */
  exclude_merchants?: string[];
}

/**
 * An offer's reward: a percentage (up to an eligible amount), a fixed amount, or tiers.
 * @example
 * ```ts
 * const tiered: RewardJson = { type: 'tiers', mode: 'marginal',
 *   tiers: [{ from: 0, rate: 1 }, { from: 20, rate: 5 }] };
 * ```
 * @public
 */
export type RewardJson =
  | { type: 'percent'; rate: number | string; max_eligible_amount?: number | string }
  | { type: 'fixed'; amount: number | string }
  | {
      type: 'tiers';
      mode: 'whole' | 'marginal';
      tiers: { from: number | string; rate: number | string }[];
    };

/**
 * A customer.
 * @example
 * ```ts
 * const c: CustomerJson = { customer_id: 'c1', birthday: '2000-02-29', gender: 'female',
 *   location: { country: 'FR', city: 'Lyon' } };
 * ```
 * @public
 */
export interface CustomerJson {
  /** Id, 1–128 characters after trimming. */
  customer_id: string;
  /** `YYYY-MM-DD`. */
  birthday: string;
  /** Gender, compared trimmed and lower-cased. */
  gender: string;
  /** Where the customer lives. */
  location: LocationJson;
}

/**
 * A submitted transaction, all seven fields.
 * @example
 * ```ts
 * const t: TransactionJson = { transaction_id: 't1', customer_id: 'c1', description: '',
 *   date: '2025-03-01T10:00:00', amount: '12.50',
 *   merchant: { id: 'm1', name: 'Coffee House', category_code: '5812' },
 *   location: { country: 'FR', city: 'Paris' } };
 * ```
 * @public
 */
export interface TransactionJson {
  /** Id, shared with history transactions. */
  transaction_id: string;
  /** The customer's id. */
  customer_id: string;
  /** Free text, may be empty. */
  description: string;
  /** `YYYY-MM-DDTHH:mm:ss[.f…]`, optionally with `Z` or an offset. */
  date: string;
  /** Positive, as a number or a plain decimal string. */
  amount: number | string;
  /** The merchant. */
  merchant: { id: string; name: string; category_code: string };
  /** Where the purchase happened. */
  location: LocationJson;
  /** Where it was paid, when sent. */
  channel?: ChannelJson;
}

/**
 * A history transaction: like {@link TransactionJson}, with `description`,
 * `merchant.id`, `merchant.category_code` and `location` optional.
 * @example
 * ```ts
 * const h: HistoryTransactionJson = { transaction_id: 'h1', customer_id: 'c1',
 *   date: '2024-12-01T09:00:00Z', amount: 7, merchant: { name: 'Coffee House' } };
 * ```
 * @public
 */
export interface HistoryTransactionJson {
  /** Id, shared with submitted transactions. */
  transaction_id: string;
  /** The customer's id. */
  customer_id: string;
  /** Free text. */
  description?: string;
  /** As in {@link TransactionJson}. */
  date: string;
  /** As in {@link TransactionJson}. */
  amount: number | string;
  /** The merchant; only `name` is required. */
  merchant: { id?: string; name: string; category_code?: string };
  /** Where the purchase happened. */
  location?: LocationJson;
  /** Where it was paid, when sent. */
  channel?: ChannelJson;
}
