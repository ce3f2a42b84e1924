import { compileOfferSet } from '../../matching/compileOffers.js';
import type { WallClock } from '../../model/dateTime.js';
import { ageOn } from '../../model/day.js';
import { assertKnownKeys } from '../../model/knownKeys.js';
import { ExactMoney as Money, type MoneyValue } from '../../model/money.js';
import { type ResolvedOptions, resolveCoreOptions } from '../../model/options.js';
import type { ParsedCustomer } from '../../model/parseCustomer.js';
import {
  type ParsedTransaction,
  type ParseResult,
  parseTransaction,
} from '../../model/parseTransaction.js';
import { describeValue } from '../../rules/_internals/describe.js';
import { screenCustomers } from '../customers.js';
import type { Outcome } from '../outcome.js';
import {
  type CreateReplayOptions,
  type ReplaySessionOptions,
  SESSION_OPTION_KEYS,
} from '../replay/options.js';
import { openReplay, type ReplayCore } from '../replay/ReplayCore.js';
import type { ReplayData } from '../replay/ReplayData.js';
import { dateOf, ReturnCursor } from '../replay/ReturnCursor.js';
import { requireArray } from '../requireInput.js';
import type { ReplaySummary } from '../SummaryBuilder.js';
import type { BacktestFigures, BacktestRow } from './BacktestRow.js';
import { type BacktestCharts, backtestCharts } from './backtestCharts.js';
import {
  type BacktestBudgets,
  fundingResult,
  type SetFunding,
  setFunding,
} from './backtestFunding.js';
import { type BacktestLiability, backtestLiability } from './backtestLiability.js';
import type { BacktestHeldBack } from './HeldBack.js';

// The rows live in their own module, shared with the charts built from them.
export type { BacktestRow } from './BacktestRow.js';

/** What a backtest replays: two offer sets over one data set. @public */
export interface BacktestData {
  /** The offers in force (JSON shape). */
  readonly baseline: readonly unknown[];
  /** The offers to compare with them. */
  readonly candidate: readonly unknown[];
  /** Customers, applied first. */
  readonly customers: readonly unknown[];
  /** Activations (docs/concepts.md, Activation; `date` required), known from the start. */
  readonly activations?: readonly unknown[];
  /** History transactions, applied after the customers. */
  readonly history?: readonly unknown[];
  /** The transactions, in date order (an array, an iterable or an async iterable). */
  readonly transactions: AsyncIterable<unknown> | Iterable<unknown>;
  /**
   * Returns, merged with the transactions by date-time as `replay` merges them (docs/replay.md,
   * Returns), decided under each set.
   */
  readonly returns?: readonly unknown[];
}

/**
 * Cashback of one offer set as decided, taken back by returns and net of returns (docs/backtest.md,
 * Returns): the figures of the row `BacktestResult.returns`. Exact decimal strings with `scale`
 * places.
 * @public
 */
export interface NetFigures {
  /** Cashback as decided: the total row's. */
  readonly decided: string;
  /** Cashback the returns' adjustments took back. */
  readonly adjusted: string;
  /** Cashback net of returns: the sum of the payments' current cashback. */
  readonly net: string;
}

/** What `backtest` returns: the difference tables and the chart specifications. @public */
export interface BacktestResult {
  /** Both sets over all transactions. */
  readonly total: BacktestRow;
  /** By `offer_id` of the payment, in id order. */
  readonly byOffer: readonly BacktestRow[];
  /** By month of the transaction's day, `YYYY-MM`. */
  readonly byMonth: readonly BacktestRow[];
  /** By day of the transaction, `YYYY-MM-DD`: what the cashback-per-day chart draws. */
  readonly byDay: readonly BacktestRow[];
  /**
   * By customer segment: `age` (band on the transaction's day: `18-24`, `25-34`, `35-44`,
   * `45-54`, `55-64`, `65+`, `<18`), `gender` (trimmed, lower-cased) and `audience` (`new`: no
   * stored transaction of the customer before this one, history included; `returning`).
   */
  readonly bySegment: {
    readonly age: readonly BacktestRow[];
    readonly gender: readonly BacktestRow[];
    readonly audience: readonly BacktestRow[];
  };
  /**
   * By the merchant category code (`merchant.category_code`, MCC) of the paid transaction;
   * present, with `byReward`, only when an offer of either set has a `reward` or a `scope`
   * (docs/concepts.md, Rewards and scopes), so a backtest of merchant-bound discounts is as before.
   */
  readonly byCategory?: readonly BacktestRow[];
  /**
   * By the reward type of the offer that paid (`percent`, a `discount` included; `fixed`;
   * `tiers`); present with `byCategory`.
   */
  readonly byReward?: readonly BacktestRow[];
  /**
   * Cashback as decided, taken back by returns and net of returns, over all transactions (key
   * `total`); present only when `returns` were given.
   */
  readonly returns?: BacktestRow<NetFigures>;
  /**
   * Each budget's burn, per offer with a budget and per period: cashback by day as decided and
   * the day it ran out (docs/backtest.md, Budgets and caps); present only when an offer of either
   * set has a budget.
   */
  readonly budgets?: BacktestBudgets;
  /**
   * Cashback that caps and budgets held back, as decided: per transaction, what the best offer
   * would have paid with no budget and no cap less what was paid, by offer and by check
   * (docs/backtest.md, Budgets and caps); present only when an offer of either set has a budget
   * or a cap.
   */
  readonly heldBack?: BacktestHeldBack;
  /**
   * Both sets' cashback as of one instant, split into pending, confirmed, cancelled and clawed
   * back: the program's liability on that day under each set (docs/backtest.md, Liability).
   */
  readonly liability: BacktestLiability;
  /**
   * Each set's replay summary (outcomes by code, totals by offer, returns when given, the
   * liability).
   */
  readonly summaries: { readonly baseline: ReplaySummary; readonly candidate: ReplaySummary };
  /** Vega-Lite specifications of the report's charts, data inlined. */
  readonly charts: BacktestCharts;
}

