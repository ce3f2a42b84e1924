// Figure 2: the same decisions by json-rules-engine (one rule per offer) and by a naive linear scan
// over every offer, and the check that all implementations agree. Each gets the same parsed
// transactions as `decide`; each prepares its offers and customers once, outside the timing.

import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Decimal from 'decimal.js';
import { Engine } from 'json-rules-engine';
import { engine, throughput, timedAsync } from './util.mjs';

const { merchantKey } = engine;

/** Days since 1970-01-01 of a `YYYY-MM-DD`, as the engine numbers them (`tx.when.day`). */
const dayNumber = (text) => Date.parse(`${text}T00:00:00Z`) / 86_400_000;
const D = Decimal.clone({ precision: 64, rounding: Decimal.ROUND_HALF_UP });
const SCALE = 2;

const cashbackOf = (tx, discount) =>
  new D(tx.amount.text).times(discount).div(100).toDecimalPlaces(SCALE, D.ROUND_HALF_UP);

function readBand(label) {
  const [min, max] = label.endsWith('+') ? [label.slice(0, -1), Infinity] : label.split('-');
  return { min: Number(min), max: Number(max) };
}

/** Offers as plain objects with days as numbers (no index: the scan visits every offer). */
function naiveOffers(offers) {
  return offers.map((o) => ({
    offerId: o.offer_id,
    key: merchantKey(o.merchant_name),
    from: dayNumber(o.valid_from),
    to: dayNumber(o.valid_to),
    bands: (o.age ?? []).map(readBand),
    genders: (o.gender ?? []).map((g) => g.trim().toLowerCase()),
    discount: new D(o.discount),
  }));
}

/** Age inputs of every customer: birth year, month × 100 + day, normalised gender. */
function naiveCustomers(customers) {
  const map = new Map();
  for (const c of customers) {
    const [y, m, d] = c.birthday.split('-').map(Number);
    map.set(c.customer_id, {
      year: y,
      monthDay: m * 100 + d,
      gender: c.gender.trim().toLowerCase(),
    });
  }
  return map;
}

/** Picks the best of `{ offerId, cashback }` candidates: highest cashback, ties lowest id. */
function better(a, b) {
  if (b === null) return a;
  const c = a.cashback.comparedTo(b.cashback);
  return c > 0 || (c === 0 && a.offerId < b.offerId) ? a : b;
}

const result = (best) =>
  best === null ? null : { offerId: best.offerId, cashback: best.cashback.toFixed(SCALE) };

/** The naive linear scan: returns a function from parsed transactions to their results. */
export function naiveScan(offers, customers) {
  const list = naiveOffers(offers);
  const people = naiveCustomers(customers);
  return (txs) =>
    txs.map((tx) => {
      const c = people.get(tx.customerId);
      const day = tx.when.day;
      const age = tx.when.year - c.year - (tx.when.monthDay < c.monthDay ? 1 : 0);
      let best = null;
      for (const o of list) {
        if (o.key !== tx.merchantKey || day < o.from || day > o.to) continue;
        if (o.bands.length > 0 && !o.bands.some((b) => age >= b.min && age <= b.max)) continue;
        if (o.genders.length > 0 && !o.genders.includes(c.gender)) continue;
        const cashback = cashbackOf(tx, o.discount);
        if (!cashback.isZero()) best = better({ offerId: o.offerId, cashback }, best);
      }
      return result(best);
    });
}

/** One json-rules-engine rule per offer; the merchant check runs first (higher priority). */
function rule(o) {
  const all = [
    { fact: 'merchant', operator: 'equal', value: o.key, priority: 3 },
    { fact: 'day', operator: 'greaterThanInclusive', value: o.from, priority: 2 },
    { fact: 'day', operator: 'lessThanInclusive', value: o.to, priority: 2 },
  ];
  if (o.bands.length > 0) {
    const band = (b) => [
      { fact: 'age', operator: 'greaterThanInclusive', value: b.min },
      ...(b.max === Infinity ? [] : [{ fact: 'age', operator: 'lessThanInclusive', value: b.max }]),
    ];
    all.push({ any: o.bands.map((b) => ({ all: band(b) })) });
  }
  if (o.genders.length > 0) all.push({ fact: 'gender', operator: 'in', value: o.genders });
  return {
    conditions: { all },
    event: { type: 'cashback', params: { offerId: o.offerId, discount: o.discount.toString() } },
  };
}

/** json-rules-engine over `txs`, one `engine.run` per transaction, in order. */
export async function benchJre(txs, offers, customers) {
  const jre = new Engine([], { allowUndefinedFacts: true });
  for (const o of naiveOffers(offers)) jre.addRule(rule(o));
  const people = naiveCustomers(customers);
  const { result: results, seconds } = await timedAsync(async () => {
    const out = [];
    for (const tx of txs) {
      const c = people.get(tx.customerId);
      const age = tx.when.year - c.year - (tx.when.monthDay < c.monthDay ? 1 : 0);
      const facts = { merchant: tx.merchantKey, day: tx.when.day, age, gender: c.gender };
      const { events } = await jre.run(facts);
      let best = null;
      for (const e of events) {
        const cashback = cashbackOf(tx, e.params.discount);
        if (!cashback.isZero()) best = better({ offerId: e.params.offerId, cashback }, best);
      }
      out.push(result(best));
    }
    return out;
  });
  return { ...throughput(txs.length, [seconds]), results };
}

