import fc from 'fast-check';
import { formatDay } from '../../model/day.js';
import { dayNumbers } from './dates.js';

/** What `fuzzOffers` reads of an offer's funding controls (docs/concepts.md, Funding controls). */
export interface FundedShape {
  readonly discount?: unknown;
  readonly reward?: unknown;
  readonly budget?: unknown;
  readonly customer_cap?: unknown;
}

const num = (value: unknown): number | undefined => {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

const amountOf = (limit: unknown): number | undefined =>
  typeof limit === 'object' && limit !== null
    ? num((limit as { amount?: unknown }).amount)
    : undefined;

/** Whether an offer has a budget or a customer cap. */
function isFunded(o: FundedShape): boolean {
  return o.budget !== undefined || o.customer_cap !== undefined;
}

/**
 * Transaction amounts whose cashback is a whole budget or cap amount, or half of one, so that one
 * or two purchases spend it and the next is paid in part or refused (for a discount or a percent
 * reward; other rewards reach their limits at whatever amounts they are drawn).
 * @param offers - the offers fuzzed
 * @returns the amounts, before `fuzzOffers` adds a cent either side
 */
export function fundingThresholds(offers: readonly FundedShape[]): number[] {
  const at: number[] = [];
  for (const o of offers) {
    const reward = o.reward as { type?: unknown; rate?: unknown } | undefined;
    const discount = num(o.discount) ?? (reward?.type === 'percent' ? num(reward.rate) : undefined);
    if (discount === undefined || discount <= 0) continue;
    for (const limit of [amountOf(o.budget), amountOf(o.customer_cap)]) {
      if (limit === undefined) continue;
      const whole = (limit * 100) / discount;
      // Amounts above 10^12 are invalid: they would test validation, not funding.
      if (whole <= 1e12) at.push(whole, whole / 2);
    }
  }
  return at;
}

/**
 * For offers with a budget or a cap: a day for each of `count` transactions, most within ten days
 * of one drawn day (so that days, ISO weeks and months fill up and turn over), some left to the
 * transaction's own draw (`undefined`). Without such offers, nothing is drawn.
 * @param offers - the offers fuzzed
 * @param range - the days transactions are drawn from
 * @param count - how many transactions at most
 * @returns an arbitrary of days (`YYYY-MM-DD`), or `undefined`
 */
export function fundedDays(
  offers: readonly FundedShape[],
  range: { from: string; to: string },
  count: number,
): fc.Arbitrary<(string | undefined)[] | undefined> {
  if (!offers.some(isFunded)) return fc.constant(undefined);
  const { min, max } = dayNumbers(range, 'dates');
  const offset = fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined, freq: 4 });
  return fc
    .tuple(fc.integer({ min, max }), fc.array(offset, { minLength: count, maxLength: count }))
    .map(([base, offsets]) =>
      offsets.map((o) => (o === undefined ? undefined : formatDay(Math.min(base + o, max)))),
    );
}