// asOf and lateReturns as `createReplay` takes them: both sets are judged at one instant.
const BACKTEST_OPTION_KEYS: readonly string[] = SESSION_OPTION_KEYS;
const DATA_KEYS: readonly string[] = [
  'baseline',
  'candidate',
  'customers',
  'activations',
  'history',
  'transactions',
  'returns',
];
const CHUNK = 1000;

/** Running figures of one set in one row. */
class Tally {
  paid = 0;
  cashback: MoneyValue = new Money(0);
  readonly customers = new Set<string>();

  add(customerId: string, cashback: number): void {
    this.paid++;
    this.cashback = this.cashback.plus(String(cashback));
    this.customers.add(customerId);
  }

  figures(scale: number): BacktestFigures {
    return {
      paid: this.paid,
      cashback: this.cashback.toFixed(scale),
      customers: this.customers.size,
    };
  }
}

/** Rows keyed by a string, each with a tally per set. */
class Table {
  private readonly rows = new Map<string, [Tally, Tally]>();

  add(key: string, set: 0 | 1, customerId: string, cashback: number): void {
    let row = this.rows.get(key);
    if (row === undefined) {
      row = [new Tally(), new Tally()];
      this.rows.set(key, row);
    }
    row[set].add(customerId, cashback);
  }

  build(scale: number, order: (a: string, b: string) => number): BacktestRow[] {
    return [...this.rows.keys()].sort(order).map((key) => {
      const [b, c] = this.rows.get(key) as [Tally, Tally];
      return row(key, b.figures(scale), c.figures(scale), scale);
    });
  }
}

function row(
  key: string,
  baseline: BacktestFigures,
  candidate: BacktestFigures,
  scale: number,
): BacktestRow {
  return {
    key,
    baseline,
    candidate,
    difference: {
      paid: candidate.paid - baseline.paid,
      cashback: new Money(candidate.cashback).minus(baseline.cashback).toFixed(scale),
      customers: candidate.customers - baseline.customers,
    },
  };
}

const AGE_BANDS: readonly [number, string][] = [
  [65, '65+'],
  [55, '55-64'],
  [45, '45-54'],
  [35, '35-44'],
  [25, '25-34'],
  [18, '18-24'],
];

