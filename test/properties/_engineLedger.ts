/**
 * An engine fed a scenario as `replay` decides it (docs/replay.md, Returns; Late returns), for the
 * properties of the payment ledger: transactions and returns in the merge order, each return
 * added alone with the engine's clock at its arrival, and the scenario's `revision` of the
 * offers loaded once the last transaction is added, before the returns after it.
 */
import { TZDate } from '@date-fns/tz';
import { type CashbackEngine, createEngine } from '../../src/engine/entry.js';
import type {
  Adjustment,
  Clawback,
  Payment,
  ReturnError,
  TransactionError,
} from '../../src/index.js';
import { isBefore, parseDateTime, type WallClock } from '../../src/model/dateTime.js';
import type { Scenario } from '../../src/testing/index.js';
import { arrivalOf, mergeOrder } from './_mergeOrder.js';
import type { DrawnOptions } from './_options.js';

/** The instant of a wall-clock time in a zone (a time a spring change skips moves on). */
function instantOf(w: WallClock, timeZone: string): Date {
  const inDay = w.seconds - w.day * 86_400;
  const month = Math.floor(w.monthDay / 100);
  return new Date(
    new TZDate(
      w.year,
      month - 1,
      w.monthDay % 100,
      w.hour,
      Math.floor(inDay / 60) % 60,
      inDay % 60,
      Math.floor(w.nanos / 1_000_000),
      timeZone,
    ).getTime(),
  );
}

/** The scenario's returns as an engine hears them, and the clock at each. */
export interface Heard {
  /** The returns, some with `reported_at` set to when the engine hears them. */
  readonly returns: unknown[];
  /** The engine's clock when each is added. */
  readonly clocks: Date[];
}

/**
 * The returns with arrivals an engine can have: an engine's clock only moves forward, so a
 * return listed after one that arrived later arrives with it (its `reported_at` set to that
 * one's); and a wall-clock time that a spring change skips arrives when the clock shows it. Other
 * returns are as given. Give `replay` the returns this gives, so that both hear the same.
 * @param returns - the scenario's returns
 * @param timeZone - the engine's zone
 * @returns the returns and the clocks
 */
export function heardReturns(returns: readonly unknown[], timeZone: string): Heard {
  const out: unknown[] = [];
  const clocks: Date[] = [];
  let latest: { w: WallClock; text: string; clock: Date } | undefined;
  for (const item of returns) {
    let r = item as Record<string, unknown>;
    let w = arrivalOf(r, timeZone);
    if (w === undefined) {
      out.push(r);
      clocks.push(latest?.clock ?? new Date('2000-01-01T00:00:00Z'));
      continue;
    }
    let text = String(r.reported_at ?? r.date);
    if (latest !== undefined && isBefore(w.seconds, w.nanos, latest.w)) {
      r = { ...r, reported_at: latest.text };
      w = latest.w;
      text = latest.text;
    }
    const clock = instantOf(w, timeZone);
    const shown = parseDateTime(clock.toISOString(), timeZone) as WallClock;
    if (shown.seconds !== w.seconds) {
      r = { ...r, reported_at: shown.text };
      w = shown;
      text = shown.text;
    }
    latest = { w, text, clock };
    out.push(r);
    clocks.push(clock);
  }
  return { returns: out, clocks };
}

/** What the engine answered, in `replay`'s shape. */
export interface EngineAnswers {
  readonly payments: Payment[];
  readonly errors: TransactionError[];
  readonly adjustments: Adjustment[];
  readonly clawbacks: Clawback[];
  readonly returnErrors: ReturnError[];
  /** How many returns came after the offers were reloaded. */
  readonly afterRevision: number;
}

/** A request's `#<index>` key counts within its request; replay's from the start of its list. */
function rekeyed<E extends { key: string }>(errors: readonly E[], offset: number): E[] {
  return errors.map((e) =>
    e.key.startsWith('#') ? { ...e, key: `#${Number(e.key.slice(1)) + offset}` } : e,
  );
}

/**
 * Feeds an engine on the memory store the scenario (its returns as `heardReturns` gives them).
 * @param scenario - the data set, its returns heard
 * @param clocks - the clock at each return
 * @param options - the engine's options
 * @param cuts - where runs of transactions are cut into requests
 * @returns the engine, its partner and its answers
 */
export async function feedEngine(
  scenario: Scenario,
  clocks: readonly Date[],
  options: DrawnOptions & { lateReturns?: 'clawback' | 'ignore' },
  cuts: readonly number[],
): Promise<{ engine: CashbackEngine; partner: string; answers: EngineAnswers; now: Date[] }> {
  let n = 0;
  // The clock before any return: the first day of the data, where nothing is due yet.
  const now = [new Date('2000-01-01T00:00:00Z')];
  const engine = createEngine({
    ...options,
    ids: () => `event-${++n}`,
    clock: () => now[0] as Date,
  });
  const partner = 'bank-a';
  await engine.upsertOffers(scenario.offers);
  await engine.upsertCustomers(partner, scenario.customers);
  await engine.addHistory(partner, scenario.history);
  const answers = {
    payments: [] as Payment[],
    errors: [] as TransactionError[],
    adjustments: [] as Adjustment[],
    clawbacks: [] as Clawback[],
    returnErrors: [] as ReturnError[],
    afterRevision: 0,
  };
  const runs = mergeOrder(scenario.transactions, scenario.returns ?? [], options.timeZone, cuts);
  let transactionsLeft = scenario.transactions.length;
  let revised = scenario.revision === undefined;
  for (const run of runs) {
    if (run.kind === 'transactions') {
      const r = await engine.addTransactions(partner, run.items);
      answers.payments.push(...r.details.payments);
      answers.errors.push(...rekeyed(r.details.errors, run.offset));
      transactionsLeft -= run.items.length;
      continue;
    }
    for (const [i, item] of run.items.entries()) {
      const index = run.offset + i;
      const revision = scenario.revision;
      if (!revised && revision !== undefined && transactionsLeft === 0) {
        if (index >= revision.beforeReturn) {
          await engine.upsertOffers(revision.offers);
          revised = true;
        }
      }
      if (revised && scenario.revision !== undefined) answers.afterRevision++;
      now[0] = clocks[index] as Date;
      const r = await engine.addReturns(partner, [item]);
      answers.adjustments.push(...r.adjustments);
      answers.clawbacks.push(...r.clawbacks);
      answers.returnErrors.push(...rekeyed(r.details.errors, index));
    }
  }
  return { engine, partner, answers, now };
}
