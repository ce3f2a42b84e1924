// The replay session: the one owner of what a replay decides beyond one batch (stored ids,
// duplicates across chunks, registered customers, date order, the purchases kept). `replay`,
// `createReplay`, `replayStream`, `backtest` and `cashback replay --workers N` all run on it.
import { compiledOfferSet, compileOfferSet } from '../../matching/compileOffers.js';
import type { WallClock } from '../../model/dateTime.js';
import { assertKnownKeys } from '../../model/knownKeys.js';
import { type ResolvedOptions, resolveCoreOptions } from '../../model/options.js';
import type { ParsedTransaction, ParseResult } from '../../model/parseTransaction.js';
import { describeValue } from '../../rules/_internals/describe.js';
import { type DecideState, decideWatched, type MatchWatcher } from '../decide.js';
import { FundingLedger } from '../FundingLedger.js';
import { Liability } from '../Liability.js';
import type { Outcome } from '../outcome.js';
import { parseTransactions } from '../parseTransactions.js';
import { parseReturns } from '../returns/parseReturns.js';
import type { ReturnOutcome } from '../returns/ReturnOutcome.js';
import { SummaryBuilder } from '../SummaryBuilder.js';
import type { ChunkFacts } from '../screening.js';
import { MARK } from '../screening.js';
import { classify } from './classify.js';
import { duplicateOutcome } from './duplicateOutcome.js';
import {
  asOfInstant,
  CREATE_OPTION_KEYS,
  type CreateReplayOptions,
  DEFAULT_LATENESS_DAYS,
  latenessDays,
  type ReplaySessionOptions,
} from './options.js';
import { PurchaseHistory } from './PurchaseHistory.js';
import { checkData, type ReplayData } from './ReplayData.js';
import type { ReplaySession } from './ReplaySession.js';
import { ReturnBook } from './ReturnBook.js';
import { ReturnTotals } from './ReturnTotals.js';
import { type ReplayStart, startReplay } from './startReplay.js';

/** A replay session with the steps its drivers call, beyond the public `push`. */
export interface ReplayCore extends ReplaySession {
  /** The session's time zone, resolved. */
  readonly timeZone: string;
  /**
   * Screens then decides a chunk already parsed (with `parseTransaction`), counting its outcomes
   * in the summary; throws as `push` does.
   */
  pushParsed(items: readonly ParseResult<ParsedTransaction>[]): readonly Outcome[];
  /** The first half of screening a chunk, by this session's customers and offers. */
  classify(items: readonly ParseResult<ParsedTransaction>[]): ChunkFacts;
  /**
   * Decides items that screening left (no duplicate among them), keeps their purchases and
   * returns their outcomes; the summary does not count them.
   */
  decideScreened(items: readonly ParseResult<ParsedTransaction>[]): readonly Outcome[];
}

/**
 * Sees each chunk the session is about to decide, with the state it is decided against, and
 * gives the watcher of its matches, if it wants to see them: the backtest's budget figures
 * (docs/backtest.md, Budgets and caps) read each match as `decide` made it.
 */
export type ChunkWatcher = (
  items: readonly ParseResult<ParsedTransaction>[],
  state: DecideState,
) => MatchWatcher | undefined;

/**
 * Opens a session as `createReplay` does, with the steps its drivers call.
 * @param data - offers, customers and optional history
 * @param options - the session's options
 * @param watch - sees each chunk's matches (see {@link ChunkWatcher})
 * @returns the session
 * @throws as `createReplay`
 */
export function openReplay(
  data: ReplayData,
  options: CreateReplayOptions = {},
  watch?: ChunkWatcher,
): ReplayCore {
  checkData(data, false);
  assertKnownKeys(options, CREATE_OPTION_KEYS, 'createReplay options');
  const { returns, ...session } = options;
  if (returns !== undefined && typeof returns !== 'boolean') {
    throw new TypeError(
      `createReplay options.returns must be a boolean, got ${describeValue(returns)}`,
    );
  }
  return replayCore(data, session, DEFAULT_LATENESS_DAYS, returns === true, watch);
}

/**
 * A session once its input and options are checked.
 * @param data - offers, customers and optional history
 * @param options - the session's options
 * @param defaultLateness - `maxLatenessDays` when the options leave it out
 * @param withReturns - whether the session takes returns (and keeps what they need)
 * @param watch - sees each chunk's matches
 * @returns the session
 */
