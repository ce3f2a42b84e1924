// Funding controls in the benches (docs/benchmarks.md, "Funding controls"): a budget and a
// per-customer cap on every offer, either ample (they never run out, so every payment is made as
// without them) or tight (they run out), and the counters a caller of `decide` keeps for them.

const PERIODS = ['offer', 'month', 'week', 'day'];

/**
 * The offers with a budget and a customer cap each, their periods mixed by offer id. `ample`:
 * amounts and counts no payment of the bench data reaches, so the same payments are made as
 * without them; `tight`: small enough that budgets and caps run out.
 */
export function withFunding(offers, kind) {
  const ample = kind === 'ample';
  return offers.map((o, i) => {
    const period = PERIODS[i % 4];
    const capPeriod = PERIODS[(i + 1) % 4];
    return {
      ...o,
      budget: { amount: ample ? 1_000_000_000 : TIGHT_BUDGET[period], period },
      customer_cap: ample
        ? { amount: 1_000_000, count: 1_000_000, period: capPeriod }
        : { amount: 3, count: 1, period: capPeriod },
    };
  });
}

/**
 * Tight budgets by period: at full sizes an offer pays about 700 a year, 60 a month, 14 a week
 * and 2 a day without them.
 */
const TIGHT_BUDGET = { offer: 200, month: 20, week: 5, day: 1 };

/** The first day number a date-time can have (0001-01-01): where an offer-long period starts. */
const FIRST_DAY = (() => {
  const d = new Date(0);
  d.setUTCFullYear(1, 0, 1);
  return Math.round(d.getTime() / 86_400_000);
})();

/** Month starts by day number, worked out once per day: `Date` is slow to build. */
const monthStarts = new Map();

/**
 * The first day of the period holding day number `day`, as docs/decisions.md ("What a period
 * is") defines it: the bench keeps the counters a caller of `decide` keeps, and the package does
 * not export its own. The run checks that the counters agree with `createReplay`'s.
 */
function periodStart(period, day) {
  switch (period) {
    case 'day':
      return day;
    case 'week':
      return day - ((((day + 3) % 7) + 7) % 7);
    case 'month': {
      let start = monthStarts.get(day);
      if (start === undefined) {
        const d = new Date(day * 86_400_000);
        start = Math.round(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 86_400_000);
        monthStarts.set(day, start);
      }
      return start;
    }
    default:
      return FIRST_DAY;
  }
}

/**
 * What budgets and caps spent, in Maps by offer, period start and customer, as a replay keeps
 * them: `spent` is `DecideState.spent`, `paid` adds a batch's `Decision.funded`. Amounts are kept
 * in units of the scale (the bench's cashback stays far inside the safe integers), in entries
 * changed in place: `decide` reads what `spent` gives only while it decides a batch.
 */
export function fundingCounters(options) {
  const byOffer = new Map();
  /** The entry of a counter in a period, made on first use. */
  const entry = (offerId, start, customerId) => {
    let periods = byOffer.get(offerId);
    if (periods === undefined) {
      periods = new Map();
      byOffer.set(offerId, periods);
    }
    let period = periods.get(start);
    if (period === undefined) {
      period = { budget: undefined, caps: undefined };
      periods.set(start, period);
    }
    if (customerId === undefined) {
      period.budget ??= { amount: { units: 0, decimal: undefined, value: 0 }, count: 0 };
      return period.budget;
    }
    period.caps ??= new Map();
    let spent = period.caps.get(customerId);
    if (spent === undefined) {
      spent = { amount: { units: 0, decimal: undefined, value: 0 }, count: 0 };
      period.caps.set(customerId, spent);
    }
    return spent;
  };
  const add = (spent, cashback) => {
    const units = spent.amount.units + cashback.units;
    if (!Number.isSafeInteger(units)) throw new Error('bench: spent units left the safe range');
    spent.amount.units = units;
    spent.amount.value = units / options.unit;
    spent.count++;
  };
  return {
    spent(offerId, start, customerId) {
      const period = byOffer.get(offerId)?.get(start);
      if (period === undefined) return undefined;
      return customerId === undefined ? period.budget : period.caps?.get(customerId);
    },
    paid(funded) {
      for (const { offer, tx, cashback } of funded) {
        const { budget, customerCap } = offer;
        const day = tx.when.day;
        if (budget !== undefined)
          add(entry(offer.offerId, periodStart(budget.period, day), undefined), cashback);
        if (customerCap !== undefined) {
          const start = periodStart(customerCap.period, day);
          add(entry(offer.offerId, start, tx.customerId), cashback);
        }
      }
    },
  };
}
