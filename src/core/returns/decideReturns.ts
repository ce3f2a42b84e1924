import { cashbackDecimal } from '../../matching/cashback.js';
import { netCashback } from '../../matching/netCashback.js';
import { isBefore } from '../../model/dateTime.js';
import { parseDay } from '../../model/day.js';
import { issuesMessage, type ReturnErrorCode } from '../../model/errors.js';
import { ExactMoney, parseAmount } from '../../model/money.js';
import type { ParsedReturn } from '../../model/parseReturn.js';
import type { ParseResult } from '../../model/parseTransaction.js';
import { requireArray } from '../requireInput.js';
import * as m from './messages.js';
import type {
  AcceptedReturn,
  PaymentChange,
  ReturnDecision,
  ReturnOutcome,
} from './ReturnOutcome.js';
import type { ReturnableTransaction, ReturnState } from './ReturnState.js';

function fail(key: string, code: ReturnErrorCode, message: string): ReturnOutcome {
  return { ok: false, error: { key, code, message } };
}

type Decimal = InstanceType<typeof ExactMoney>;

/**
 * A transaction as the batch leaves it: returned so far, its payment's cashback now, what its
 * payment's clawbacks took so far, and whether a return found the payment confirmed.
 */
interface Running {
  readonly tx: ReturnableTransaction;
  returned: Decimal;
  cashback: string | undefined;
  clawedBack: Decimal;
  confirmed: boolean;
}

/**
 * Decides a batch of returns against the stored state (docs/concepts.md, Returns): one outcome
 * per return, in array order, each return seeing the returns stored before it, earlier ones of
 * the batch included. Pure: changes none of its inputs.
 *
 * The checks run in order and the first that fails names the error: `invalid_return`,
 * `duplicate_return`, `transaction_not_found`, `invalid_return` (dated before the transaction),
 * `return_exceeds_amount`. A return past them is stored; then `not_paid`, `after_warranty`; then,
 * for a return that arrived once its payment was confirmed, a clawback (or `late_return` when
 * late returns are ignored); else an adjustment: the payment's cashback worked out again on the
 * net amount with the offer revision that paid it, never more than it was.
 * @param items - the parsed returns
 * @param state - the stored state
 * @returns the outcomes, the returns to store and the payment changes
 * @public
 */
export function decideReturns(
  items: readonly ParseResult<ParsedReturn>[],
  state: ReturnState,
): ReturnDecision {
  requireArray(items, 'returns');
  const claimed = new Set<string>();
  const running = new Map<string, Running>();
  const outcomes: ReturnOutcome[] = [];
  const accepted: AcceptedReturn[] = [];
  for (const item of items) {
    if (!item.ok) {
      outcomes.push(fail(item.key, 'invalid_return', issuesMessage('return', item.issues)));
      continue;
    }
    const r = item.value;
    const id = r.returnId;
    if (claimed.has(id) || state.hasReturn(id)) {
      outcomes.push(fail(id, 'duplicate_return', m.duplicateReturn(id)));
      continue;
    }
    const t = runningOf(running, state, r.transactionId);
    if (t === undefined) {
      outcomes.push(fail(id, 'transaction_not_found', m.transactionNotFound(r.transactionId)));
      continue;
    }
    const amount = screenAmount(r, t);
    if (typeof amount !== 'string') {
      outcomes.push(amount);
      continue;
    }
    claimed.add(id);
    t.returned = t.returned.plus(amount);
    accepted.push({ ...r, amount });
    outcomes.push(adjust(r, t, state));
  }
  return { outcomes, accepted, changes: changesOf(running) };
}

/** The batch's running state of a transaction, made from the stored state on first use. */
function runningOf(
  running: Map<string, Running>,
  state: ReturnState,
  transactionId: string,
): Running | undefined {
  let t = running.get(transactionId);
  if (t === undefined) {
    const tx = state.transaction(transactionId);
    if (tx === undefined) return undefined;
    t = {
      tx,
      returned: new ExactMoney(tx.returned),
      cashback: tx.payment?.cashback,
      clawedBack: new ExactMoney(tx.payment?.clawedBack ?? '0'),
      confirmed: tx.payment?.confirmed === true,
    };
    running.set(transactionId, t);
  }
  return t;
}

/** Checks 4 and 5: the return's date and amount. Returns the amount returned, exact text. */
function screenAmount(r: ParsedReturn, t: Running): string | ReturnOutcome {
  const { tx } = t;
  const id = r.returnId;
  if (isBefore(r.when.seconds, r.when.nanos, tx.when)) {
    return fail(id, 'invalid_return', m.returnBeforeTransaction(tx.when.text));
  }
  const left = new ExactMoney(tx.amount.text).minus(t.returned);
  if (r.amount === undefined) {
    // Absent: all that is left; a transaction returned whole has nothing left to return.
    if (left.lte(0)) return fail(id, 'return_exceeds_amount', m.nothingLeft(tx.transactionId));
    return left.toFixed();
  }
  if (r.amount.decimal.gt(left)) {
    const message = m.exceedsAmount(tx.transactionId, r.amount.text, left.toFixed());
    return fail(id, 'return_exceeds_amount', message);
  }
  return r.amount.text;
}

