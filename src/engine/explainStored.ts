import type { Adjustment, Clawback } from '../core/returns/ReturnOutcome.js';
import type { ExplainedReturn, ReturnsExplanation } from '../core/returns/ReturnsExplanation.js';
import { parseDateTime, type WallClock } from '../model/dateTime.js';
import { ExactMoney } from '../model/money.js';
import type { EngineContext } from './EngineContext.js';
import { clawbackOf } from './seedShapes.js';

/**
 * What returns did to a stored transaction, as the store keeps it (docs/engine.md, explain): its
 * stored returns by date-time then id, what is left, its payment's cashback now and revision, and
 * the payment's history of adjustments and clawbacks (docs/concepts.md, History).
 * @param ctx - the engine
 * @param partner - the tenant, already checked
 * @param transactionId - a transaction id the partner has stored
 * @returns the explanation, or `undefined` when it has no returns
 */
export async function explainStored(
  ctx: EngineContext,
  partner: string,
  transactionId: string,
): Promise<ReturnsExplanation | undefined> {
  const { store } = ctx;
  const [txs, stored, payments] = await Promise.all([
    store.transactions.get(partner, [transactionId]),
    store.returns.ofTransactions(partner, [transactionId]),
    store.payments.get(partner, [transactionId]),
  ]);
  const tx = txs[0];
  if (tx === undefined || stored.length === 0) return undefined;
  const zone = ctx.options.timeZone;
  const dated = stored.map((r) => ({ r, when: parseDateTime(r.date, zone) as WallClock }));
  dated.sort(
    (a, b) =>
      a.when.seconds - b.when.seconds ||
      a.when.nanos - b.when.nanos ||
      (a.r.return_id < b.r.return_id ? -1 : a.r.return_id > b.r.return_id ? 1 : 0),
  );
  let returned = new ExactMoney(0);
  const returns: ExplainedReturn[] = dated.map(({ r, when }) => {
    returned = returned.plus(r.amount);
    return { return_id: r.return_id, date: when.text, amount: r.amount };
  });
  const payment = payments[0];
  const base = {
    returns,
    returned: returned.toFixed(),
    left: new ExactMoney(tx.amount).minus(returned).toFixed(),
  };
  if (payment === undefined) return base;
  const history = await store.payments.history(partner, transactionId);
  const adjustments: Adjustment[] = [];
  const clawbacks: Clawback[] = [];
  for (const c of history) {
    if (c.kind === 'clawback') clawbacks.push(clawbackOf(c));
    else {
      adjustments.push({
        return_id: c.return_id,
        transaction_id: transactionId,
        customer_id: payment.customer_id,
        offer_id: payment.offer_id,
        previous_cashback: Number(c.previous_cashback_amount),
        cashback: Number(c.cashback_amount),
        payment_date: payment.payment_date,
      });
    }
  }
  return {
    ...base,
    cashback: Number(payment.cashback_amount),
    offer_revision: payment.offer_revision,
    adjustments,
    clawbacks,
  };
}