function ageBand(customer: ParsedCustomer, dayText: string): string {
  const monthDay = Number(dayText.slice(5, 7)) * 100 + Number(dayText.slice(8, 10));
  const age = ageOn(
    customer.birthYear,
    customer.birthMonthDay,
    Number(dayText.slice(0, 4)),
    monthDay,
  );
  return AGE_BANDS.find(([from]) => age >= from)?.[1] ?? '<18';
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const byNumber = (a: string, b: string): number => Number(a) - Number(b);

/**
 * Replays two offer sets over the same customers, history and transactions and returns the
 * difference per offer, per month, per day and per customer segment (paid transactions, cashback,
 * customers reached), and, with rewards or scopes, per merchant category and reward type, with
 * Vega-Lite specifications of the report's charts (docs/backtest.md).
 * Transactions are parsed once and decided by both sets chunk by chunk, so they may stream.
 * @param data - both offer sets, customers, optional history, and the transactions
 * @param options - the `createReplay` options (`asOf`, the instant of both sets' liability, and
 *   `lateReturns` included)
 * @returns the difference tables and chart specifications
 * @throws the errors of `createReplay` (an invalid offer of either set: OfferValidationError);
 *   TypeError for an unknown key of `data` or `options`
 * @example
 * ```ts
 * const doubled = offers.map((o) => (o.offer_id === 1 ? { ...o, discount: o.discount * 2 } : o));
 * const b = await backtest({ baseline: offers, candidate: doubled, customers, transactions });
 * console.log(b.byOffer.map((r) => `${r.key}: ${r.difference.cashback}`));
 * ```
 * @public
 */
export async function backtest(
  data: BacktestData,
  options: ReplaySessionOptions = {},
): Promise<BacktestResult> {
  assertKnownKeys(data, DATA_KEYS, 'backtest data', 'field');
  assertKnownKeys(options, BACKTEST_OPTION_KEYS, 'backtest options');
  const resolved = resolveCoreOptions(options);
  const scale = resolved.scale;
  const shared = {
    customers: data.customers,
    activations: data.activations ?? [],
    history: data.history ?? [],
  };
  if (data.returns !== undefined) requireArray(data.returns, 'backtest data.returns');
  const withReturns = { ...options, returns: data.returns !== undefined };
  const opened = [
    openSet(data.baseline, shared, withReturns, resolved),
    openSet(data.candidate, shared, withReturns, resolved),
  ] as const;
  const sessions = [opened[0].session, opened[1].session] as const;
  const rewardTypes = [opened[0].rewardTypes, opened[1].rewardTypes] as const;
  const shapes = rewardTypes.some((types) => types.shaped);
  const cursor = new ReturnCursor(data.returns ?? [], resolved.timeZone);
  const pushReturns = (date: WallClock | undefined | null): void => {
    const run = cursor.take(date);
    for (const { session, funding } of opened) funding.returns(run, session.pushReturns(run));
  };
  const customers = new Map(screenCustomers(data.customers).accepted.map((c) => [c.customerId, c]));
  // Customers with a stored transaction: history first, then every transaction decided.
  const seen = new Set<string>();
  const historyIds = new Set<string>();
  (data.history ?? []).forEach((h, i) => {
    const p = parseTransaction(h, i, resolved.timeZone, true);
    // Stored history: valid, of a known customer, not a duplicate.
    if (!p.ok || !customers.has(p.value.customerId) || historyIds.has(p.value.transactionId))
      return;
    historyIds.add(p.value.transactionId);
    seen.add(p.value.customerId);
  });
  const tables = {
    offer: new Table(),
    month: new Table(),
    day: new Table(),
    age: new Table(),
    gender: new Table(),
    audience: new Table(),
    category: new Table(),
    reward: new Table(),
    total: new Table(),
  };
  const count = (items: readonly ParseResult<ParsedTransaction>[]): void => {
    const outcomes = sessions.map((s) => s.pushParsed(items)) as [
      readonly Outcome[],
      readonly Outcome[],
    ];
    items.forEach((item, i) => {
      if (!item.ok) return;
      const tx = item.value;
      const customer = customers.get(tx.customerId);
      const returning = seen.has(tx.customerId);
      for (const set of [0, 1] as const) {
        const o = outcomes[set][i] as Outcome;
        if (!o.ok || customer === undefined) continue;
        const add = (table: Table, key: string): void =>
          table.add(key, set, tx.customerId, o.payment.cashback);
        add(tables.offer, String(o.payment.offer_id));
        add(tables.month, tx.when.dayText.slice(0, 7));
        add(tables.day, tx.when.dayText);
        add(tables.age, ageBand(customer, tx.when.dayText));
        add(tables.gender, customer.genderKey);
        add(tables.audience, returning ? 'returning' : 'new');
        add(tables.total, 'total');
        if (shapes) {
          add(tables.category, tx.merchant.category_code);
          add(tables.reward, rewardTypes[set].of.get(o.payment.offer_id) ?? 'percent');
        }
      }
      const stored = outcomes[0][i] as Outcome;
      if (
        stored.ok ||
        (stored.error.code !== 'duplicate_transaction' &&
          stored.error.code !== 'customer_not_found')
      ) {
        seen.add(tx.customerId);
      }
    });
  };
  await feed(data.transactions, resolved.timeZone, cursor, count, pushReturns);
  const zero: BacktestFigures = { paid: 0, cashback: new Money(0).toFixed(scale), customers: 0 };
  const total = tables.total.build(scale, byText)[0] ?? row('total', zero, zero, scale);
  const summaries = { baseline: sessions[0].summary(), candidate: sessions[1].summary() };
  const byOffer = tables.offer.build(scale, byNumber);
  const byDay = tables.day.build(scale, byText);
  const funding = fundingResult([opened[0].funding, opened[1].funding], scale);
  return {
    total,
    byOffer,
    byMonth: tables.month.build(scale, byText),
    byDay,
    bySegment: {
      age: tables.age.build(scale, byText),
      gender: tables.gender.build(scale, byText),
      audience: tables.audience.build(scale, byText),
    },
    ...(shapes
      ? {
          byCategory: tables.category.build(scale, byText),
          byReward: tables.reward.build(scale, byText),
        }
      : {}),
    ...(data.returns === undefined ? {} : { returns: netOf(summaries, scale) }),
    ...funding,
    liability: backtestLiability(summaries, scale),
    summaries,
    charts: backtestCharts(byDay, byOffer, summaries, funding.budgets),
  };
}

/**
 * Opens one set's session, its offers compiled first so that the books of its budgets and caps
 * know them.
 * @param offers - the set's offers (JSON)
 * @param shared - customers, activations and history
 * @param options - the session's options
 * @param resolved - the same, resolved
 * @returns the session and the books
 * @throws as `compileOfferSet` and `createReplay`
 */
function openSet(
  offers: readonly unknown[],
  shared: Omit<ReplayData, 'offers'>,
  options: CreateReplayOptions,
  resolved: ResolvedOptions,
): {
  readonly session: ReplayCore;
  readonly funding: SetFunding;
  readonly rewardTypes: RewardTypes;
} {
  if (!Array.isArray(offers)) {
    throw new TypeError(`backtest offers must be an array, got ${describeValue(offers)}`);
  }
  const set = compileOfferSet(offers, { operators: resolved.operators, scale: resolved.scale });
  const funding = setFunding(set, resolved, options.returns === true);
  const rewardTypes: RewardTypes = {
    of: new Map(set.compiled.map((o) => [o.offerId, o.reward.type])),
    shaped: set.compiled.some((o) => o.offer.reward !== undefined || o.scope !== undefined),
  };
  return {
    session: openReplay({ ...shared, offers: set }, options, funding.watch),
    funding,
    rewardTypes,
  };
}

/** The reward type of each offer of a set, and whether any has a `reward` or a `scope`. */
interface RewardTypes {
  readonly of: ReadonlyMap<number, string>;
  readonly shaped: boolean;
}

/**
 * Parses the transactions and hands them to `count` in chunks, with the returns that go before
 * each of them pushed first (docs/replay.md, Returns), then the returns after the last one.
 * @param transactions - the transactions, in order
 * @param timeZone - the zone of their dates
 * @param cursor - the returns not yet pushed
 * @param count - decides and tallies a chunk
 * @param pushReturns - pushes the returns that go before a date (`null`: all that are left)
 */
async function feed(
  transactions: AsyncIterable<unknown> | Iterable<unknown>,
  timeZone: string,
  cursor: ReturnCursor,
  count: (items: readonly ParseResult<ParsedTransaction>[]) => void,
  pushReturns: (date: WallClock | undefined | null) => void,
): Promise<void> {
  let chunk: ParseResult<ParsedTransaction>[] = [];
  let index = 0;
  for await (const t of transactions) {
    const item = parseTransaction(t, index++, timeZone);
    if (!cursor.done) {
      const date = item.ok ? item.value.when : dateOf(t, timeZone);
      if (cursor.before(date)) {
        if (chunk.length > 0) count(chunk);
        chunk = [];
        pushReturns(date);
      }
    }
    chunk.push(item);
    if (chunk.length === CHUNK) {
      count(chunk);
      chunk = [];
    }
  }
  if (chunk.length > 0) count(chunk);
  if (!cursor.done) pushReturns(null);
}

/** Cashback as decided, taken back and net, of both sets, from their summaries: one row. */
function netOf(
  summaries: { readonly baseline: ReplaySummary; readonly candidate: ReplaySummary },
  scale: number,
): BacktestRow<NetFigures> {
  const zero = new Money(0).toFixed(scale);
  const figures = (s: ReplaySummary): NetFigures => ({
    decided: s.totalCashback,
    adjusted: s.returns?.adjustedCashback ?? zero,
    net: s.returns?.netCashback ?? s.totalCashback,
  });
  const baseline = figures(summaries.baseline);
  const candidate = figures(summaries.candidate);
  const minus = (of: (f: NetFigures) => string): string =>
    new Money(of(candidate)).minus(of(baseline)).toFixed(scale);
  const difference: NetFigures = {
    decided: minus((f) => f.decided),
    adjusted: minus((f) => f.adjusted),
    net: minus((f) => f.net),
  };
  return { key: 'total', baseline, candidate, difference };
}
