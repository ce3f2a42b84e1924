// Figure 1: `decide` throughput over parsed transactions, and the floor it is held against: the
// merchant-key lookup alone (normalise the name, look it up in a Map of offers by key).
import { performance } from 'node:perf_hooks';
import { engine, throughput, timed } from './util.mjs';

const { decide, FundingLedger, merchantKey, Money, parseCustomer, parseTransaction } = engine;

/** The purchase a stored transaction stands for, as `DecideState.purchases` returns them. */
const purchaseOf = (tx) => ({
  seconds: tx.when.seconds,
  nanos: tx.when.nanos,
  day: tx.when.day,
  amount: tx.amount,
});

/** Parsed customers by id, as a replay holds them. */
export function customerMap(customers) {
  const map = new Map();
  customers.forEach((c, i) => {
    const r = parseCustomer(c, i);
    if (!r.ok) throw new Error(`bench data: invalid customer ${r.key}`);
    map.set(r.value.customerId, r.value);
  });
  return map;
}

/** Parse results of raw transactions, split into batches (outside any timing). */
export function parseBatches(raw, batchSize, timeZone) {
  const batches = [];
  for (let i = 0; i < raw.length; i += batchSize) {
    const batch = raw.slice(i, i + batchSize);
    batches.push(batch.map((tx, j) => parseTransaction(tx, i + j, timeZone)));
  }
  return batches;
}

/**
 * A DecideState backed by a Set and Maps, as a caller of `decide` builds one (docs/replay.md), plus
 * `record` to record what a batch's decision accepted and paid (its ids, and its payments of
 * funded offers in the counters of budgets and caps when the offers have any; part of deciding,
 * as a replay does it: timed with `decide`) and `store` to keep its purchases.
 */
export function mapState(offers, options, customers) {
  const ids = new Set();
  const funded = offers.offers.some((o) => o.budget !== undefined || o.customer_cap !== undefined);
  const counters = funded ? new FundingLedger(options) : undefined;
  // Purchase lists by customer, then merchant key, as createReplay keeps them.
  const purchases = new Map();
  const state = {
    offers,
    options,
    customer: (id) => customers.get(id),
    hasTransaction: (id) => ids.has(id),
    purchases: (customerId, merchant) => purchases.get(customerId)?.get(merchant),
  };
  if (counters !== undefined) state.spent = counters.spent;
  const record = (decision) => {
    for (const tx of decision.accepted) ids.add(tx.transactionId);
    counters?.payAll(decision.funded);
  };
  const keep = (tx, key) => {
    let byKey = purchases.get(tx.customerId);
    if (byKey === undefined) {
      byKey = new Map();
      purchases.set(tx.customerId, byKey);
    }
    const list = byKey.get(key);
    if (list === undefined) byKey.set(key, [purchaseOf(tx)]);
    else list.push(purchaseOf(tx));
  };
  // With scoped offers that read history, a purchase joins the lists the offer set names.
  const scoped = offers.offers.some((o) => o.scope !== undefined);
  const store = (accepted) => {
    for (const tx of accepted) {
      if (!scoped) {
        if (offers.historyKeys.has(tx.merchantKey)) keep(tx, tx.merchantKey);
        continue;
      }
      const { id, category_code } = tx.merchant;
      for (const key of offers.historyKeysOf(tx.merchantKey, id, category_code)) keep(tx, key);
    }
  };
  return { state, record, store };
}

/**
 * The offers of a set by merchant key, from what an `OfferSet` shows (its offers as loaded): the
 * Map of lists the floor and the lookups look keys up in, as `decide` looks up its own.
 */
export function offersByKey(offers) {
  const byKey = new Map();
  for (const o of offers.offers) {
    const key = merchantKey(o.merchant_name);
    const list = byKey.get(key);
    if (list === undefined) byKey.set(key, [o]);
    else list.push(o);
  }
  return byKey;
}

