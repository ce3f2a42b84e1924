import { compileOffers, type OfferSet } from '../matching/compileOffers.js';
import {
  explainOffer as _explainOffer,
  type CandidateExplanation,
} from '../matching/explainOffer.js';
import { matchInput } from '../matching/match.js';
import type { WallClock } from '../model/dateTime.js';
import { type CoreOptions, resolveOptions } from '../model/options.js';
import { parseActivation } from '../model/parseActivation.js';
import { parseCustomer } from '../model/parseCustomer.js';
import {
  type ParsedTransaction,
  type ParseResult,
  parseTransaction,
} from '../model/parseTransaction.js';
import { type DecideState, decide, purchaseOf, screenHistory } from './decide.js';
import { explainReturns } from './explainReturns.js';
import type { Outcome } from './outcome.js';
import { PurchaseLists } from './PurchaseLists.js';
import type { ReturnsExplanation } from './returns/ReturnsExplanation.js';

/** What `explain` needs besides the transaction. @public */
export interface ExplainContext {
  /** Offers (JSON) or a compiled set. */
  readonly offers: readonly unknown[] | OfferSet;
  /** The transaction's customer (the partner API's shape), or `undefined` for an unknown one. */
  readonly customer: unknown;
  /** The customer's earlier transactions (history items of the partner API). */
  readonly history?: readonly unknown[];
  /**
   * Returns of the transaction, decided after it in array order (docs/concepts.md, Returns);
   * given, the explanation says what they did.
   */
  readonly returns?: readonly unknown[];
  /**
   * Activations `{customer_id, offer_id, date}` (docs/concepts.md, Activation; `date` required),
   * for offers with `requires_activation`; those of other customers and invalid ones are ignored.
   */
  readonly activations?: readonly unknown[];
}

/** Why a transaction gets what it gets. @public */
export interface Explanation {
  /** The outcome `decide` gives the transaction against this state. */
  readonly outcome: Outcome;
  /** Every offer at the transaction's merchant, by `offer_id`: how it fared. */
  readonly candidates: readonly CandidateExplanation[];
  /**
   * What returns did to it: from `explain` when its context has `returns` and the transaction is
   * valid; from the engine's `explain` when the transaction is stored and has returns.
   */
  readonly returns?: ReturnsExplanation;
}

/**
 * Explains the decision for one transaction: the outcome, and for every candidate offer at its
 * merchant whether it matched and its cashback, or the first failed check with detail; with
 * `context.returns`, what they did to it.
 * @param transaction - the transaction, in the partner API's shape
 * @param context - offers, the customer, their history, and returns of the transaction
 * @param options - core options
 * @returns the outcome and one explanation per candidate offer
 * @public
 */
export function explain(
  transaction: unknown,
  context: ExplainContext,
  options: CoreOptions = {},
): Explanation {
  const resolved = resolveOptions(options);
  const offers = Array.isArray(context.offers)
    ? compileOffers(context.offers, { operators: resolved.operators })
    : (context.offers as OfferSet);
  const parsedCustomer =
    context.customer === undefined ? undefined : parseCustomer(context.customer, 0);
  const customer = parsedCustomer?.ok === true ? parsedCustomer.value : undefined;
  const ids = new Set<string>();
  const purchases = new PurchaseLists();
  const activated = new Map<number, WallClock>();
  (context.activations ?? []).forEach((a, i) => {
    const r = parseActivation(a, i, resolved.timeZone, true);
    if (r.ok && r.value.customerId === customer?.customerId) {
      activated.set(r.value.offerId, r.value.when as WallClock);
    }
  });
  const state: DecideState = {
    offers,
    options: resolved,
    customer: (id) => (customer?.customerId === id ? customer : undefined),
    hasTransaction: (id) => ids.has(id),
    purchases: (c, k) => purchases.get(c, k),
    activation: (c, o) => (customer?.customerId === c ? activated.get(o) : undefined),
  };
  const history = screenHistory(
    (context.history ?? []).map((h, i) => parseTransaction(h, i, resolved.timeZone, true)),
    state,
  );
  for (const tx of history.accepted) {
    ids.add(tx.transactionId);
    purchases.listFor(tx.customerId, tx.merchantKey).push(purchaseOf(tx));
  }
  const item = parseTransaction(transaction, 0, resolved.timeZone);
  const explanation = explainParsed(item, state);
  if (context.returns === undefined || !item.ok) return explanation;
  const returns = explainReturns(decide([item], state), context.returns, offers, resolved);
  return { ...explanation, returns };
}

/**
 * Explains one parsed transaction against a decide state: the outcome `decide` gives it, and how
 * every offer at its merchant fared with the customer and purchases the state holds.
 */
export function explainParsed(
  item: ParseResult<ParsedTransaction>,
  state: DecideState,
): Explanation {
  const outcome = decide([item], state).outcomes[0] as Outcome;
  const customer = item.ok ? state.customer(item.value.customerId) : undefined;
  if (!item.ok || customer === undefined) return { outcome, candidates: [] };
  const tx = item.value;
  const m = matchInput(
    tx,
    customer,
    state.purchases(tx.customerId, tx.merchantKey),
    state.activation?.bind(state),
  );
  const candidates = (state.offers.byMerchant.get(tx.merchantKey) ?? []).map((o) =>
    _explainOffer(o, m, state.options),
  );
  return { outcome, candidates };
}
