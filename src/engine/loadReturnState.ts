import type { ReturnableTransaction, ReturnState } from '../core/returns/ReturnState.js';
import type { OfferSet } from '../matching/compileOffers.js';
import type { CompiledOffer } from '../matching/offer.js';
import { parseDateTime } from '../model/dateTime.js';
import { ExactMoney, parseAmount } from '../model/money.js';
import type { ParsedReturn } from '../model/parseReturn.js';
import type { ParseResult } from '../model/parseTransaction.js';
import type { PaymentRecord, TransactionRecord } from '../store/records.js';
import type { EngineContext } from './EngineContext.js';

/** What a batch of returns is decided on, and what its commit checks and writes. */
export interface LoadedReturns {
  readonly state: ReturnState;
  /** The stored payments of the batch's transactions, by transaction id, as read. */
  readonly payments: ReadonlyMap<string, PaymentRecord>;
  /** How many returns were stored of each of the batch's transactions when it was read. */
  readonly returnCounts: ReadonlyMap<string, number>;
}

/**
 * Reads what deciding a batch of returns needs from the store, one call per resource and all at
 * once: which return ids are stored, the returned transactions, their returns and their payments.
 * @param ctx - the engine
 * @param partner - the tenant
 * @param items - the parsed returns
 * @param offers - the offers, to find the one that paid each payment
 * @returns the decide state, the payments and the counts of returns
 * @throws Error when the store returned an unreadable record, or a payment by an offer it lacks
 */
export async function loadReturnState(
  ctx: EngineContext,
  partner: string,
  items: readonly ParseResult<ParsedReturn>[],
  offers: OfferSet,
): Promise<LoadedReturns> {
  const returnIds = new Set<string>();
  const txIds = new Set<string>();
  for (const item of items) {
    if (!item.ok) continue;
    returnIds.add(item.value.returnId);
    txIds.add(item.value.transactionId);
  }
  const { store } = ctx;
  const ids = [...txIds];
  const none = <T>(): readonly T[] => [];
  const [existing, txs, returns, paid] = await Promise.all([
    returnIds.size === 0 ? none<string>() : store.returns.existing(partner, [...returnIds]),
    ids.length === 0 ? none<TransactionRecord>() : store.transactions.get(partner, ids),
    ids.length === 0 ? [] : store.returns.ofTransactions(partner, ids),
    ids.length === 0 ? none<PaymentRecord>() : store.payments.get(partner, ids),
  ]);
  const returned = new Map<string, InstanceType<typeof ExactMoney>>();
  const returnCounts = new Map<string, number>();
  for (const r of returns) {
    const id = r.transaction_id;
    returned.set(id, (returned.get(id) ?? new ExactMoney(0)).plus(r.amount));
    returnCounts.set(id, (returnCounts.get(id) ?? 0) + 1);
  }
  const payments = new Map(paid.map((p) => [p.transaction_id, p]));
  const byOffer = new Map(offers.offers.map((o) => [o.offerId, o]));
  const transactions = new Map<string, ReturnableTransaction>();
  for (const t of txs) {
    const sum = returned.get(t.transaction_id);
    const tx = returnable(ctx, t, sum?.toFixed() ?? '0', payments.get(t.transaction_id), byOffer);
    transactions.set(t.transaction_id, tx);
  }
  const stored = new Set(existing);
  const state: ReturnState = {
    options: ctx.options,
    hasReturn: (id) => stored.has(id),
    transaction: (id) => transactions.get(id),
  };
  return { state, payments, returnCounts };
}

/** A stored transaction, its returned sum and its payment as the core reads them. */
function returnable(
  ctx: EngineContext,
  t: TransactionRecord,
  returned: string,
  payment: PaymentRecord | undefined,
  byOffer: ReadonlyMap<number, CompiledOffer>,
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
    const offer = byOffer.get(payment.offer_id);
    if (offer === undefined) {
      throw new Error(
        `The payment of transaction '${t.transaction_id}' was made by offer ${payment.offer_id}, ` +
          'which the store does not have',
      );
    }
    paid = { offer, cashback: payment.cashback_amount, paymentDate: payment.payment_date };
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
