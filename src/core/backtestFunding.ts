import type { OfferSet } from '../matching/compileOffers.js';
import { type BudgetBurn, BurnBook } from './BudgetBurn.js';
import { watchFunding } from './fundingWatch.js';
import { type BacktestHeldBack, HeldBackTally, heldBackRows } from './HeldBack.js';
import type { DecisionObserver } from './replay/ReplayCore.js';

/** The burn of each set's budgets (docs/backtest.md, Budgets and caps). @public */
export interface BacktestBudgets {
  /** The baseline's budgets, by offer id then period. */
  readonly baseline: readonly BudgetBurn[];
  /** The candidate's. */
  readonly candidate: readonly BudgetBurn[];
}

/** What the backtest gathers of one set's budgets and caps. */
export interface SetFunding {
  /** Opens the set's session: `undefined` when no offer of the set has a budget or a cap. */
  readonly observe: DecisionObserver | undefined;
  readonly burn: BurnBook;
  readonly held: HeldBackTally;
  /** Whether an offer of the set has a budget; a cap. */
  readonly budgets: boolean;
  readonly funded: boolean;
}

/**
 * What the backtest gathers of one set's budgets and caps.
 * @param offers - the set's compiled offers
 * @param scale - decimal places
 * @returns the set's books and the observer of its session
 */
export function setFunding(offers: OfferSet, scale: number): SetFunding {
  const burn = new BurnBook(offers, scale);
  const held = new HeldBackTally();
  const funded = offers.offers.some((o) => o.funded);
  return {
    observe: funded ? watchFunding(offers, burn, held) : undefined,
    burn,
    held,
    budgets: offers.offers.some((o) => o.budget !== undefined),
    funded,
  };
}

/**
 * The result's fields of budgets and caps: `budgets` when either set has a budget, `heldBack`
 * when either has a budget or a cap.
 * @param sets - baseline and candidate
 * @param scale - decimal places
 * @returns the fields present
 */
export function fundingResult(
  sets: readonly [SetFunding, SetFunding],
  scale: number,
): { budgets?: BacktestBudgets; heldBack?: BacktestHeldBack } {
  const [b, c] = sets;
  return {
    ...(b.budgets || c.budgets
      ? { budgets: { baseline: b.burn.build(), candidate: c.burn.build() } }
      : {}),
    ...(b.funded || c.funded ? { heldBack: heldBackRows(b.held, c.held, scale) } : {}),
  };
}
