import { ExactMoney, type MoneyValue } from '../model/money.js';

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
}

/** One row of held-back cashback: the key, both sets' figures and candidate minus baseline. @public */
export interface HeldBackRow {
  /** `total`, or the `offer_id` of the best offer with no budget and no cap. */
  readonly key: string;
  /** Figures of the baseline. */
  readonly baseline: HeldBackFigures;
  /** Figures of the candidate. */
  readonly candidate: HeldBackFigures;
  /** Candidate minus baseline. */
  readonly difference: HeldBackFigures;
}

/** Cashback held back by caps and budgets in both sets. @public */
export interface BacktestHeldBack {
  /** Over all transactions. */
  readonly total: HeldBackRow;
  /** By the best offer with no budget and no cap, in id order; offers that held nothing back are left out. */
  readonly byOffer: readonly HeldBackRow[];
}

/** What one set held back in one row. */
class Held {
  transactions = 0;
  readonly byCheck: Record<FundingCheck, MoneyValue> = {
    customer_cap: new ExactMoney(0),
    budget: new ExactMoney(0),
  };

  add(check: FundingCheck, amount: MoneyValue): void {
    this.transactions++;
    this.byCheck[check] = this.byCheck[check].plus(amount);
  }

  plus(other: Held): Held {
    const sum = new Held();
    sum.transactions = this.transactions + other.transactions;
    for (const c of ['customer_cap', 'budget'] as const) {
      sum.byCheck[c] = this.byCheck[c].plus(other.byCheck[c]);
    }
    return sum;
  }
}

/** What one offer set held back, by offer and check. */
export class HeldBackTally {
  readonly byOffer = new Map<number, Held>();

  /**
   * Counts a transaction paid less than the best offer with no budget and no cap would have paid.
   * @param offerId - that offer
   * @param check - its check that held the cashback back
   * @param amount - what it would have paid less what was paid, > 0
   */
  add(offerId: number, check: FundingCheck, amount: MoneyValue): void {
    let held = this.byOffer.get(offerId);
    if (held === undefined) {
      held = new Held();
      this.byOffer.set(offerId, held);
    }
    held.add(check, amount);
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
  const figures = (h: Held): HeldBackFigures => {
    const { customer_cap, budget } = h.byCheck;
    return {
      transactions: h.transactions,
      cashback: customer_cap.plus(budget).toFixed(scale),
      byCheck: { customer_cap: customer_cap.toFixed(scale), budget: budget.toFixed(scale) },
    };
  };
  const difference = (b: Held, c: Held): HeldBackFigures => {
    const minus = new Held();
    minus.transactions = c.transactions - b.transactions;
    for (const k of ['customer_cap', 'budget'] as const) {
      minus.byCheck[k] = c.byCheck[k].minus(b.byCheck[k]);
    }
    return figures(minus);
  };
  const row = (key: string, b: Held, c: Held): HeldBackRow => ({
    key,
    baseline: figures(b),
    candidate: figures(c),
    difference: difference(b, c),
  });
  const ids = [...new Set([...baseline.byOffer.keys(), ...candidate.byOffer.keys()])].sort(
    (a, b) => a - b,
  );
  let b = new Held();
  let c = new Held();
  const byOffer = ids.map((id) => {
    const bo = baseline.byOffer.get(id) ?? new Held();
    const co = candidate.byOffer.get(id) ?? new Held();
    b = b.plus(bo);
    c = c.plus(co);
    return row(String(id), bo, co);
  });
  return { total: row('total', b, c), byOffer };
}
