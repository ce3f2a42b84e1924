import type { CompiledOfferSet } from '../../matching/compileOffers.js';
import type { ResolvedOptions } from '../../model/options.js';
import type { ParsedTransaction } from '../../model/parseTransaction.js';
import type { Outcome } from '../outcome.js';
import { ReturnBook } from '../replay/ReturnBook.js';
import { parseReturns } from '../returns/parseReturns.js';
import type { ReturnOutcome } from '../returns/ReturnOutcome.js';
import type { HeldBackTally } from './HeldBack.js';

/** Errors of returns that were stored all the same (docs/concepts.md, Returns). */
const STORED: ReadonlySet<string> = new Set(['not_paid', 'after_warranty', 'late_return']);

/**
 * Follows the transactions a set held back through their returns (docs/backtest.md, Budgets and
 * caps): the payment's cashback from the session's own adjustments, and what the best unfunded
 * offer would pay from a second `ReturnBook`, the same decision, that keeps only those
 * transactions and their unfunded payments.
 */
export class HeldBackReturns {
  private readonly book: ReturnBook;

  /**
   * @param plain - the set's offers with no budget and no cap
   * @param options - the resolved options
   * @param held - the tally the changes go to
   */
  constructor(
    plain: CompiledOfferSet,
    private readonly options: ResolvedOptions,
    private readonly held: HeldBackTally,
  ) {
    this.book = new ReturnBook(plain, options);
  }

  /**
   * Keeps a transaction held back and its best unfunded payment.
   * @param tx - the transaction
   * @param best - its outcome with no budget and no cap, a payment
   */
  keep(tx: ParsedTransaction, best: Outcome): void {
    this.book.store([tx], [best]);
  }

  /**
   * Takes a run of returns as the set's session decided them.
   * @param run - the returns, as given
   * @param outcomes - the session's outcome of each
   */
  returns(run: readonly unknown[], outcomes: readonly ReturnOutcome[]): void {
    for (const o of outcomes) {
      if (o.ok && o.kind === 'adjustment') {
        this.held.returned(o.adjustment.transaction_id, 'paid', o.cashback);
      }
    }
    // Only the returns the session stored: the others change nothing there either.
    const stored = run.filter((_, i) => {
      const o = outcomes[i];
      return o?.ok === true || (o !== undefined && STORED.has(o.error.code));
    });
    if (stored.length === 0) return;
    const d = this.book.decide(parseReturns(stored, this.options.timeZone));
    for (const c of d.changes) this.held.returned(c.transactionId, 'best', c.cashback);
  }
}
