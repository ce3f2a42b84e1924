import { decide } from '../core/decide.js';
import { type Explanation, explainParsed } from '../core/explain.js';
import { parseTransactions } from '../core/parseTransactions.js';
import type { ParsedTransaction, ParseResult } from '../model/parseTransaction.js';
import type { EngineContext } from './EngineContext.js';
import { explainStored } from './explainStored.js';
import { FundingReads, spentFrom } from './funding.js';
import { loadBatchState } from './loadBatchState.js';

/**
 * `engine.explain`: why a transaction would get what it gets now, against the partner's stored
 * state, budgets and caps included; for a stored transaction with returns, what they did.
 * @param ctx - the engine
 * @param partner - the tenant, already checked
 * @param transaction - the transaction as sent
 * @returns the explanation
 */
export async function explainTransaction(
  ctx: EngineContext,
  partner: string,
  transaction: unknown,
): Promise<Explanation> {
  const items = parseTransactions([transaction], ctx.options.timeZone);
  const offers = await ctx.offers.current();
  const { state } = await loadBatchState(ctx, partner, items, offers, true);
  const item = items[0] as ParseResult<ParsedTransaction>;
  // What its offers' budgets and caps have spent, read (not held) for the explanation.
  const reads = new FundingReads();
  decide([item], { ...state, spent: reads.lookup });
  const funding = reads.ranges(offers);
  const totals =
    funding.ranges.length === 0 ? [] : await ctx.store.funding.hold(partner, funding.ranges);
  const spent = funding.ranges.length === 0 ? undefined : spentFrom(funding, totals, ctx.options);
  const explanation = explainParsed(item, { ...state, spent });
  // An id already stored: what its returns did (docs/engine.md, explain).
  if (!item.ok || explanation.outcome.ok) return explanation;
  if (explanation.outcome.error.code !== 'duplicate_transaction') return explanation;
  const returns = await explainStored(ctx, partner, item.value.transactionId);
  return returns === undefined ? explanation : { ...explanation, returns };
}
