// Deterministic bench data: customers, offers and transactions from one seed (mulberry32).
// Bump GENERATOR_VERSION whenever the output changes, so cached NDJSON files are rewritten.

export const GENERATOR_VERSION = 4;
export const MERCHANTS = 20_000;
/** Share of transactions at a merchant that has offers. */
export const OFFERED_SHARE = 0.3;

/** A PRNG in [0, 1) (mulberry32). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (rnd, n) => Math.floor(rnd() * n);
const pick = (rnd, list) => list[int(rnd, list.length)];
const pad = (n, w) => String(n).padStart(w, '0');

// 40 × 50 × 10 = 20,000 distinct names.
const ADJ =
  'Blue Red Green Golden Silver Happy Lucky Urban Royal Little Grand Old New Bright Quiet Wild Sunny Rapid Fresh Noble Amber Crystal Iron Velvet Coral Misty Cozy Smart Prime Bold Clever Humble Jolly Lively Modern Neat Proud Rustic Swift Tidy'.split(
    ' ',
  );
const NOUN =
  'Harbor Oak River Fox Lantern Maple Falcon Garden Bridge Meadow Anchor Pine Comet Willow Stone Valley Summit Island Canyon Orchard Beacon Forest Raven Lotus Cedar Harvest Atlas Prairie Ember Glacier Horizon Pebble Thistle Tulip Badger Heron Juniper Lagoon Magnet Nectar Otter Parrot Quartz Rocket Saffron Tiger Umber Viking Walnut Zephyr'.split(
    ' ',
  );
const KIND = 'Coffee Market Books Pharmacy Fuel Bakery Fitness Electronics Travel Cinema'.split(
  ' ',
);
/**
 * The merchant category code (MCC) of merchant `i`: four neighbouring merchants share one of
 * 5,000 codes (`1000`…`5999`), so that a category offer at an offered merchant reaches the
 * traffic of four, at every offer count (docs/benchmarks.md, Rewards and scopes). Generator
 * version 4; before, ten codes by blocks of 2,000 merchants.
 */
export function categoryOf(i) {
  return String(1000 + Math.floor(i / 4));
}
const CITIES = [
  'Berlin',
  'Hamburg',
  'Munich',
  'Cologne',
  'Frankfurt',
  'Stuttgart',
  'Leipzig',
  'Dresden',
];

/** The canonical name of merchant `i` (0 ≤ i < 20,000). */
export function merchantName(i) {
  return `${ADJ[i % 40]} ${NOUN[Math.floor(i / 40) % 50]} ${KIND[Math.floor(i / 2000) % 10]}`;
}

const fullwidth = (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0);

/** How a partner might send the name: case, spacing and width vary; all normalise to one key. */
function nameVariant(rnd, name) {
  const r = rnd();
  if (r < 0.4) return name;
  if (r < 0.6) return name.toUpperCase();
  if (r < 0.75) return name.toLowerCase();
  if (r < 0.85) return `${name.replaceAll(' ', '  ')} `;
  if (r < 0.95) return ` \t${name} `;
  return fullwidth(name[0]) + name.slice(1).replace(' ', '\u00a0');
}

/** Customers (the shape of docs/http.md, `POST /customers/`), ids `c000000`…; genders vary in case and spacing. */
export function generateCustomers(count, seed) {
  const rnd = mulberry32(seed ^ 0xc0ffee);
  const genders = ['male', 'female', 'Male', 'FEMALE', ' female '];
  const out = new Array(count);
  for (let i = 0; i < count; i++) {
    const year = 1950 + int(rnd, 58);
    const month = 1 + int(rnd, 12);
    const leap = year % 4 === 0;
    const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
    out[i] = {
      customer_id: `c${pad(i, 6)}`,
      birthday: `${year}-${pad(month, 2)}-${pad(1 + int(rnd, days), 2)}`,
      gender: pick(rnd, genders),
      location: { country: 'DE', city: pick(rnd, CITIES) },
    };
  }
  return out;
}

/** Days of 2025 as `YYYY-MM-DD`. */
const DAYS_2025 = Array.from({ length: 365 }, (_, d) =>
  new Date(Date.UTC(2025, 0, 1 + d)).toISOString().slice(0, 10),
);

/**
 * Merchant index of each offer and its rank there: merchants 0, 1, 2… take 1, 2, 3, 1, 2, 3…
 * offers, so the number of candidates per offered merchant is the same at every offer count.
 */
export function offerMerchants(count) {
  const out = [];
  for (let m = 0; out.length < count; m++) {
    for (let k = 0; k <= m % 3 && out.length < count; k++) out.push([m, k]);
  }
  return out;
}