export function replayCore(
  data: ReplayData,
  options: ReplaySessionOptions,
  defaultLateness: number,
  withReturns = false,
  watch?: ChunkWatcher,
): ReplayCore {
  const resolved: ResolvedOptions = resolveCoreOptions(options);
  const lateness = latenessDays(options.maxLatenessDays, defaultLateness);
  const offers = Array.isArray(data.offers)
    ? compileOfferSet(data.offers, { operators: resolved.operators, scale: resolved.scale })
    : compiledOfferSet(data.offers, 'data.offers');
  const start: ReplayStart = startReplay(
    offers,
    data.customers,
    data.history ?? [],
    resolved,
    lateness,
    data.activations ?? [],
  );
  const { customers, screener, rejected } = start;
  const purchases = new PurchaseHistory(offers, lateness);
  purchases.store(start.stored);
  // Only a session that takes returns keeps what they need: none costs nothing.
  // Budgets and caps follow the processing order (docs/replay.md, Funding controls).
  const counters = offers.compiled.some((o) => o.funded) ? new FundingLedger(resolved) : undefined;
  const book = withReturns ? new ReturnBook(offers, resolved, counters) : undefined;
  book?.store(start.stored);
  const returnTotals = withReturns ? new ReturnTotals(resolved.scale) : undefined;
  let returnOffset = 0;
  // What `decide` reads for items that screening left: none of them is a duplicate, and the
  // screener already holds their ids.
  const state: DecideState = {
    offers,
    options: resolved,
    customer: (id) => customers.get(id),
    hasTransaction: () => false,
    purchases: (customerId, key) => purchases.get(customerId, key),
    activation: start.activation,
    spent: counters?.spent,
  };
  const liability = new Liability(resolved.scale, asOfInstant(options.asOf, resolved.timeZone));
  const totals = new SummaryBuilder(resolved.scale, resolved.currency, liability);
  let offset = 0;

  const decideScreened = (items: readonly ParseResult<ParsedTransaction>[]): readonly Outcome[] => {
    const d = decideWatched(items, state, watch?.(items, state));
    counters?.payAll(d.funded);
    purchases.store(d.accepted);
    book?.store(d.accepted, d.outcomes);
    return d.outcomes;
  };
  const pushParsed = (items: readonly ParseResult<ParsedTransaction>[]): readonly Outcome[] => {
    // The screener throws for a late item before anything of the chunk is decided or recorded: a
    // chunk that throws leaves the session as it was.
    const facts = classify(items, customers, offers);
    const marks = screener.screen(facts);
    if (facts.latest !== undefined) liability.saw(facts.latest);
    const outcomes = withDuplicates(items, marks, decideScreened);
    for (const o of outcomes) totals.add(o);
    return outcomes;
  };
  return {
    rejected,
    timeZone: resolved.timeZone,
    pushParsed,
    classify: (items) => classify(items, customers, offers),
    decideScreened,
    push(transactions) {
      const items = parseTransactions(transactions, resolved.timeZone, false, offset);
      const outcomes = pushParsed(items);
      // Only once the chunk is decided: a chunk that threw leaves the keys where they were.
      offset += transactions.length;
      return outcomes;
    },
    pushReturns(returns) {
      if (book === undefined || returnTotals === undefined) {
        throw new TypeError(
          'pushReturns needs a session opened with createReplay options.returns: true',
        );
      }
      const items = parseReturns(returns, resolved.timeZone, returnOffset);
      const { outcomes } = book.decide(items);
      returnOffset += returns.length;
      outcomes.forEach((o, i) => {
        returnTotals.add(o);
        const item = items[i];
        if (item?.ok === true) liabilityOf(liability, book, item.value.reportedAt, o);
      });
      return outcomes;
    },
    summary: () => {
      const s = totals.build({
        customers: rejected.customers.length,
        history: rejected.history.length,
      });
      return returnTotals === undefined
        ? s
        : { ...s, returns: returnTotals.build(s.totalCashback) };
    },
    retained: () => ({
      customers: customers.size,
      transactionIds: screener.size,
      purchases: purchases.size,
      returnable: book?.size ?? 0,
    }),
  };
}

/**
 * Counts a return in the liability (docs/replay.md, Liability): its arrival, and what its
 * adjustment or clawback took.
 */
function liabilityOf(
  liability: Liability,
  book: ReturnBook,
  arrival: WallClock,
  o: ReturnOutcome,
): void {
  liability.saw(arrival);
  if (!o.ok) return;
  if (o.kind === 'clawback') {
    liability.clawedBackBy(arrival, o.amount);
    return;
  }
  const { transaction_id, payment_date } = o.adjustment;
  const decided = book.decided(transaction_id) ?? o.previous;
  liability.adjusted(arrival, payment_date, {
    previous: o.previous,
    cashback: o.cashback,
    decided,
  });
}

/**
 * The outcomes of a screened chunk in order: the duplicates' made here, the others' by `decide`.
 * @param items - the chunk
 * @param marks - what screening said of each item
 * @param decideScreened - decides the items that are not duplicates
 * @returns one outcome per item
 */
function withDuplicates(
  items: readonly ParseResult<ParsedTransaction>[],
  marks: Uint8Array,
  decideScreened: (items: readonly ParseResult<ParsedTransaction>[]) => readonly Outcome[],
): readonly Outcome[] {
  if (!marks.includes(MARK.duplicate)) return decideScreened(items);
  const fresh = items.filter((_, i) => marks[i] !== MARK.duplicate);
  const decided = decideScreened(fresh);
  let next = 0;
  return items.map((item, i) =>
    marks[i] === MARK.duplicate
      ? duplicateOutcome((item as { value: ParsedTransaction }).value.transactionId)
      : (decided[next++] as Outcome),
  );
}
