import type { ExactAmount } from '../model/money.js';
import type { Offer } from '../model/schemas.js';
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
  /** Normalised merchant name. */
  readonly merchantKey: string;
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
  /** Discount percentage, exact. */
  readonly discount: ExactAmount;
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
