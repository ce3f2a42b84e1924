import type { ResolvedOptions } from '../../model/options.js';
import type { OfferIssue } from '../compileOffers.js';
import type { CompiledOffer } from '../offer.js';
import type { FindingOffer, OfferFinding } from './OfferFinding.js';

/** An offer of the checked array, compiled when it is valid. */
export interface CheckedOffer {
  readonly index: number;
  readonly raw: unknown;
  readonly compiled: CompiledOffer | undefined;
  /** Its validation problems, when it is invalid. */
  readonly issues: readonly OfferIssue[] | undefined;
}

/** What every rule reads. */
export interface CheckContext {
  readonly offers: readonly CheckedOffer[];
  /**
   * Valid offers by each merchant key they certainly pay at (a merchant-bound offer's, the names a
   * scoped one lists and does not exclude), each list by ascending `offer_id`.
   */
  readonly byMerchant: ReadonlyMap<
    string,
    readonly (CheckedOffer & { readonly compiled: CompiledOffer })[]
  >;
  readonly options: ResolvedOptions;
  /** Day number of `today`, when given. */
  readonly today: number | undefined;
  /** Transactions a scope is checked against (`scope_unmatched`), when given. */
  readonly sample: readonly unknown[] | undefined;
}

/** One rule: the findings it makes. */
export type OfferCheck = (ctx: CheckContext) => OfferFinding[];

/** How a finding names an offer. */
export function ref(offer: CheckedOffer): FindingOffer {
  const raw = (offer.raw as { offer_id?: unknown } | null)?.offer_id;
  const id =
    offer.compiled?.offerId ??
    (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0 ? raw : undefined);
  return id === undefined ? { index: offer.index } : { index: offer.index, offer_id: id };
}
