/**
 * Property 6: the exact fast path of `computeCashback` (safe integers) equals the decimal.js
 * reference `cashbackReference` for every amount, reward (a discount, a percent up to an eligible
 * amount, a fixed amount, whole and marginal tiers), cap, scale 0–4 and rounding mode, huge
 * amounts and many decimals included, and the edges: x.xx5, 10^12, 1,000 digits. Products past
 * 2^53 are worked out on `bigint`, and equal decimal.js too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/index.js';
import {
  cashbackOf,
  cashbackOfText,
  cashbackReference,
  computeCashback,
} from '../../src/matching/cashback.js';
import { compileOfferSet } from '../../src/matching/compileOffers.js';
import { compileReward } from '../../src/matching/compileReward.js';
import { rewardDecimal, rewardUnits } from '../../src/matching/rewardAmount.js';
import { type ExactAmount, ExactMoney, parseAmount } from '../../src/model/money.js';
import type { RewardInput } from '../../src/model/schemas.js';
import { amountArbitrary } from '../../src/testing/_internals/amounts.js';
import { ROUNDINGS } from './_options.js';

const digits = (min: number, max: number) =>
  fc
    .array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max })
    .map((d) => d.join(''));

/** A plain decimal string with 0–30 integer and 0–20 fractional digits, above 0. */
const decimalText = fc
  .tuple(digits(0, 30), digits(0, 20))
  .map(([i, f]) => (f === '' ? i || '0' : `${i || '0'}.${f}`))
  .filter((t) => /[1-9]/.test(t));

/** Values right around the fast path's guard a·d < 9e15 and 15-digit units. */
const nearLimits = fc
  .tuple(
    fc.integer({ min: 1, max: 9 }),
    digits(13, 16),
    fc.option(digits(1, 4), { nil: undefined }),
  )
  .map(([first, rest, f]) => `${first}${rest}${f === undefined ? '' : `.${f}`}`);

/**
 * The edges named by the integer path's bounds: a last digit 5 past the cents (x.xx5, halfway at
 * 2 places), amounts at and around 10^12 (the largest a transaction may have), and amounts of up
 * to 1,000 digits before and after the point (the most an amount may have).
 */
const edges = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 0, max: 99 }))
    .map(([i, c]) => `${i}.${String(c).padStart(2, '0')}5`),
  fc.constantFrom('1000000000000', '999999999999.99', '1000000000000.005', '999999999999.995'),
  fc
    .tuple(digits(1, 1000), digits(0, 1000))
    .map(([i, f]) => `${i.replace(/^0+(?=.)/, '').replace(/^0$/, '1')}${f === '' ? '' : `.${f}`}`),
);

const amount = fc.oneof(amountArbitrary(true), decimalText, nearLimits, edges);

/** A discount in (0, 100] with 0–8 decimals. */
const discount = fc
  .integer({ min: 0, max: 8 })
  .chain((places) => fc.tuple(fc.integer({ min: 1, max: 100 * 10 ** places }), fc.constant(places)))
  .map(([n, places]) => (places === 0 ? String(n) : (n / 10 ** places).toFixed(places)));

const cap = fc.option(fc.oneof(decimalText, amountArbitrary(true)), { nil: undefined });

/** A rate in [0, 100] with 0–8 decimals, 0 included. */
const rate = fc.oneof(fc.constant('0'), discount);

/** 1–20 tiers: `from` strictly ascending from 0, some rate above 0. */
const tiers = fc
  .tuple(
    fc.uniqueArray(fc.oneof(decimalText, amountArbitrary(true), nearLimits), {
      maxLength: 19,
      selector: (t) => exact(t).decimal.toFixed(),
    }),
    fc.array(rate, { minLength: 20, maxLength: 20 }),
    discount,
  )
  .map(([froms, rates, paying]) => {
    const sorted = froms.map(exact).sort((x, y) => x.decimal.comparedTo(y.decimal));
    const list = [
      { from: '0', rate: paying },
      ...sorted.map((f, i) => ({ from: f.text, rate: rates[i] })),
    ];
    return list;
  });

/** Every reward shape. */
const reward = fc.oneof(
  fc.record({ type: fc.constant('percent'), rate: discount }),
  fc.record({
    type: fc.constant('percent'),
    rate: discount,
    max_eligible_amount: fc.oneof(decimalText, amountArbitrary(true)),
  }),
  fc.record({ type: fc.constant('fixed'), amount: fc.oneof(decimalText, amountArbitrary(true)) }),
  fc.record({ type: fc.constant('tiers'), mode: fc.constantFrom('whole', 'marginal'), tiers }),
);

function exact(v: number | string): ExactAmount {
  const a = parseAmount(v);
  if (typeof a === 'string') throw new Error(`bad generated amount ${String(v)}: ${a}`);
  return a;
}

