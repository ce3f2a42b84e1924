import { candidatesOfTx, scopeHistoryKeys } from '../matching/candidates.js';
import { type Cashback, cashbackOfText } from '../matching/cashback.js';
import { compiledOfferSet, compileOfferSet, type OfferSet } from '../matching/compileOffers.js';
import {
  explainOffer as _explainOffer,
  type CandidateExplanation,
} from '../matching/explainOffer.js';
import type { SpentLookup } from '../matching/funding.js';
import { matchInput } from '../matching/match.js';
import type { WallClock } from '../model/dateTime.js';
import { assertKnownKeys } from '../model/knownKeys.js';
import { parseAmount } from '../model/money.js';
import { type CoreOptions, type ResolvedOptions, resolveOptions } from '../model/options.js';
import { parseActivation } from '../model/parseActivation.js';
import { parseCustomer } from '../model/parseCustomer.js';
import {
  type ParsedTransaction,
  type ParseResult,
  parseTransaction,
} from '../model/parseTransaction.js';
import { describeValue } from '../rules/_internals/describe.js';
import { type DecideState, decide, purchaseOf, screenHistory } from './decide.js';
import { explainReturns } from './explainReturns.js';
import type { Outcome } from './outcome.js';
import { PurchaseLists } from './PurchaseLists.js';
import { requireObject } from './requireInput.js';
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
  /**
   * What offers' budgets and the customer's caps had spent in the transaction's period before it
   * (docs/concepts.md, Funding controls), by offer id; absent: nothing.
   */
  readonly spent?: ExplainSpent;
}

/** What budgets and caps had spent before the explained transaction, by offer id. @public */
export interface ExplainSpent {
  /** Per offer id, what its budget had spent: an amount (a number or a plain decimal string). */
  readonly budgets?: Readonly<Record<string, number | string>>;
  /** Per offer id, what the customer's cap had spent: an amount, a count of payments, or both. */
  readonly caps?: Readonly<
    Record<string, { readonly amount?: number | string; readonly count?: number }>
  >;
}

/** `DecideState.spent` over what an explanation's context says was spent. */
function spentOf(
  spent: ExplainSpent | undefined,
  options: ResolvedOptions,
): SpentLookup | undefined {
  if (spent === undefined) return undefined;
  requireObject(spent, 'context.spent');
  assertKnownKeys(spent, ['budgets', 'caps'], 'context.spent', 'field');
  const amountOf = (v: unknown, what: string): Cashback => {
    if (v === undefined || v === 0 || v === '0') return cashbackOfText('0', options);
    const a = parseAmount(v);
    if (typeof a === 'object') return cashbackOfText(a.text, options);
    throw new TypeError(
      `${what} must be an amount (a number or a plain decimal string), got ${describeValue(v)}`,
    );
  };
  return (offerId, _start, customerId) => {
    if (customerId === undefined) {
      const v = spent.budgets?.[String(offerId)];
      return v === undefined
        ? undefined
        : { amount: amountOf(v, `context.spent.budgets.${offerId}`), count: 0 };
    }
    const c = spent.caps?.[String(offerId)];
    if (c === undefined) return undefined;
    return {
      amount: amountOf(c.amount, `context.spent.caps.${offerId}.amount`),
      count: c.count ?? 0,
    };
  };
}

/** Why a transaction gets what it gets. @public */
export interface Explanation {
  /** The outcome `decide` gives the transaction against this state. */
  readonly outcome: Outcome;
  /**
   * Every candidate offer of the transaction, by `offer_id`: those at its merchant, and the scoped
   * ones that list its name, id or category (docs/concepts.md, Scopes); how each fared.
   */
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
    ? compileOfferSet(context.offers, { operators: resolved.operators, scale: resolved.scale })
    : compiledOfferSet(context.offers, 'context.offers');
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
    spent: spentOf(context.spent, resolved),
  };
  const history = screenHistory(
    (context.history ?? []).map((h, i) => parseTransaction(h, i, resolved.timeZone, true)),
    state,
  );
  for (const tx of history.accepted) {
    ids.add(tx.transactionId);
    const p = purchaseOf(tx);
    purchases.listFor(tx.customerId, tx.merchantKey).push(p);
    const { id, category_code } = tx.merchant;
    for (const key of scopeHistoryKeys(offers, tx.merchantKey, id, category_code)) {
      purchases.listFor(tx.customerId, key).push(p);
    }
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
  const offers = compiledOfferSet(state.offers, 'state.offers');
  const { id, category_code } = tx.merchant;
  const scoped = scopeHistoryKeys(offers, tx.merchantKey, id, category_code).map((key) => ({
    key,
    list: state.purchases(tx.customerId, key) ?? [],
  }));
  const m = matchInput(
    tx,
    customer,
    state.purchases(tx.customerId, tx.merchantKey),
    state.activation?.bind(state),
    state.spent?.bind(state),
    scoped,
  );
  const candidates = (candidatesOfTx(offers, tx) ?? []).map((o) =>
    _explainOffer(o, m, state.options),
  );
  return { outcome, candidates };
}
