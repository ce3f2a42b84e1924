import { ExactMoney, type MoneyValue } from '../../model/money.js';
import type { BacktestRow } from './BacktestRow.js';

/** The checks that hold cashback back (docs/concepts.md, Funding controls). @public */
export type FundingCheck = 'customer_cap' | 'budget';

/**
 * Cashback that caps and budgets held back in one offer set (docs/backtest.md, Budgets and caps):
 * per transaction, what the best offer would have paid with no budget and no cap, less what was
 * paid.
 * @public
 */
export interface HeldBackFigures {
  /** Transactions paid less than that (nothing, or less). */
  readonly transactions: number;
  /** What they were not paid, as decided, with `scale` places: the sum of `byCheck`. */
  readonly cashback: string;
  /** The same by the check of that best offer that held it back. */
  readonly byCheck: Readonly<Record<FundingCheck, string>>;
  /**
   * With returns only: for the same transactions, what that best offer would pay after their
   * returns less what the payments are after them (docs/backtest.md, Budgets and caps).
   */
  readonly netOfReturns?: {
    /** The sum of `byCheck`. */
    readonly cashback: string;
    /** By the same check as above. */
    readonly byCheck: Readonly<Record<FundingCheck, string>>;
  };
}

/** Cashback held back by caps and budgets in both sets. @public */
export interface BacktestHeldBack {
  /** Over all transactions: key `total`. */
  readonly total: BacktestRow<HeldBackFigures>;
  /**
   * By the best offer with no budget and no cap (key: its `offer_id`), in id order; offers that
   * held nothing back are left out.
   */
  readonly byOffer: readonly BacktestRow<HeldBackFigures>[];
}

const CHECKS = ['customer_cap', 'budget'] as const;
const zeros = (): Record<FundingCheck, MoneyValue> => ({
  customer_cap: new ExactMoney(0),
  budget: new ExactMoney(0),
});

/** What one set held back in one row. */
class Held {
  transactions = 0;
  readonly byCheck = zeros();
  /** Net of returns, when the backtest has returns. */
  net: Record<FundingCheck, MoneyValue> | undefined;

  /** The sum of two rows, or their difference with `sign` -1 (`other` minus this). */
  combine(other: Held, sign: 1 | -1): Held {
    const r = new Held();
    r.transactions = other.transactions + sign * this.transactions;
    const net = this.net ?? other.net;
    if (net !== undefined) r.net = zeros();
    for (const c of CHECKS) {
      r.byCheck[c] = other.byCheck[c].plus(this.byCheck[c].times(sign));
      if (r.net !== undefined) {
        r.net[c] = (other.net?.[c] ?? new ExactMoney(0)).plus(
          (this.net?.[c] ?? new ExactMoney(0)).times(sign),
        );
      }
    }
    return r;
  }
}

/** A transaction held back, followed through its returns. */
interface Followed {
  readonly offerId: number;
  readonly check: FundingCheck;
  /** What the best unfunded offer pays, after returns so far, exact text. */
  best: string;
  /** What the payment is, after returns so far (0 when none). */
  paid: string;
}

/** What one offer set held back, by offer and check. */
export class HeldBackTally {
  readonly byOffer = new Map<number, Held>();
  /** The transactions held back, by id, when returns are followed. */
  private readonly followed: Map<string, Followed> | undefined;

  /** @param withReturns - whether to follow the transactions held back through their returns */
  constructor(withReturns: boolean) {
    this.followed = withReturns ? new Map() : undefined;
  }

  /**
   * Counts a transaction paid less than the best offer with no budget and no cap would have paid.
   * @param offerId - that offer
   * @param check - its check that held the cashback back
   * @param transactionId - the transaction
   * @param best - what that offer would have paid
   * @param paid - what was paid (0 when nothing), less than `best`
   */
  add(
    offerId: number,
    check: FundingCheck,
    transactionId: string,
    best: MoneyValue,
    paid: MoneyValue,
  ): void {
    let held = this.byOffer.get(offerId);
    if (held === undefined) {
      held = new Held();
      this.byOffer.set(offerId, held);
    }
    held.transactions++;
    held.byCheck[check] = held.byCheck[check].plus(best.minus(paid));
    this.followed?.set(transactionId, {
      offerId,
      check,
      best: best.toFixed(),
      paid: paid.toFixed(),
    });
  }

  /** Whether the transactions held back are followed through their returns. */
  get followsReturns(): boolean {
    return this.followed !== undefined;
  }

  /**
   * A return changed a payment, or what the best unfunded offer would pay.
   * @param transactionId - the transaction, counted only when it was held back
   * @param side - which of the two
   * @param cashback - the new cashback, exact text
   */
  returned(transactionId: string, side: 'best' | 'paid', cashback: string): void {
    const f = this.followed?.get(transactionId);
    if (f !== undefined) f[side] = cashback;
  }

  /** The rows by offer, with the net of returns when returns are followed. */
  rows(): ReadonlyMap<number, Held> {
    if (this.followed === undefined) return this.byOffer;
    for (const held of this.byOffer.values()) held.net = zeros();
    for (const f of this.followed.values()) {
      const net = this.byOffer.get(f.offerId)?.net;
      if (net !== undefined) net[f.check] = net[f.check].plus(f.best).minus(f.paid);
    }
    return this.byOffer;
  }
}

/**
 * The held-back rows of both sets.
 * @param baseline - the baseline's tally
 * @param candidate - the candidate's tally
 * @param scale - decimal places
 * @returns the total and the rows by offer
 */
export function heldBackRows(
  baseline: HeldBackTally,
  candidate: HeldBackTally,
  scale: number,
): BacktestHeldBack {
  const sum = (byCheck: Record<FundingCheck, MoneyValue>) => ({
    cashback: byCheck.customer_cap.plus(byCheck.budget).toFixed(scale),
    byCheck: {
      customer_cap: byCheck.customer_cap.toFixed(scale),
      budget: byCheck.budget.toFixed(scale),
    },
  });
  const figures = (h: Held): HeldBackFigures => ({
    transactions: h.transactions,
    ...sum(h.byCheck),
    ...(h.net === undefined ? {} : { netOfReturns: sum(h.net) }),
  });
  const row = (key: string, b: Held, c: Held): BacktestRow<HeldBackFigures> => ({
    key,
    baseline: figures(b),
    candidate: figures(c),
    difference: figures(b.combine(c, -1)),
  });
  const [bRows, cRows] = [baseline.rows(), candidate.rows()];
  const ids = [...new Set([...bRows.keys(), ...cRows.keys()])].sort((a, b) => a - b);
  // Both sets follow returns or neither: the backtest has returns or not.
  const none = (): Held => {
    const h = new Held();
    if (baseline.followsReturns) h.net = zeros();
    return h;
  };
  let b = none();
  let c = none();
  const byOffer = ids.map((id) => {
    const bo = bRows.get(id) ?? none();
    const co = cRows.get(id) ?? none();
    b = b.combine(bo, 1);
    c = c.combine(co, 1);
    return row(String(id), bo, co);
  });
  return { total: row('total', b, c), byOffer };
}