/** Number of merchants that have offers when there are `count` offers. */
export function offeredMerchantCount(count) {
  const list = offerMerchants(count);
  return list.length === 0 ? 0 : list[list.length - 1][0] + 1;
}

const BANDS = ['18-25', '26-35', '36-45', '46-60', '61+'];
const DAYTIME = { all: [{ fact: 'transaction.hour', operator: 'greaterThanInclusive', value: 8 }] };
const WEEKDAYS = {
  all: [{ fact: 'transaction.weekday', operator: 'lessThanInclusive', value: 5 }],
};
const DISCOUNTS = [1, 2, 2.5, 3, 5, 7.5, 10, 12, 15, 20];

/**
 * Offers (docs/concepts.md, with the extensions), ids 1…count. With `plain`, the same offers without
 * min_amount, max_cashback, audience and conditions, which every compared implementation can express.
 */
export function generateOffers(count, seed, plain = false) {
  const rnd = mulberry32(seed ^ 0x0ff3);
  return offerMerchants(count).map(([m, k], i) => {
    const name = merchantName(m);
    const whole = rnd() < 0.3;
    const from = whole ? 0 : int(rnd, 300);
    const to = whole ? 364 : Math.min(364, from + 30 + int(rnd, 300));
    const offer = {
      offer_id: i + 1,
      name: `${name} cashback`,
      merchant_name: rnd() < 0.8 ? name : name.toUpperCase(),
      warranty: int(rnd, 31),
      discount: pick(rnd, DISCOUNTS),
      valid_from: DAYS_2025[from],
      valid_to: DAYS_2025[to],
    };
    if (rnd() < 0.6) offer.age = BANDS.filter(() => rnd() < 0.5);
    const g = rnd();
    if (g < 0.2) offer.gender = ['male'];
    else if (g < 0.4) offer.gender = ['Female'];
    if (plain) return offer;
    // Extensions by position, so that every offer count, even 10, has the same mix: a third of
    // the merchants with offers have one that reads history, a sixth one with conditions.
    if (i % 10 === 8) offer.min_amount = 20;
    if (i % 10 === 1) offer.max_cashback = 5;
    if (k === 0 && m % 6 === 1) offer.audience = 'returning';
    if (k === 0 && m % 6 === 4) Object.assign(offer, { audience: 'new', lookback_days: 90 });
    if (k === 0 && m % 6 === 2) offer.conditions = m % 12 === 2 ? DAYTIME : WEEKDAYS;
    return offer;
  });
}

/**
 * Transactions (docs/http.md, `POST /transactions`) over 2025, in date order as a card stream comes (times within a day are
 * random): ids `t0000000`…, about 30% at merchants with offers when there are `offers` offers, the
 * rest at the other merchants; amounts are JSON numbers with 2 decimals. In date order, a streaming
 * replay keeps only the purchases its lookbacks can still read.
 */
export function* generateTransactions({ count, customers, offers, seed }) {
  const rnd = mulberry32(seed ^ 0x7a5c);
  const offered = offeredMerchantCount(offers);
  for (let i = 0; i < count; i++) {
    const m = rnd() < OFFERED_SHARE ? int(rnd, offered) : offered + int(rnd, MERCHANTS - offered);
    const s = int(rnd, 86_400);
    const time = `${pad(Math.floor(s / 3600), 2)}:${pad(Math.floor(s / 60) % 60, 2)}:${pad(s % 60, 2)}`;
    yield {
      transaction_id: `t${pad(i, 7)}`,
      description: 'Card purchase',
      customer_id: `c${pad(int(rnd, customers), 6)}`,
      date: `${DAYS_2025[Math.floor((i * 365) / count)]}T${time}`,
      amount: Math.max(1, Math.round(Math.exp(rnd() * Math.log(500)) * 100) / 100),
      merchant: {
        id: `m${m}`,
        name: nameVariant(rnd, merchantName(m)),
        category_code: categoryOf(m),
      },
      location: { country: 'DE', city: pick(rnd, CITIES) },
    };
  }
}

/**
 * The data set of the engine-level benches: `size.customers` customers, `size.offers` offers and
 * `size.transactions` transactions in batches of `size.batch`, all from `seed`.
 */
export function engineWorkload(size, seed) {
  const raw = [
    ...generateTransactions({
      count: size.transactions,
      customers: size.customers,
      offers: size.offers,
      seed,
    }),
  ];
  const batches = [];
  for (let i = 0; i < raw.length; i += size.batch) batches.push(raw.slice(i, i + size.batch));
  return {
    customers: generateCustomers(size.customers, seed),
    offers: generateOffers(size.offers, seed),
    transactions: raw,
    batches,
  };
}
