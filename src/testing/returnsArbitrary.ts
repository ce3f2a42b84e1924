import fc from 'fast-check';
import { formatDay, parseDay } from '../model/day.js';
import { assertKnownKeys } from '../model/knownKeys.js';
import { ExactMoney } from '../model/money.js';
import { wholeNumber } from '../model/wholeNumber.js';
import { isRecord } from '../rules/_internals/isRecord.js';

/**
 * Options of {@link returnsArbitrary}. Every field is optional.
 * @public
 */
export interface ReturnsArbitraryOptions {
  /**
   * Most returns.
   * @defaultValue `10`
   */
  readonly maxReturns?: number;
  /**
   * Most days a return is dated after its transaction: enough to fall before and after the
   * payment day of offers with a warranty up to this many days.
   * @defaultValue `40`
   */
  readonly maxDaysAfter?: number;
  /**
   * Share of returns that carry a `reported_at` (docs/concepts.md, Late returns): when the return
   * arrived, from its own date to `maxReportDays` days after it. The others arrive at their date.
   * @defaultValue `0.5`
   */
  readonly reportedRate?: number;
  /**
   * Most days a return's `reported_at` is after its date: enough that many arrive after their
   * payment's day (and claw back) while dated before it.
   * @defaultValue `60`
   */
  readonly maxReportDays?: number;
  /**
   * Share of invalid returns: a field missing or malformed, a negative amount, a date before the
   * transaction, a transaction no one stored, a `reported_at` before the date or unreadable.
   * @defaultValue `0.15`
   */
  readonly invalidRate?: number;
  /**
   * Share of returns that reuse an earlier return's id.
   * @defaultValue `0.1`
   */
  readonly duplicateRate?: number;
}

/** The transactions a return may name: those with a string id and a string date. */
interface Target {
  readonly id: string;
  readonly date: string;
  readonly amount: unknown;
}

const KEYS: readonly (keyof ReturnsArbitraryOptions)[] = [
  'maxReturns',
  'maxDaysAfter',
  'reportedRate',
  'maxReportDays',
  'invalidRate',
  'duplicateRate',
];

/** `date` (a date-time text) moved by `days` whole days, its time and offset kept. */
function shiftDays(date: string, days: number): string {
  const day = parseDay(date.slice(0, 10));
  return day === undefined ? date : formatDay(day + days) + date.slice(10);
}

/**
 * A `reported_at` at or after `date`: `days` whole days later, at its own time or, on a later
 * day, at `hours` o'clock when that is later in the day (so the arrival may fall after a payment
 * day's midnight while the date is before it). The offset of `date` is kept, so the instant is
 * never before it.
 */
function later(date: string, days: number, hours: number): string {
  const shifted = shiftDays(date, days);
  if (days === 0 || shifted.length < 19) return shifted;
  const hour = Number(shifted.slice(11, 13));
  if (!(hours > hour)) return shifted;
  return `${shifted.slice(0, 11)}${String(hours).padStart(2, '0')}${shifted.slice(13)}`;
}