describe('cashbackOfText', () => {
  it('reads a stored text as decimal.js does, short texts as integers and any other as decimals', () => {
    // Stored cashback and funding totals: at most `scale` places, sometimes more, either sign,
    // around the 15 digits of the integer path.
    const text = fc.oneof(
      fc.tuple(digits(1, 17), digits(0, 5)).map(([i, f]) => (f === '' ? i : `${i}.${f}`)),
      fc.tuple(digits(1, 17), digits(0, 5)).map(([i, f]) => (f === '' ? `-${i}` : `-${i}.${f}`)),
      fc.constantFrom('0', '0.0', '999999999999999', '9999999999999.99', '0.005'),
    );
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 4 }), (t, scale) => {
        const options = resolveOptions({ scale });
        const fast = cashbackOfText(t, options);
        const ref = cashbackOf(new ExactMoney(t), options);
        expect({ units: fast.units, value: fast.value, decimal: fast.decimal?.toFixed() }).toEqual({
          units: ref.units,
          value: ref.value,
          decimal: ref.decimal?.toFixed(),
        });
      }),
      { numRuns: 3000 },
    );
  });
});

describe('computeCashback', () => {
  it('equals the decimal.js reference for every reward shape, cap, scale and rounding mode', () => {
    fc.assert(
      fc.property(
        amount,
        reward,
        cap,
        fc.integer({ min: 0, max: 4 }),
        fc.constantFrom(...ROUNDINGS),
        (a, r, c, scale, rounding) => {
          const [compiled] = compileOfferSet([
            {
              offer_id: 1,
              name: '',
              merchant_name: 'm',
              warranty: 0,
              discount: 1,
              valid_from: '2025-01-01',
              valid_to: '2025-12-31',
              ...(c === undefined ? {} : { max_cashback: c }),
            },
          ]).compiled;
          if (compiled === undefined) throw new Error('no offer compiled');
          // The reward as compiled, a fixed amount with any number of places included: the
          // property is about the arithmetic, whatever the load accepts.
          const offer = { ...compiled, reward: compileReward(undefined, r as RewardInput) };
          const options = resolveOptions({ scale, rounding });
          const fast = computeCashback(exact(a), offer, options);
          const ref = cashbackReference(exact(a), offer, options);
          expect({
            units: fast.units,
            value: fast.value,
            decimal: fast.decimal?.toFixed(),
          }).toEqual({ units: ref.units, value: ref.value, decimal: ref.decimal?.toFixed() });
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('equals the decimal.js reference for every amount, discount, cap, scale and rounding mode', () => {
    fc.assert(
      fc.property(
        amount,
        discount,
        cap,
        fc.array(
          fc.record({
            scale: fc.integer({ min: 0, max: 4 }),
            rounding: fc.constantFrom(...ROUNDINGS),
          }),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
        (a, d, c, optionsList) => {
          const [offer] = compileOfferSet([
            {
              offer_id: 1,
              name: '',
              merchant_name: 'm',
              warranty: 0,
              discount: d,
              valid_from: '2025-01-01',
              valid_to: '2025-12-31',
              ...(c === undefined ? {} : { max_cashback: c }),
            },
          ]).compiled;
          if (offer === undefined) throw new Error('no offer compiled');
          const amountExact = exact(a);
          // Several options in a row on one offer: the cap is taken to each scale in turn.
          for (const o of optionsList) {
            const options = resolveOptions(o);
            const fast = computeCashback(amountExact, offer, options);
            const ref = cashbackReference(amountExact, offer, options);
            expect({
              units: fast.units,
              value: fast.value,
              decimal: fast.decimal?.toFixed(),
            }).toEqual({ units: ref.units, value: ref.value, decimal: ref.decimal?.toFixed() });
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('rewardUnits past 2^53', () => {
  it('works products past the safe integers out on bigint, equal to decimal.js', () => {
    // Amounts of 13 to 15 digits with cents at rates of 1 to 8 places: most products of units are
    // past 9e15, where only the bigint step can give integer units; rates of few places make
    // halfway cases (ties) common.
    const big = fc
      .tuple(fc.integer({ min: 1, max: 9 }), digits(10, 12), digits(2, 2))
      .map(([first, rest, cents]) => `${first}${rest}.${cents}`);
    const places = fc
      .integer({ min: 1, max: 8 })
      .chain((p) => fc.tuple(fc.integer({ min: 10 ** p, max: 100 * 10 ** p }), fc.constant(p)))
      .map(([n, p]) => (n / 10 ** p).toFixed(p));
    const shape = fc.oneof(
      places.map((rate) => ({ type: 'percent', rate })),
      fc.tuple(places, places, big).map(([r1, r2, from]) => ({
        type: 'tiers',
        mode: 'marginal',
        tiers: [
          { from: '0', rate: r1 },
          { from, rate: r2 },
        ],
      })),
    );
    fc.assert(
      fc.property(
        big,
        shape,
        fc.integer({ min: 0, max: 4 }),
        fc.constantFrom(...ROUNDINGS),
        (a, r, scale, rounding) => {
          const options = resolveOptions({ scale, rounding });
          const reward = compileReward(undefined, r as RewardInput);
          const units = rewardUnits(exact(a), reward, options);
          const ref = rewardDecimal(exact(a), reward)
            .toDecimalPlaces(scale, options.roundingMode)
            .times(10 ** scale);
          // Integer units whenever the cashback itself is a safe integer; past that, decimal.js.
          const safe = ref.lte(Number.MAX_SAFE_INTEGER);
          expect(units).toBe(safe ? ref.toNumber() : Number.NaN);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
