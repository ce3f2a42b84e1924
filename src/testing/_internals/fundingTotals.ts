import { format, parseISO, startOfISOWeek } from 'date-fns';
import { ExactMoney, Money, type MoneyValue } from '../../model/money.js';
import type { ReplayOutput } from '../invariants/types.js';
import type { LimitTerms, PreparedInput, ReplayPayment } from './replayInput.js';

/** What the payments of one offer (and one customer, for a cap) add up to in one period. */
export interface FundingTotal {
  readonly offerId: number;
  /** The cap's customer; absent for a budget. */
  readonly customerId: string | undefined;
  readonly limit: LimitTerms;
  /** The period, as a finding says it: `2025-06`, `week of 2025-06-02`, … */
  readonly period: string;
  /** The sum of the current cashback. */
  amount: MoneyValue;
  /** Payments whose current cashback is above 0. */
  count: number;
  readonly transactions: string[];
}

/**
 * The period of a day (`YYYY-MM-DD`): the day, the Monday of its ISO week, its month, or the
 * whole offer. Worked out with date-fns, apart from the engine's own day arithmetic, so that the
 * invariants check the engine's periods rather than repeat them.
 */
function periodOf(period: LimitTerms['period'], day: string): string {
  if (period === 'day') return day;
  if (period === 'month') return day.slice(0, 7);
  if (period === 'week') return `week of ${format(startOfISOWeek(parseISO(day)), 'yyyy-MM-dd')}`;
  return 'the whole offer';
}

/** Each payment with its current cashback: its last adjustment's, when there is one. */
function currentCashback(result: ReplayOutput): Map<ReplayPayment, string> {
  const byTransaction = new Map(result.payments.map((p) => [p.transaction_id, p]));
  const current = new Map(result.payments.map((p) => [p, String(p.cashback)]));
  for (const a of result.adjustments ?? []) {
    const p = byTransaction.get(a.transaction_id);
    if (p !== undefined) current.set(p, String(a.cashback));
  }
  return current;
}

/**
 * What the payments spent, per offer and period of its budget (`which` = `budget`) or per
 * customer, offer and period of its cap (`customer_cap`), in the engine's time zone: sums of
 * current cashback, payments at 0 not counted (docs/concepts.md, Funding controls).
 * @param prepared - the input
 * @param result - the replay's result
 * @param which - budgets or caps
 * @param cashbackOf - each payment's cashback to count: by default its current cashback
 * @throws Error for a payment of no offer of the input or of no valid submitted transaction
 */
export function fundingTotals(
  prepared: PreparedInput,
  result: ReplayOutput,
  which: 'budget' | 'customer_cap',
  cashbackOf: ReadonlyMap<ReplayPayment, string> = currentCashback(result),
): FundingTotal[] {
  const totals = new Map<string, FundingTotal>();
  for (const [p, cashback] of cashbackOf) {
    const offer = prepared.offer(p.offer_id);
    const limit = which === 'budget' ? offer?.budget : offer?.customerCap;
    if (limit === undefined) continue;
    const tx = prepared.paidTransaction(p);
    if (tx === undefined) {
      throw new Error(
        `payment for transaction '${p.transaction_id}': no valid submitted transaction with this id and customer`,
      );
    }
    const period = periodOf(limit.period, tx.when.dayText);
    const customerId = which === 'budget' ? undefined : p.customer_id;
    const key = JSON.stringify([p.offer_id, period, customerId ?? null]);
    let total = totals.get(key);
    if (total === undefined) {
      total = {
        offerId: p.offer_id,
        customerId,
        limit,
        period,
        amount: new ExactMoney(0),
        count: 0,
        transactions: [],
      };
      totals.set(key, total);
    }
    total.amount = total.amount.plus(cashback);
    if (!new ExactMoney(cashback).isZero()) total.count += 1;
    total.transactions.push(p.transaction_id);
  }
  return [...totals.values()];
}

/**
 * Checks that a total adds up to at most its limit's amount (when the limit has one) rounded down
 * to `scale` places, the amount a budget or a cap can spend.
 * @param t - the total of one offer (and customer) in one period
 * @param scale - the decimal places of cashback
 * @param limitName - the limit as the error names it: `the budget`, `the customer_cap's amount`
 * @returns nothing
 * @throws Error naming the payments, their sum and the limit when the sum is above it
 */
export function assertAmountWithinLimit(t: FundingTotal, scale: number, limitName: string): void {
  const amount = t.limit.amount;
  if (amount === undefined) return;
  const limit = new ExactMoney(amount.decimal).toDecimalPlaces(scale, Money.ROUND_DOWN);
  if (t.amount.gt(limit)) {
    throw new Error(
      `${describeTotal(t)} add up to ${t.amount.toFixed()}, more than ${limitName} of ${amount.text} (${limit.toFixed(scale)} at ${scale} places)`,
    );
  }
}

/** Names the payments of a total in an error message. */
export function describeTotal(t: FundingTotal): string {
  const shown = t.transactions
    .slice(0, 5)
    .map((id) => `'${id}'`)
    .join(', ');
  const more = t.transactions.length > 5 ? ` and ${t.transactions.length - 5} more` : '';
  const whose = t.customerId === undefined ? '' : ` of customer '${t.customerId}'`;
  return `the payments${whose} of offer ${t.offerId} in ${t.period} (transactions ${shown}${more})`;
}