/** Checks 6 to 8 of a stored return: `not_paid`, `after_warranty`, late, or the adjustment. */
function adjust(r: ParsedReturn, t: Running, state: ReturnState): ReturnOutcome {
  const { tx } = t;
  const id = r.returnId;
  const payment = tx.payment;
  if (payment === undefined || t.cashback === undefined) {
    return fail(id, 'not_paid', m.noPayment(tx.transactionId));
  }
  const previous = new ExactMoney(t.cashback);
  if (previous.isZero()) return fail(id, 'not_paid', m.paymentAtZero(tx.transactionId));
  const paymentDay = parseDay(payment.paymentDate) ?? Number.NEGATIVE_INFINITY;
  if (r.when.day >= paymentDay) {
    return fail(id, 'after_warranty', m.afterWarranty(r.when.dayText, payment.paymentDate));
  }
  const recomputed = onNet(t, state);
  // A return never raises a payment (docs/concepts.md, Returns).
  const cashback = recomputed.lt(previous) ? recomputed : previous;
  // 7b: the payment is confirmed at the return's arrival (docs/concepts.md, Late returns).
  if (t.confirmed || r.reportedAt.day >= paymentDay) {
    // Once a return found it paid out it stays so: a later return of a replay given out of
    // arrival order, which says it arrived earlier, must not lower what was clawed back from.
    t.confirmed = true;
    if (state.options.lateReturns === 'ignore') {
      return fail(id, 'late_return', m.lateReturn(r.reportedAt.dayText, payment.paymentDate));
    }
    return clawBack(r, t, previous.minus(cashback));
  }
  const before = t.cashback;
  t.cashback = cashback.toFixed();
  return {
    ok: true,
    kind: 'adjustment',
    adjustment: {
      return_id: id,
      transaction_id: tx.transactionId,
      customer_id: tx.customerId,
      offer_id: payment.offer.offerId,
      previous_cashback: Number(before),
      cashback: Number(t.cashback),
      payment_date: payment.paymentDate,
    },
    previous: previous.toFixed(),
    cashback: t.cashback,
  };
}

/**
 * The payment worked out again on what is left of the transaction, with the terms of the offer
 * revision that paid it (docs/concepts.md, Returns): 0 when nothing is left.
 */
function onNet(t: Running, state: ReturnState): Decimal {
  const payment = t.tx.payment as NonNullable<ReturnableTransaction['payment']>;
  const net = new ExactMoney(t.tx.amount.text).minus(t.returned);
  const amount = net.gt(0) ? parseAmount(net.toFixed()) : undefined;
  const options = state.options;
  const worked = netCashback(
    typeof amount === 'string' ? undefined : amount,
    payment.offer,
    options,
  );
  return new ExactMoney(cashbackDecimal(worked, options.scale).toFixed());
}

/**
 * A late return's clawback: what the return takes from the payment (`taken`, all returns so far
 * counted) less what its earlier clawbacks took, never below 0; the payment stays as it is.
 */
function clawBack(r: ParsedReturn, t: Running, taken: Decimal): ReturnOutcome {
  const { tx } = t;
  const payment = tx.payment as NonNullable<ReturnableTransaction['payment']>;
  const more = taken.minus(t.clawedBack);
  const amount = more.gt(0) ? more : new ExactMoney(0);
  t.clawedBack = t.clawedBack.plus(amount);
  return {
    ok: true,
    kind: 'clawback',
    clawback: {
      return_id: r.returnId,
      transaction_id: tx.transactionId,
      customer_id: tx.customerId,
      offer_id: payment.offer.offerId,
      offer_revision: payment.offerRevision,
      amount: amount.toNumber(),
      date: r.when.text,
      reported_at: r.reportedAt.text,
    },
    amount: amount.toFixed(),
  };
}

/** The payments the batch changed, from their cashback before it to after it. */
function changesOf(running: ReadonlyMap<string, Running>): PaymentChange[] {
  const changes: PaymentChange[] = [];
  for (const { tx, cashback } of running.values()) {
    const before = tx.payment?.cashback;
    if (before === undefined || cashback === undefined) continue;
    if (new ExactMoney(cashback).eq(before)) continue;
    changes.push({ transactionId: tx.transactionId, previous: before, cashback });
  }
  return changes;
}