/** One row of a GoRules decision table per offer: unary tests on merchant, day, age, gender. */
function zenRow(o, i) {
  const age = o.bands.map((b) => (b.max === Infinity ? `>= ${b.min}` : `[${b.min}..${b.max}]`));
  return {
    _id: `r${i}`,
    merchant: `$ == ${JSON.stringify(o.key)}`,
    day: `[${o.from}..${o.to}]`,
    age: age.join(', '),
    gender: o.genders.length > 0 ? `$ in ${JSON.stringify(o.genders)}` : '',
    offerId: String(o.offerId),
    discount: JSON.stringify(o.discount.toString()),
  };
}

/** A ZEN decision graph: input → one decision table (collect: every matching row) → output. */
function zenGraph(offers) {
  const inputs = ['merchant', 'day', 'age', 'gender'].map((f) => ({ id: f, name: f, field: f }));
  const outputs = ['offerId', 'discount'].map((f) => ({ id: f, name: f, field: f }));
  const at = (x) => ({ x, y: 0 });
  return {
    nodes: [
      { id: 'in', type: 'inputNode', name: 'transaction', position: at(0) },
      {
        id: 'offers',
        type: 'decisionTableNode',
        name: 'offers',
        position: at(200),
        content: { hitPolicy: 'collect', inputs, outputs, rules: offers.map(zenRow) },
      },
      { id: 'out', type: 'outputNode', name: 'matches', position: at(400) },
    ],
    edges: [
      { id: 'e1', sourceId: 'in', targetId: 'offers', type: 'edge' },
      { id: 'e2', sourceId: 'offers', targetId: 'out', type: 'edge' },
    ],
  };
}

/**
 * GoRules zen-engine's class, or `undefined` when it is not installed. It is no devDependency: its
 * npm package lists native builds for every platform as optional dependencies, and a lockfile
 * made where the registry serves only some of them fails `npm ci`. Install it beside the project
 * (`npm install --no-save @gorules/zen-engine@0.54.0`) or point ZEN_ENGINE_PATH at its folder, as
 * .ci/run does. A ZEN_ENGINE_PATH it cannot be loaded from is an error, not a skip: whoever set it
 * expects the row, and CI must not pass without it.
 */
async function loadZen() {
  const where = process.env.ZEN_ENGINE_PATH;
  if (!where) {
    try {
      const mod = await import('@gorules/zen-engine');
      return mod.ZenEngine ?? mod.default?.ZenEngine;
    } catch {
      return undefined;
    }
  }
  let mod;
  try {
    const entry = createRequire(join(where, 'noop.js')).resolve('@gorules/zen-engine');
    mod = await import(pathToFileURL(entry).href);
  } catch (err) {
    throw new Error(
      `ZEN_ENGINE_PATH=${where}: cannot load @gorules/zen-engine from there ` +
        `(${err instanceof Error ? err.message.split('\n')[0] : String(err)}); ` +
        'install it there (npm install --prefix <folder> @gorules/zen-engine@0.54.0) or unset ZEN_ENGINE_PATH to skip zen-engine',
    );
  }
  const ZenEngine = mod.ZenEngine ?? mod.default?.ZenEngine;
  if (typeof ZenEngine !== 'function') {
    throw new Error(
      `ZEN_ENGINE_PATH=${where}: @gorules/zen-engine loaded from there has no ZenEngine class`,
    );
  }
  return ZenEngine;
}

/**
 * GoRules zen-engine over `txs`: one decision table with a row per offer, one `evaluate` per
 * transaction, in order; cashback and the choice among matches as for json-rules-engine.
 */
export async function benchZen(txs, offers, customers) {
  const ZenEngine = await loadZen();
  if (ZenEngine === undefined) return undefined;
  const zen = new ZenEngine();
  const decision = zen.createDecision(zenGraph(naiveOffers(offers)));
  const people = naiveCustomers(customers);
  try {
    const { result: results, seconds } = await timedAsync(async () => {
      const out = [];
      for (const tx of txs) {
        const c = people.get(tx.customerId);
        const age = tx.when.year - c.year - (tx.when.monthDay < c.monthDay ? 1 : 0);
        const facts = { merchant: tx.merchantKey, day: tx.when.day, age, gender: c.gender };
        const { result: matches } = await decision.evaluate(facts);
        let best = null;
        for (const m of matches) {
          const cashback = cashbackOf(tx, m.discount);
          if (!cashback.isZero()) best = better({ offerId: m.offerId, cashback }, best);
        }
        out.push(result(best));
      }
      return out;
    });
    return { ...throughput(txs.length, [seconds]), results };
  } finally {
    zen.dispose?.();
  }
}

/** Payments and their exact sum over results (`null` = no payment). */
export function totals(results) {
  let sum = new D(0);
  let paid = 0;
  for (const r of results) {
    if (r === null) continue;
    paid++;
    sum = sum.plus(r.cashback);
  }
  return { paid, sum: sum.toFixed(SCALE) };
}

/**
 * Compares two result lists on their common prefix: count and exact sum of cashback, then each
 * transaction. Returns `undefined` when they agree, else a message.
 */
export function disagreement(nameA, a, nameB, b) {
  const n = Math.min(a.length, b.length);
  const ta = totals(a.slice(0, n));
  const tb = totals(b.slice(0, n));
  const head = `${nameA} vs ${nameB} on ${n} transactions`;
  if (ta.paid !== tb.paid || ta.sum !== tb.sum) {
    return `${head}: ${ta.paid} payments / ${ta.sum} vs ${tb.paid} payments / ${tb.sum}`;
  }
  for (let i = 0; i < n; i++) {
    const x = JSON.stringify(a[i]);
    const y = JSON.stringify(b[i]);
    if (x !== y) return `${head}: transaction #${i} gets ${x} vs ${y}`;
  }
  return undefined;
}
