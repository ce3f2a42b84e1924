import type { CompiledOfferSet } from '../../matching/compileOffers.js';
import type { ResolvedOptions } from '../../model/options.js';
import type { ChunkWatcher } from '../replay/ReplayCore.js';
import type { ReturnOutcome } from '../returns/ReturnOutcome.js';
import { type BudgetBurn, BurnBook } from './BudgetBurn.js';
import { watchFunding, withoutFunding } from './fundingWatch.js';
import { type BacktestHeldBack, HeldBackTally, heldBackRows } from './HeldBack.js';
import { HeldBackReturns } from './HeldBackReturns.js';

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
  readonly watch: ChunkWatcher | undefined;
  /** The burn of the set's budgets. */
  readonly burn: BurnBook;
  /** What the set's budgets and caps held back. */
  readonly held: HeldBackTally;
  /** Whether an offer of the set has a budget. */
  readonly budgets: boolean;
  /** Whether an offer of the set has a budget or a cap. */
  readonly funded: boolean;
  /** Takes a run of returns and the session's outcomes of them. */
  returns(run: readonly unknown[], outcomes: readonly ReturnOutcome[]): void;
}

/**
 * What the backtest gathers of one set's budgets and caps.
 * @param offers - the set's compiled offers
 * @param options - the resolved options
 * @param withReturns - whether the backtest has returns
 * @returns the set's books and the watcher of its session
 */
export function setFunding(
  offers: CompiledOfferSet,
  options: ResolvedOptions,
  withReturns: boolean,
): SetFunding {
  const burn = new BurnBook(offers, options.scale);
  const held = new HeldBackTally(withReturns);
  const funded = offers.compiled.some((o) => o.funded);
  const plain = funded ? withoutFunding(offers) : offers;
  const followed = funded && withReturns ? new HeldBackReturns(plain, options, held) : undefined;
  return {
    watch: funded ? watchFunding(offers, burn, held, plain, followed) : undefined,
    burn,
    held,
    budgets: offers.compiled.some((o) => o.budget !== undefined),
    funded,
    returns: (run, outcomes) => followed?.returns(run, outcomes),
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
