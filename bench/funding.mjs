// Funding controls in the benches (docs/benchmarks.md, "Funding controls"): a budget and a
// per-customer cap on every offer, either ample (they never run out, so every payment is made as
// without them) or tight (they run out). A caller of `decide` keeps what they spent in the
// package's own `FundingLedger` (bench/decide.mjs).

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
