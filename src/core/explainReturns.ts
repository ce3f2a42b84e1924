import type { CompiledOfferSet } from '../matching/compileOffers.js';
import { ExactMoney } from '../model/money.js';
import type { ResolvedOptions } from '../model/options.js';
import type { Decision } from './decide.js';
import { ReturnBook } from './replay/ReturnBook.js';
import { parseReturns } from './returns/parseReturns.js';
import { sortReturnOutcomes } from './returns/ReturnOutcome.js';
import type { ReturnsExplanation } from './returns/ReturnsExplanation.js';

/**
 * What returns do to one decided transaction: decided after it by the replay's own book (so by
 * `decideReturns`), in array order.
 * @param decision - the decision of the one transaction
 * @param returns - its returns, as given
 * @param offers - the compiled offers
 * @param options - the resolved options
 * @returns the stored returns, what is left, the cashback now, the adjustments and errors
 * @throws TypeError when `returns` is not an array
 */
export function explainReturns(
  decision: Decision,
  returns: readonly unknown[],
  offers: CompiledOfferSet,
  options: ResolvedOptions,
): ReturnsExplanation {
  const book = new ReturnBook(offers, options);
  book.store(decision.accepted, decision.outcomes);
  const d = book.decide(parseReturns(returns, options.timeZone));
  const { adjustments, clawbacks, errors } = sortReturnOutcomes(d.outcomes);
  const tx = decision.accepted[0];
  let returned = new ExactMoney(0);
  for (const r of d.accepted) returned = returned.plus(r.amount);
  const paid = decision.outcomes[0];
  const last = adjustments.at(-1);
  const cashback = last?.cashback ?? (paid?.ok === true ? paid.payment.cashback : undefined);
  return {
    returns: d.accepted.map((r) => ({
      return_id: r.returnId,
      date: r.when.text,
      amount: r.amount,
    })),
    returned: returned.toFixed(),
    left: tx === undefined ? '0' : new ExactMoney(tx.amount.text).minus(returned).toFixed(),
    ...(cashback === undefined ? {} : { cashback }),
    adjustments,
    clawbacks,
    errors,
  };
}
