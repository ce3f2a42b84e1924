import fc from 'fast-check';
import { explain } from '../core/explain.js';
import type { Outcome } from '../core/outcome.js';
import { createReplay } from '../core/replay/createReplay.js';
import { pushMerged } from '../core/replay/pushMerged.js';
import { ReturnCursor } from '../core/replay/ReturnCursor.js';
import { replay } from '../core/replay/replay.js';
import { type ReturnOutcome, sortReturnOutcomes } from '../core/returns/ReturnOutcome.js';
import { candidatesOf } from '../matching/candidates.js';
import { compileOfferSet } from '../matching/compileOffers.js';
import { assertKnownKeys } from '../model/knownKeys.js';
import { merchantKey } from '../model/normalise.js';
import { CORE_OPTION_KEYS, type CoreOptions, resolveCoreOptions } from '../model/options.js';
import { fundedDays, fundingThresholds } from './_internals/fuzzFunding.js';
import { customerArbitrary } from './customerArbitrary.js';
import { invariants } from './invariants/index.js';
import type { ReplayOutput } from './invariants/types.js';
import { returnsArbitrary } from './returnsArbitrary.js';
import { transactionArbitrary } from './transactionArbitrary.js';

/** A whole data set for `replay`, as a failing run prints it. @public */
export interface FuzzDataSet {
  /** The offers fuzzed. */
  readonly offers: readonly unknown[];
  /** Customers, one per id. */
  readonly customers: readonly unknown[];
  /** Activations, for offers with `requires_activation` (docs/concepts.md, Activation). */
  readonly activations: readonly unknown[];
  /** History transactions. */
  readonly history: readonly unknown[];
  /** Submitted transactions. */
  readonly transactions: readonly unknown[];
  /**
   * Returns of the history and transactions, some reported after their payment day
   * (docs/concepts.md, Late returns).
   */
  readonly returns: readonly unknown[];
}

/** Options of {@link fuzzOffers}: the core options offers load with, and the run's. @public */
export interface FuzzOffersOptions extends CoreOptions {
  /**
   * How many data sets to try.
   * @defaultValue `1000`
   */
  readonly runs?: number;
  /**
   * fast-check's seed; a failure names the seed that replays it.
   * @defaultValue a random seed
   */
  readonly seed?: number;
  /**
   * Most transactions in one data set.
   * @defaultValue `20`
   */
  readonly maxTransactions?: number;
  /**
   * The replay under test, for a test of this function itself or of a wrapper around replay.
   * @defaultValue `replay` of this package
   */
  readonly replay?: (data: FuzzDataSet, options: CoreOptions) => ReplayOutput;
}

/** What {@link fuzzOffers} found. @public */
export interface FuzzReport {
  /** How many data sets ran (up to the failing one). */
  readonly runs: number;
  /** The seed of this run: pass it back as `seed` to replay it. */
  readonly seed: number;
  /** The first property that failed, shrunk; absent when every run passed. */
  readonly failure?: {
    /** What broke, for people. */
    readonly message: string;
    /** The shrunk data set, ready for `replay` or `cashback replay`. */
    readonly counterexample: FuzzDataSet;
    /** fast-check's path to the failing run (its `path` option, with the seed). */
    readonly path: string;
  };
}

const OPTION_KEYS: readonly string[] = [
  ...CORE_OPTION_KEYS,
  'runs',
  'seed',
  'maxTransactions',
  'replay',
];

interface OfferShape {
  readonly offer_id?: unknown;
  readonly requires_activation?: unknown;
  readonly merchant_name?: unknown;
  readonly valid_from?: unknown;
  readonly valid_to?: unknown;
  readonly min_amount?: unknown;
  readonly max_cashback?: unknown;
  readonly discount?: unknown;
  readonly reward?: unknown;
  readonly scope?: unknown;
  readonly budget?: unknown;
  readonly customer_cap?: unknown;
}

/** The lists of an offer's scope as sent (`[]` for one it does not have). */
function scopeList(o: OfferShape, field: string): string[] {
  const list = (o.scope as Record<string, unknown> | null | undefined)?.[field];
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
}