/**
 * A few batches on a throwaway state, untimed, after the forced GC: a full GC makes V8 drop
 * optimised code that held objects it freed (the previous pass's state), and the first batches
 * after it ran 3–10 times slower while the code was optimised again (measured batch by batch).
 * A replay that keeps running never pays that; the floor, which forces no GC, does not either.
 */
function warmUp(batches, offers, options, customers) {
  const { state, record, store } = mapState(offers, options, customers);
  for (const batch of batches.slice(0, 3)) {
    const d = decide(batch, state);
    record(d);
    store(d.accepted);
  }
}

/**
 * The least work any correct `decide` does per transaction, with the same structures: find the
 * customer, record the id among the stored ones in one lookup (a duplicate stops there), find the
 * offers at the merchant, and set one outcome (shared constants here: no message, no matching, no
 * payment).
 * Not a target; it shows how much of the floor's speed the lookups alone leave.
 */
export function lookupsPass(batches, byMerchant, customers) {
  const ids = new Set();
  const start = performance.now();
  let offered = 0;
  for (const batch of batches) {
    const outcomes = new Array(batch.length);
    for (let i = 0; i < batch.length; i++) {
      const item = batch[i];
      if (!item.ok) {
        outcomes[i] = INVALID;
        continue;
      }
      const tx = item.value;
      const customer = customers.get(tx.customerId);
      if (customer === undefined) {
        outcomes[i] = ids.has(tx.transactionId) ? DUPLICATE : NOT_FOUND;
        continue;
      }
      const size = ids.size;
      ids.add(tx.transactionId);
      if (ids.size === size) {
        outcomes[i] = DUPLICATE;
        continue;
      }
      if (byMerchant.get(tx.merchantKey) === undefined) outcomes[i] = NO_OFFER;
      else {
        outcomes[i] = customer;
        offered++;
      }
    }
  }
  return { seconds: (performance.now() - start) / 1000, result: offered };
}

const [INVALID, DUPLICATE, NOT_FOUND, NO_OFFER] = ['invalid', 'duplicate', 'not found', 'no offer'];

/**
 * One pass of `decide` over every batch with a fresh state. Only the `decide` calls are timed;
 * the caller's work between batches (storing what was accepted, tallying) is timed apart.
 */
function decidePass(batches, offers, options, customers) {
  const { state, record, store } = mapState(offers, options, customers);
  globalThis.gc?.();
  warmUp(batches, offers, options, customers);
  let paid = 0;
  let units = 0;
  let seconds = 0;
  let storeSeconds = 0;
  for (const batch of batches) {
    const start = performance.now();
    const d = decide(batch, state);
    record(d);
    const decided = performance.now();
    store(d.accepted);
    storeSeconds += (performance.now() - decided) / 1000;
    seconds += (decided - start) / 1000;
    for (const o of d.outcomes) {
      if (!o.ok) continue;
      paid++;
      units += o.cashback.units;
    }
  }
  return { seconds, storeSeconds, paid, units };
}

/**
 * `decide` throughput (`repeats` passes, each with a fresh state). `alongside` runs after each
 * pass, so that another measurement shares the rounds (see `ratioOf`).
 */
export function benchDecide(batches, offers, options, customers, repeats, alongside = () => {}) {
  const total = batches.reduce((n, b) => n + b.length, 0);
  const runs = [];
  for (let i = 0; i < repeats; i++) {
    runs.push(decidePass(batches, offers, options, customers));
    alongside();
  }
  return decideFigures(runs, total, options);
}

function decideFigures(runs, transactions, options) {
  const { paid, units } = runs[0];
  if (!Number.isSafeInteger(units)) throw new Error('bench: cashback units left the safe range');
  const cashback = new Money(units).div(Money.pow(10, options.scale));
  return {
    ...throughput(
      transactions,
      runs.map((r) => r.seconds),
    ),
    storeSeconds: Math.min(...runs.map((r) => r.storeSeconds)),
    paid,
    totalCashback: cashback.toFixed(options.scale),
  };
}

