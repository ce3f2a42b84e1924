import { dayInZone } from '../model/dateTime.js';
import { ExactMoney } from '../model/money.js';
import { readId } from '../model/parseTransaction.js';
import type { PaymentChangeRecord } from '../store/records.js';
import type { EngineContext } from './EngineContext.js';
import { InvalidRequestError, type PaymentHistory, type PaymentHistoryEntry } from './results.js';
import { cashbackPaymentRecord, clawbackOf } from './seedShapes.js';

/**
 * `engine.paymentHistory` (`GET /payments/{transaction_id}/history`): a payment as decided, then
 * each adjustment and clawback in the order recorded (docs/concepts.md, History).
 * @param ctx - the engine
 * @param partner - the tenant, already checked
 * @param transactionId - the paid transaction's id
 * @returns the history, `undefined` when the partner has no payment of that transaction
 * @throws InvalidRequestError when the id is not a transaction id
 */
export async function paymentHistory(
  ctx: EngineContext,
  partner: string,
  transactionId: string,
): Promise<PaymentHistory | undefined> {
  const issues: { path: string; message: string }[] = [];
  const id = readId(transactionId, 'transaction_id', issues);
  if (issues.length > 0) throw new InvalidRequestError(issues);
  const [payment] = await ctx.store.payments.get(partner, [id]);
  if (payment === undefined) return undefined;
  const changes = await ctx.store.payments.history(partner, id);
  // As decided: before the first adjustment, if any lowered it.
  const first = changes.find((c) => c.kind === 'adjustment');
  const decided =
    first?.kind === 'adjustment' ? first.previous_cashback_amount : payment.cashback_amount;
  const today = dayInZone(ctx.clock(), ctx.options.timeZone);
  return {
    transaction_id: payment.transaction_id,
    customer_id: payment.customer_id,
    offer_id: payment.offer_id,
    offer_revision: payment.offer_revision,
    decided_cashback: new ExactMoney(decided).toNumber(),
    cashback: Number(payment.cashback_amount),
    clawed_back: Number(payment.clawed_back_amount),
    payment_date: payment.payment_date,
    status: cashbackPaymentRecord(payment, today).status,
    changes: changes.map(entryOf),
  };
}

/** A stored history entry as partners see it. */
function entryOf(c: PaymentChangeRecord): PaymentHistoryEntry {
  if (c.kind === 'clawback')
    return { kind: 'clawback', ...clawbackOf(c), recorded_at: c.recorded_at };
  return {
    kind: 'adjustment',
    return_id: c.return_id,
    previous_cashback: Number(c.previous_cashback_amount),
    cashback: Number(c.cashback_amount),
    recorded_at: c.recorded_at,
  };
}
