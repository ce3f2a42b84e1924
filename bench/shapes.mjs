// Rewards and scopes in the benches (docs/benchmarks.md, "Rewards and scopes"): the same offers,
// with a tenth scoped (half by a list of merchants, half by a category code) and a third paying a
// fixed amount or tiers instead of their discount.

/**
 * The offers with a tenth scoped and a third rewarded otherwise, by position, so that every
 * offer count, even 10, has the same mix: offer `i` is scoped when `i % 10 === 3` (by `scopeOf`:
 * a list of merchants when `i % 20 === 3`, a category otherwise), pays a fixed 2 from 25 when
 * `i % 6 === 0` and tiers on its discount when `i % 6 === 3` (`whole` and `marginal` in turn).
 * @param offers - offers of the seed's shape (`merchant_name`, `discount`)
 * @param scopeOf - the scope of offer `i`: `(i, byList) => scope`
 * @returns the shaped offers
 */
export function withShapes(offers, scopeOf) {
  return offers.map((o, i) => {
    const { merchant_name, discount, ...rest } = o;
    const place = i % 10 === 3 ? { scope: scopeOf(i, i % 20 === 3) } : { merchant_name };
    const d = Number(discount);
    let reward = { discount };
    if (i % 6 === 0) {
      reward = { reward: { type: 'fixed', amount: 2 }, min_amount: 25 };
    } else if (i % 6 === 3) {
      const tiers = [
        { from: 0, rate: d / 2 },
        { from: 20, rate: d },
        { from: 100, rate: Math.min(100, d * 2) },
      ];
      reward = { reward: { type: 'tiers', mode: i % 12 === 3 ? 'whole' : 'marginal', tiers } };
    }
    return { ...rest, ...place, ...reward };
  });
}