/** The floor: normalise each raw merchant name and look it up in the Map of offers by key. */
function floorPass(raw, byKey) {
  let hits = 0;
  for (let i = 0; i < raw.length; i++) {
    if (byKey.get(merchantKey(raw[i].merchant.name)) !== undefined) hits++;
  }
  return hits;
}

/**
 * `decide` over parsed batches and the floor over the same raw transactions, at every offer count
 * (`sets`: `{ offers, raw, batches, funded? }`), and the lookups alone. Passes are interleaved — each round runs the floor, the lookups and
 * `decide` at every offer count — so a busy machine slows all of them alike; a short untimed
 * warm-up comes first. A set's `funded` (`[{ kind, offers }]`: the same offers with budgets and
 * caps) adds a `decide` pass of each to the round, right before or after the plain one (in turn),
 * and its `shaped` (the same offers with rewards and scopes, bench/shapes.mjs) one more.
 * Returns `{ floor, lookups, decide, funded, shaped? }` per set, `funded` by kind.
 */
export function benchOfferCounts(sets, options, customers, repeats) {
  for (const { offers, raw, batches, funded = [], shaped } of sets) {
    floorPass(raw.slice(0, 100_000), offersByKey(offers));
    lookupsPass(batches.slice(0, 10), offersByKey(offers), customers);
    decidePass(batches.slice(0, 10), offers, options, customers);
    for (const f of funded) decidePass(batches.slice(0, 10), f.offers, options, customers);
    if (shaped !== undefined) decidePass(batches.slice(0, 10), shaped, options, customers);
  }
  const byKey = sets.map(({ offers }) => offersByKey(offers));
  const runs = sets.map(({ funded = [] }) => ({
    floor: [],
    decide: [],
    lookups: [],
    funded: funded.map(() => []),
    shaped: [],
  }));
  for (let i = 0; i < repeats; i++) {
    sets.forEach(({ offers, raw, batches, funded = [], shaped }, k) => {
      // No forced GC: the floor leaves only short-lived garbage, and a full GC of this heap is slow.
      runs[k].floor.push(timed(() => floorPass(raw, byKey[k]), { gc: false }));
      runs[k].lookups.push(lookupsPass(batches, byKey[k], customers));
      const plain = () => runs[k].decide.push(decidePass(batches, offers, options, customers));
      if (i % 2 === 0) plain();
      funded.forEach((f, j) => {
        runs[k].funded[j].push(decidePass(batches, f.offers, options, customers));
      });
      if (shaped !== undefined) {
        runs[k].shaped.push(decidePass(batches, shaped, options, customers));
      }
      if (i % 2 === 1) plain();
    });
  }
  return sets.map(({ raw, funded = [], shaped }, k) => {
    const seconds = (key) => runs[k][key].map((r) => r.seconds);
    return {
      floor: throughput(raw.length, seconds('floor')),
      lookups: throughput(raw.length, seconds('lookups')),
      decide: decideFigures(runs[k].decide, raw.length, options),
      funded: Object.fromEntries(
        funded.map((f, j) => [f.kind, decideFigures(runs[k].funded[j], raw.length, options)]),
      ),
      ...(shaped === undefined
        ? {}
        : { shaped: decideFigures(runs[k].shaped, raw.length, options) }),
    };
  });
}

/** Per-transaction results of `decide` (untimed): `null` or `{ offerId, cashback }` (exact text). */
export function decideResults(batches, offers, options, customers) {
  const { state, record, store } = mapState(offers, options, customers);
  const out = [];
  for (const batch of batches) {
    const d = decide(batch, state);
    record(d);
    store(d.accepted);
    for (const o of d.outcomes) {
      out.push(
        o.ok
          ? {
              offerId: o.payment.offer_id,
              cashback: new Money(o.payment.cashback).toFixed(options.scale),
            }
          : null,
      );
    }
  }
  return out;
}