/** Amounts where an offer's reward changes: tier starts, a fixed amount, `max_eligible_amount`. */
function rewardThresholds(o: OfferShape): number[] {
  const r = (o.reward ?? {}) as {
    amount?: unknown;
    max_eligible_amount?: unknown;
    tiers?: unknown;
  };
  const tiers = Array.isArray(r.tiers) ? r.tiers : [];
  return [r.amount, r.max_eligible_amount, ...tiers.map((t) => (t as { from?: unknown })?.from)]
    .map(num)
    .filter((a): a is number => a !== undefined);
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;
const num = (value: unknown): number | undefined => {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/**
 * Amounts at and around the offers' thresholds: `min_amount`, where a cap starts to bind, where a
 * reward changes (tier starts, fixed amounts, `max_eligible_amount`), and where one or two
 * payments spend a budget or a customer cap.
 */
function thresholds(offers: readonly OfferShape[]): number[] {
  const at = new Set<number>(fundingThresholds(offers));
  for (const o of offers) {
    const min = num(o.min_amount);
    const cap = num(o.max_cashback);
    const reward = o.reward as { type?: unknown; rate?: unknown } | undefined;
    const rate = num(o.discount) ?? (reward?.type === 'percent' ? num(reward.rate) : undefined);
    if (min !== undefined) at.add(min);
    if (cap !== undefined && rate !== undefined && rate > 0) at.add((cap * 100) / rate);
    for (const a of rewardThresholds(o)) at.add(a);
  }
  return [...at]
    .flatMap((a) => [a - 0.01, a, a + 0.01])
    .filter((a) => a > 0)
    .map((a) => Number(a.toFixed(2)));
}

/**
 * The merchants transactions are aimed at: the offers' names, those their scopes list or exclude,
 * and their scopes' merchant ids and category codes, besides others that no offer names.
 */
function aimedMerchants(offers: readonly OfferShape[]) {
  const names = offers.flatMap((o) => [
    ...(text(o.merchant_name) === undefined ? [] : [text(o.merchant_name) as string]),
    ...scopeList(o, 'merchants'),
    ...scopeList(o, 'exclude_merchants'),
  ]);
  const ids = [...new Set(['m-1', ...offers.flatMap((o) => scopeList(o, 'merchant_ids'))])];
  const codes = [...new Set(['5999', ...offers.flatMap((o) => scopeList(o, 'mcc'))])];
  return {
    names: [...new Set(names)],
    other: fc.record({ id: fc.constantFrom(...ids), category_code: fc.constantFrom(...codes) }),
  };
}

/** Customers, history and transactions aimed at the offers: their merchants, dates and amounts. */
function dataSets(offers: readonly OfferShape[], maxTransactions: number) {
  const aim = aimedMerchants(offers);
  const merchants = aim.names;
  const froms = offers
    .map((o) => text(o.valid_from))
    .filter((d) => d !== undefined)
    .sort();
  const tos = offers
    .map((o) => text(o.valid_to))
    .filter((d) => d !== undefined)
    .sort();
  const dates = { from: froms[0] ?? '2025-01-01', to: tos.at(-1) ?? '2025-12-31' };
  const customerIds = ['c1', 'c2', 'c3', 'c4'];
  const aimed = thresholds(offers);
  const amount = fc.oneof(
    ...(aimed.length > 0 ? [fc.constantFrom(...aimed)] : []),
    fc.integer({ min: 1, max: 50_000 }).map((cents) => cents / 100),
  );
  const tx = () =>
    fc
      .tuple(
        transactionArbitrary({
          customerIds,
          ...(merchants.length > 0 ? { merchants } : {}),
          dates,
          offsets: false,
          wideAmounts: false,
        }),
        amount,
        aim.other,
      )
      .map(([t, a, m]) => ({ ...t, amount: a, merchant: { ...t.merchant, ...m } }));
  return fc
    .record({
      customers: fc.uniqueArray(customerArbitrary({ customerIds }), {
        selector: (c) => c.customer_id,
        minLength: 1,
        maxLength: customerIds.length,
      }),
      history: fc.array(tx(), { maxLength: 8 }),
      transactions: fc.array(tx(), { minLength: 1, maxLength: maxTransactions }),
      activations: activationsFor(offers, customerIds, dates),
      days: fundedDays(offers, dates, maxTransactions),
      cuts: fc.array(fc.nat(), { maxLength: 4 }),
      order: fc.array(fc.nat(), { minLength: offers.length, maxLength: offers.length }),
    })
    .map(({ customers, activations, history, transactions, days, cuts, order }) => ({
      data: {
        offers,
        customers,
        activations,
        // Distinct ids: duplicates are decided elsewhere, and would only blur these properties.
        history: history.map((h, i) => ({ ...h, transaction_id: `h${i + 1}` })),
        transactions: transactions.map((t, i) => {
          const day = days?.[i];
          const date = day === undefined ? t.date : `${day}${t.date.slice(10)}`;
          return { ...t, transaction_id: `t${i + 1}`, date };
        }),
      },
      cuts,
      order,
    }))
    .chain(({ data, cuts, order }) =>
      // Returns of those transactions, some reported after their payment day: they lower
      // payments, give budgets back, or claw back (docs/concepts.md, Late returns).
      returnsArbitrary(data, { maxReturns: 6, invalidRate: 0.05, duplicateRate: 0.05 }).map(
        (returns) => ({ data: { ...data, returns } satisfies FuzzDataSet, cuts, order }),
      ),
    );
}

/**
 * The outcomes of the data set pushed to a session in consecutive chunks cut at `at`, the returns
 * merged in by their arrival (docs/replay.md, Returns): the transactions' outcome keys, and the
 * returns' outcomes.
 */
function chunkedOutcomes(
  data: FuzzDataSet,
  at: readonly number[],
  core: CoreOptions,
): { transactions: string[]; returns: ReturnOutcome[] } {
  // Every purchase kept, as replay keeps them: transactions are not in date order here.
  const session = createReplay(data, {
    ...core,
    maxLatenessDays: Number.POSITIVE_INFINITY,
    returns: true,
  });
  const timeZone = resolveCoreOptions(core).timeZone;
  const cursor = new ReturnCursor(data.returns, timeZone);
  const transactions: string[] = [];
  const returns: ReturnOutcome[] = [];
  let from = 0;
  for (const cut of [...at, data.transactions.length]) {
    const merged = pushMerged(session, data.transactions.slice(from, cut), cursor, timeZone);
    transactions.push(...merged.outcomes.map(key));
    returns.push(...merged.returns);
    from = cut;
  }
  returns.push(...session.pushReturns(cursor.take(null)));
  return { transactions, returns };
}

/** The return outcomes of a result as the fuzzer compares them: errors by key and code. */
function returnLists(result: Pick<ReplayOutput, 'adjustments' | 'clawbacks' | 'returnErrors'>) {
  const errors = (result.returnErrors ?? []).map(({ key, code }) => ({ key, code }));
  return JSON.stringify([result.adjustments ?? [], result.clawbacks ?? [], errors]);
}

/**
 * Activations of the offers that require one, by some of the customers, dated anywhere in the
 * offers' validity or before it, so that some transactions come before them and some after.
 */
function activationsFor(
  offers: readonly OfferShape[],
  customerIds: readonly string[],
  dates: { from: string; to: string },
): fc.Arbitrary<unknown[]> {
  const gated = offers
    .filter((o) => o.requires_activation === true && typeof o.offer_id === 'number')
    .map((o) => o.offer_id as number);
  if (gated.length === 0) return fc.constant([]);
  const pair = fc.record({
    customer_id: fc.constantFrom(...customerIds),
    offer_id: fc.constantFrom(...gated),
    day: fc.oneof(fc.constant(dates.from), fc.constant(dates.to), fc.constant('2000-01-01')),
    hour: fc.integer({ min: 0, max: 23 }),
  });
  return fc
    .uniqueArray(pair, {
      selector: (a) => `${a.customer_id}/${a.offer_id}`,
      maxLength: customerIds.length * gated.length,
    })
    .map((list) =>
      list.map(({ customer_id, offer_id, day, hour }) => ({
        customer_id,
        offer_id,
        date: `${day}T${String(hour).padStart(2, '0')}:00:00`,
      })),
    );
}

const key = (o: Outcome) =>
  JSON.stringify(o.ok ? o.payment : { code: o.error.code, key: o.error.key });

function outcomesOf(result: ReplayOutput, transactions: readonly { transaction_id: string }[]) {
  const paid = new Map(result.payments.map((p) => [p.transaction_id, JSON.stringify(p)]));
  const failed = new Map(
    result.errors.map((e) => [e.key, JSON.stringify({ code: e.code, key: e.key })]),
  );
  return transactions.map(
    (t) => paid.get(t.transaction_id) ?? failed.get(t.transaction_id) ?? 'none',
  );
}

function fail(message: string): never {
  throw new Error(message);
}

/**
 * Fuzzes offers with fast-check: generates customers, history and transactions aimed at them
 * (their merchants, and the names, ids and category codes their scopes list or exclude; channels;
 * validity dates and amount thresholds, tier starts and fixed amounts included; for budgets and
 * caps, amounts that spend them and days close together) and checks, on each data set, the exported invariants,
 * that pushing the transactions in any chunks pays the same, that the offers' order changes
 * nothing, and that each outcome is the one `explain` gives where no candidate offer has a budget
 * or a cap (docs/testing.md, `cashback fuzz`). Deterministic for a given `seed`.
 * @param offers - offers in their JSON shape, e.g. an offers file
 * @param options - core options (`operators`, `scale`, …) and `runs`, `seed`, `maxTransactions`
 * @returns the runs made, the seed, and the first failure shrunk to a small data set
 * @throws OfferValidationError when an offer is invalid; TypeError for an unknown option
 * @example
 * ```ts
 * const report = fuzzOffers(myOffers, { runs: 200, seed: 42 });
 * if (report.failure) throw new Error(report.failure.message);
 * ```
 * @public
 */
export function fuzzOffers(
  offers: readonly unknown[],
  options: FuzzOffersOptions = {},
): FuzzReport {
  assertKnownKeys(options, OPTION_KEYS, 'fuzzOffers options');
  const { runs = 1000, seed, maxTransactions = 20, replay: underTest = replay, ...core } = options;
  const compiled = compileOfferSet(offers, { operators: core.operators, scale: core.scale });
  const run = (data: FuzzDataSet, cuts: readonly number[], order: readonly number[]) => {
    const result = underTest(data, core);
    invariants.all(data, result, core);
    const expected = outcomesOf(result, data.transactions as { transaction_id: string }[]);
    const at = [...new Set(cuts.map((c) => c % (data.transactions.length + 1)))].sort(
      (a, b) => a - b,
    );
    const chunked = chunkedOutcomes(data, at, core);
    if (JSON.stringify(chunked.transactions) !== JSON.stringify(expected)) {
      fail(
        `pushed in chunks at ${at.join(', ')}, the outcomes differ: ${JSON.stringify(chunked.transactions)} instead of ${JSON.stringify(expected)}`,
      );
    }
    const sorted = sortReturnOutcomes(chunked.returns);
    const returned = returnLists({ ...sorted, returnErrors: sorted.errors });
    if (returned !== returnLists(result)) {
      fail(
        `pushed in chunks at ${at.join(', ')}, the returns' outcomes differ: ${returned} instead of ${returnLists(result)}`,
      );
    }
    const shuffled = [...data.offers].sort(
      (a, b) => (order[data.offers.indexOf(a)] ?? 0) - (order[data.offers.indexOf(b)] ?? 0),
    );
    const again = outcomesOf(
      underTest({ ...data, offers: shuffled }, core),
      data.transactions as { transaction_id: string }[],
    );
    if (JSON.stringify(again) !== JSON.stringify(expected))
      fail('another order of the offers changes the outcomes');
    data.transactions.forEach((t, i) => {
      // explain's context holds no spending of budgets and caps: where such an offer is a
      // candidate, the funding invariants and the chunked replay above check the outcome instead.
      const m = (t as { merchant: Record<string, string> }).merchant;
      const candidates = candidatesOf(
        compiled,
        merchantKey(m.name ?? ''),
        m.id ?? '',
        m.category_code ?? '',
      );
      if (candidates?.some((o) => o.funded) === true) return;
      const id = (t as { customer_id: string }).customer_id;
      const customer = data.customers.find(
        (c) => (c as { customer_id: string }).customer_id === id,
      );
      const history = [...data.history, ...data.transactions.slice(0, i)];
      const context = { offers: compiled, customer, history, activations: data.activations };
      const verdict = key(explain(t, context, core).outcome);
      if (verdict !== expected[i]) {
        fail(
          `transaction ${(t as { transaction_id: string }).transaction_id}: replay gives ${expected[i]}, explain ${verdict}`,
        );
      }
    });
  };
  const details = fc.check(
    fc.property(dataSets(offers as OfferShape[], maxTransactions), ({ data, cuts, order }) =>
      run(data, cuts, order),
    ),
    { numRuns: runs, ...(seed === undefined ? {} : { seed }) },
  );
  if (!details.failed || details.counterexample === null)
    return { runs: details.numRuns, seed: details.seed };
  const [{ data }] = details.counterexample;
  const error = details.errorInstance;
  return {
    runs: details.numRuns,
    seed: details.seed,
    failure: {
      message: error instanceof Error ? error.message : String(error),
      counterexample: data,
      path: details.counterexamplePath ?? '',
    },
  };
}
