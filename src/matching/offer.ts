import type { ExactAmount } from '../model/money.js';
import type { Channel, Offer } from '../model/schemas.js';
import type { CompiledCondition } from '../rules/index.js';
import type { AgeBand } from './ageBands.js';

/**
 * The period of a budget or a cap (docs/concepts.md, Funding controls): the whole offer, a
 * calendar day, an ISO week (Monday to Sunday) or a calendar month, in the engine's time zone.
 * @public
 */
export type FundingPeriod = 'offer' | 'day' | 'week' | 'month';

/**
 * A budget or a per-customer cap as matching reads it.
 * @public
 */
export interface FundingLimit {
  /** The most its payments in one period add up to; absent for a cap on the count alone. */
  readonly amount: ExactAmount | undefined;
  /** The most payments in one period (caps only). */
  readonly count: number | undefined;
  /** The period its payments are counted in. */
  readonly period: FundingPeriod;
  /**
   * A budget's choice when less is left than a payment (docs/concepts.md, Budget exhaustion):
   * `partial` pays what is left, `skip` fails the check. Caps always pay what is left.
   */
  readonly onExhaust: 'partial' | 'skip';
}

/** One tier of a tiered reward, parsed: its rate (a percentage) from the amount `from` on. @public */
export interface CompiledTier {
  /** Where the tier starts, inclusive; the first tier's is 0. */
  readonly from: ExactAmount;
  /** Its percentage, in [0, 100]. */
  readonly rate: ExactAmount;
}

/**
 * An offer's reward as matching reads it (docs/concepts.md, Rewards): `discount: d` is
 * `{ type: 'percent', rate: d }`.
 * @public
 */
export type CompiledReward =
  | {
      /** A percentage of the amount, or of the amount up to `maxEligible`. */
      readonly type: 'percent';
      /** The percentage, in (0, 100]. */
      readonly rate: ExactAmount;
      /** The most of the amount that earns the rate; absent: all of it. */
      readonly maxEligible: ExactAmount | undefined;
    }
  | {
      /** A fixed amount, never more than the transaction's amount. */
      readonly type: 'fixed';
      /** The amount. */
      readonly amount: ExactAmount;
    }
  | {
      /** Rates by tiers of the amount. */
      readonly type: 'tiers';
      /** `whole`: the last tier reached, on the whole amount; `marginal`: each tier on its part. */
      readonly mode: 'whole' | 'marginal';
      /** 1 to 20 tiers, `from` strictly ascending from 0. */
      readonly tiers: readonly CompiledTier[];
    };

/**
 * Where a scoped offer pays (docs/concepts.md, Scopes): its lists as matching reads them.
 * @public
 */
export interface CompiledScope {
  /** Normalised merchant names (see `merchantKey`). */
  readonly merchants: ReadonlySet<string>;
  /** Merchant ids, as sent. */
  readonly merchantIds: ReadonlySet<string>;
  /** Merchant category codes, as sent. */
  readonly mcc: ReadonlySet<string>;
  /** Normalised merchant names that are never in scope. */
  readonly exclude: ReadonlySet<string>;
}

/** Audience of an offer. @public */
export type Audience = 'all' | 'new' | 'returning';

export type { Offer };

/**
 * An offer ready for matching: every field parsed once at load.
 * @public
 */
export interface CompiledOffer {
  /** The offer as reported. */
  readonly offer: Offer;
  /** Its id. */
  readonly offerId: number;
  /** Normalised `merchant_name`; `undefined` for a scoped offer. */
  readonly merchantKey: string | undefined;
  /** Its scope, for an offer without `merchant_name` (docs/concepts.md, Scopes). */
  readonly scope: CompiledScope | undefined;
  /**
   * The key of the purchase lists its `audience` and `history` facts read: its merchant key, or,
   * for a scoped offer, a key of its scope that no merchant key can be (it starts with U+0000).
   */
  readonly historyKey: string;
  /** The channels it requires of a transaction; `undefined`: any, or none. */
  readonly channels: readonly Channel[] | undefined;
  /** Whether the offer is active. */
  readonly active: boolean;
  /** First valid day (day number), inclusive. */
  readonly validFrom: number;
  /** Last valid day (day number), inclusive. */
  readonly validTo: number;
  /** Age bands; empty means any age. */
  readonly ageBands: readonly AgeBand[];
  /** Normalised genders; empty means any gender. */
  readonly genders: readonly string[];
  /** Its reward, `discount` included as a percentage. */
  readonly reward: CompiledReward;
  /** Days by which payment is delayed. */
  readonly warranty: number;
  /** Minimum transaction amount, inclusive. */
  readonly minAmount: ExactAmount | undefined;
  /** Cap of cashback per transaction. */
  readonly maxCashback: ExactAmount | undefined;
  /** Who may earn it. */
  readonly audience: Audience;
  /** Lookback window of the audience check and the `history` fact, in days. */
  readonly lookbackDays: number;
  /** Compiled `conditions`, when present. */
  readonly condition: CompiledCondition | undefined;
  /** Whether only customers who activated it qualify (docs/concepts.md, Activation). */
  readonly requiresActivation: boolean;
  /** Its budget (docs/concepts.md, Funding controls), if it has one. */
  readonly budget: FundingLimit | undefined;
  /** Its per-customer cap, if it has one. */
  readonly customerCap: FundingLimit | undefined;
  /** Whether it has a budget or a cap: its payments are counted. */
  readonly funded: boolean;
  /** Whether deciding this offer reads earlier purchases (audience or `history` facts). */
  readonly needsHistory: boolean;
}
