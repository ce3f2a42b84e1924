import { paymentStatus } from '../core/paymentStatus.js';
import type { Clawback } from '../core/returns/ReturnOutcome.js';
import { type Cashback, cashbackDecimal } from '../matching/cashback.js';
import type { Offer } from '../matching/offer.js';
import { parseDay } from '../model/day.js';
import type { RewardInput } from '../model/schemas.js';
import type { ClawbackRecord, PaymentRecord } from '../store/records.js';
import type { CashbackPaymentRecord, SeedOffer, SeedReward } from './results.js';

/** A reward with its amounts and rates as JSON numbers. */
function seedReward(r: RewardInput): SeedReward {
  switch (r.type) {
    case 'percent':
      return {
        type: 'percent',
        rate: Number(r.rate),
        ...(r.max_eligible_amount === undefined
          ? {}
          : { max_eligible_amount: Number(r.max_eligible_amount) }),
      };
    case 'fixed':
      return { type: 'fixed', amount: Number(r.amount) };
    case 'tiers':
      return {
        type: 'tiers',
        mode: r.mode,
        tiers: r.tiers.map((t) => ({ from: Number(t.from), rate: Number(t.rate) })),
      };
  }
}

/**
 * An offer in the partner API's shape, as `activeOffers` lists it and `offer.updated` carries it.
 * @param o - the offer as stored
 * @returns the offer with `age` and `gender` filled in and its amounts as JSON numbers
 */
export function seedOffer(o: Offer): SeedOffer {
  const { min_amount, max_cashback, budget, customer_cap, ...rest } = o;
  const { discount, reward } = o;
  // `discount` and `reward` are replaced where they stand (both are overwritten below whenever
  // present): the keys keep the order of the offer.
  return {
    ...(rest as Omit<typeof rest, 'discount' | 'reward'>),
    age: o.age ?? [],
    gender: o.gender ?? [],
    // Amounts go out as JSON numbers, as cashback does (docs/decisions.md, HTTP API).
    ...(discount === undefined ? {} : { discount: Number(discount) }),
    ...(reward === undefined ? {} : { reward: seedReward(reward) }),
    ...(min_amount === undefined ? {} : { min_amount: Number(min_amount) }),
    ...(max_cashback === undefined ? {} : { max_cashback: Number(max_cashback) }),
    // A budget without its period has the default, shown so partners need not know it.
    ...(budget === undefined
      ? {}
      : {
          budget: {
            amount: Number(budget.amount),
            period: budget.period ?? 'offer',
            ...(budget.on_exhaust === undefined ? {} : { on_exhaust: budget.on_exhaust }),
          },
        }),
    ...(customer_cap === undefined
      ? {}
      : {
          customer_cap: {
            ...(customer_cap.amount === undefined ? {} : { amount: Number(customer_cap.amount) }),
            ...(customer_cap.count === undefined ? {} : { count: customer_cap.count }),
            period: customer_cap.period,
          },
        }),
  };
}

/**
 * A stored payment as the partner API's cashback payment record, with its offer revision and its
 * status as of a day.
 * @param p - the stored payment
 * @param today - the day its status is judged on (the engine clock's, in its zone)
 * @returns the record, `date` being the payment day at midnight
 */
export function cashbackPaymentRecord(p: PaymentRecord, today: number): CashbackPaymentRecord {
  const cashback = Number(p.cashback_amount);
  const day = parseDay(p.payment_date) ?? Number.POSITIVE_INFINITY;
  return {
    transaction_id: p.transaction_id,
    country: p.country,
    city: p.city,
    date: `${p.payment_date}T00:00:00.000`,
    cashback_amount: cashback,
    offer_id: p.offer_id,
    customer_id: p.customer_id,
    offer_revision: p.offer_revision,
    status: paymentStatus(cashback === 0, day, today),
  };
}

/**
 * A clawback record as partners see it.
 * @param c - the stored clawback
 * @returns the clawback, its amount a JSON number
 */
export function clawbackOf(c: ClawbackRecord): Clawback {
  return {
    return_id: c.return_id,
    transaction_id: c.transaction_id,
    customer_id: c.customer_id,
    offer_id: c.offer_id,
    offer_revision: c.offer_revision,
    amount: Number(c.amount),
    date: c.date.slice(0, 23),
    reported_at: c.reported_at.slice(0, 23),
  };
}

/**
 * Cashback as the exact plain decimal text a store keeps (`0.62`, never `6.2e-1`), without
 * trailing zeros; a negative one (a change given back) with its sign.
 * @param c - the cashback
 * @param scale - decimal places of cashback
 * @returns the text
 */
export function cashbackText(c: Cashback, scale: number): string {
  if (!Number.isSafeInteger(c.units)) return cashbackDecimal(c, scale).toFixed();
  if (scale === 0) return String(c.units);
  // A ledger's change given back is negative.
  const sign = c.units < 0 ? '-' : '';
  const digits = String(Math.abs(c.units)).padStart(scale + 1, '0');
  const fraction = digits.slice(-scale).replace(/0+$/, '');
  const whole = digits.slice(0, -scale);
  return fraction === '' ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}