/** A share of `amount` (tenths), cut to cents; `undefined` when that is not above 0. */
function partOf(amount: unknown, tenths: number): string | undefined {
  try {
    const part = new ExactMoney(String(amount)).times(tenths).div(10).toDecimalPlaces(2, 1);
    return part.gt(0) ? part.toFixed() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Returns of a data set's transactions (docs/concepts.md, Returns) for `replay({ ..., returns })`
 * and `engine.addReturns`: whole (no `amount`) and partial, several of one transaction, dated from
 * the transaction's own instant to `maxDaysAfter` days later (before and after the payment day), of
 * paid, unpaid and history transactions, mixed with invalid ones and reused ids at controllable
 * rates. Some carry a `reported_at` up to `maxReportDays` after their date, so that some arrive
 * once their payment is confirmed (late returns: clawbacks, or `late_return`). Returns name the
 * transactions of `data` by id, so any id, stored or not, may come up.
 * @param data - the history and transactions the returns are of
 * @param options - sizes and rates
 * @returns an arbitrary of return lists, in no date order
 * @throws TypeError for an unknown option; RangeError for a bad size or rate
 * @example
 * ```ts
 * fc.assert(fc.property(scenarioArbitrary().chain((s) =>
 *   returnsArbitrary(s).map((returns) => ({ ...s, returns }))), (s) => {
 *   invariants.returns(s, replay(s));
 * }));
 * ```
 * @public
 */
export function returnsArbitrary(
  data: { readonly history?: readonly unknown[]; readonly transactions: readonly unknown[] },
  options: ReturnsArbitraryOptions = {},
): fc.Arbitrary<unknown[]> {
  assertKnownKeys(options, KEYS, 'returnsArbitrary options');
  const maxReturns = wholeNumber(options.maxReturns ?? 10, 'maxReturns');
  const maxDays = wholeNumber(options.maxDaysAfter ?? 40, 'maxDaysAfter');
  const maxReportDays = wholeNumber(options.maxReportDays ?? 60, 'maxReportDays');
  const reported = options.reportedRate ?? 0.5;
  const invalid = options.invalidRate ?? 0.15;
  const duplicate = options.duplicateRate ?? 0.1;
  for (const [name, r] of [
    ['reportedRate', reported],
    ['invalidRate', invalid],
    ['duplicateRate', duplicate],
  ] as const) {
    if (!(r >= 0 && r <= 1)) throw new RangeError(`${name} must be between 0 and 1, got ${r}`);
  }
  const targets: Target[] = [];
  for (const t of [...(data.history ?? []), ...data.transactions]) {
    if (isRecord(t) && typeof t.transaction_id === 'string' && typeof t.date === 'string') {
      targets.push({ id: t.transaction_id, date: t.date, amount: t.amount });
    }
  }
  if (targets.length === 0) return fc.constant([]);
  // Without bias: fast-check's lean to small values would make most returns of the first
  // transaction, on its own day, and flawed.
  const one = fc.noBias(
    fc.record({
      target: fc.nat(targets.length - 1),
      days: fc.nat(maxDays),
      // 0 returns the whole; 1 to 9 tenths of the amount.
      tenths: fc.nat(9),
      // Per mille: doubles are drawn mostly near 0, which would make most returns flawed.
      roll: fc.nat(999),
      flaw: fc.nat(7),
      reuse: fc.nat(99),
      // Per mille, as `roll`; then days after the return's date, and an hour later that day.
      report: fc.nat(999),
      reportDays: fc.nat(maxReportDays),
      reportHours: fc.nat(23),
    }),
  );
  return fc.array(one, { maxLength: maxReturns }).map((draws) =>
    draws.map((d, i): unknown => {
      const t = targets[d.target] as Target;
      const earlier = i === 0 ? undefined : `r${d.reuse % i}`;
      const roll = d.roll / 1000;
      const id = roll >= invalid && roll < invalid + duplicate && earlier ? earlier : `r${i}`;
      const amount = d.tenths === 0 ? undefined : partOf(t.amount, d.tenths);
      const date = shiftDays(t.date, d.days);
      const reportedAt =
        d.report / 1000 < reported ? later(date, d.reportDays, d.reportHours) : undefined;
      const item: Record<string, unknown> = {
        return_id: id,
        transaction_id: t.id,
        date,
        ...(amount === undefined ? {} : { amount }),
        ...(reportedAt === undefined ? {} : { reported_at: reportedAt }),
      };
      return roll < invalid ? flawed(item, d.flaw, t) : item;
    }),
  );
}

/** A return made invalid one way. */
function flawed(item: Record<string, unknown>, flaw: number, t: Target): unknown {
  switch (flaw) {
    case 0:
      return { ...item, amount: -1 };
    case 1:
      return { ...item, date: shiftDays(t.date, -1) };
    case 2:
      return { ...item, transaction_id: 'tx-nobody' };
    case 3: {
      const { return_id: _, ...rest } = item;
      return rest;
    }
    case 4:
      return { ...item, date: '2025-02-30T10:00:00' };
    case 5:
      return { ...item, amount: `${String(t.amount)}1` };
    case 6:
      // Arrived before it was made: `invalid_return` (docs/concepts.md, Late returns).
      return { ...item, reported_at: shiftDays(String(item.date), -1) };
    default:
      return { ...item, reported_at: '2025-06-31T09:00:00' };
  }
}
