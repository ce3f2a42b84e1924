import type { ReturnableTransaction, ReturnState } from '../core/returns/ReturnState.js';
import type { CompiledOffer } from '../matching/offer.js';
import { parseDateTime } from '../model/dateTime.js';
import { ExactMoney, parseAmount } from '../model/money.js';
import type { ParsedReturn } from '../model/parseReturn.js';
import type { ParseResult } from '../model/parseTransaction.js';
import type { StoredPayment, TransactionRecord } from '../store/records.js';
import type { StoreSession } from '../store/Store.js';
import type { EngineContext } from './EngineContext.js';

/** What a batch of returns is decided on, and what its unit of work writes. */
export interface LoadedReturns {
  readonly state: ReturnState;
  /** The stored payments of the batch's transactions, by transaction id, as read. */
  readonly payments: ReadonlyMap<string, StoredPayment>;
}

/**
 * Reads what deciding a batch of returns needs, inside its unit of work: first what its
 * transactions have had returned, which holds them until the unit ends (so no other unit returns
 * any of them in between), then, one call per resource, which return ids are stored, the
 * transactions and their payments.
 * @param ctx - the engine
 * @param s - the unit's session
 * @param partner - the tenant
 * @param items - the parsed returns
 * @returns the decide state, the payments and the counts of returns
 * @throws Error when the store returned an unreadable record, or a payment by an offer it lacks
 */
export async function loadReturnState(
  ctx: EngineContext,
  s: StoreSession,
  partner: string,
  items: readonly ParseResult<ParsedReturn>[],
): Promise<LoadedReturns> {
  const returnIds = new Set<string>();
  const txIds = new Set<string>();
  for (const item of items) {
    if (!item.ok) continue;
    returnIds.add(item.value.returnId);
    txIds.add(item.value.transactionId);
  }
  const ids = [...txIds];
  const none = <T>(): readonly T[] => [];
  // One call after another: a unit's session is one connection.
  const totals = ids.length === 0 ? [] : await s.returns.hold(partner, ids);
  const existing =
    returnIds.size === 0 ? none<string>() : await s.returns.existing(partner, [...returnIds]);
  const txs = ids.length === 0 ? none<TransactionRecord>() : await s.transactions.get(partner, ids);
  const paid = ids.length === 0 ? none<StoredPayment>() : await s.payments.get(partner, ids);
  const returned = new Map(totals.map((t) => [t.transaction_id, t.amount]));
  const payments = new Map(paid.map((p) => [p.transaction_id, p]));
  const terms = await ctx.revisions.of(s, paid);
  const transactions = new Map<string, ReturnableTransaction>();
  for (const t of txs) {
    const sum = returned.get(t.transaction_id) ?? '0';
    const tx = returnable(ctx, t, sum, payments.get(t.transaction_id), terms);
    transactions.set(t.transaction_id, tx);
  }
  const stored = new Set(existing);
  const state: ReturnState = {
    options: ctx.options,
    hasReturn: (id) => stored.has(id),
    transaction: (id) => transactions.get(id),
  };
  return { state, payments };
}

/** A stored transaction, its returned sum and its payment as the core reads them. */
function returnable(
  ctx: EngineContext,
  t: TransactionRecord,
  returned: string,
  payment: StoredPayment | undefined,
  terms: (offerId: number, revision: number) => CompiledOffer | undefined,
): ReturnableTransaction {
  // The stored date has no zone designator, so it parses as the wall-clock time it is.
  const when = parseDateTime(t.date, ctx.options.timeZone);
  const amount = parseAmount(t.amount);
  if (typeof when === 'string' || typeof amount === 'string') {
    throw new Error(
      `Store returned transaction '${t.transaction_id}' with an unreadable date or amount`,
    );
  }
  let paid: ReturnableTransaction['payment'];
  if (payment !== undefined) {
    const offer = terms(payment.offer_id, payment.offer_revision);
    if (offer === undefined) {
      throw new Error(
        `The payment of transaction '${t.transaction_id}' was made by revision ` +
          `${payment.offer_revision} of offer ${payment.offer_id}, which the store does not have`,
      );
    }
    paid = {
      offer,
      offerRevision: payment.offer_revision,
      cashback: payment.cashback_amount,
      paymentDate: payment.payment_date,
      clawedBack: payment.clawed_back_amount,
      // A payment with a clawback was final when that clawback's return arrived: a return
      // decided after it is late too, whatever its engine's clock says (docs/decisions.md,
      // The payment ledger), so that what returns take never exceeds what was paid.
      confirmed:
        payment.confirmed_event !== null || !new ExactMoney(payment.clawed_back_amount).isZero(),
    };
  }
  return {
    transactionId: t.transaction_id,
    customerId: t.customer_id,
    when,
    amount,
    returned,
    payment: paid,
  };
}
