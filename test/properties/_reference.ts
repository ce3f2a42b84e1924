/**
 * A naive reference of docs/concepts.md (Eligibility; Selection, cashback and payment; Funding
 * controls), written plainly for the differential property: every offer
 * is checked against every transaction, rule by rule, with decimal.js directly. Nothing here
 * comes from src/matching or src/core; only item parsing (src/model, proved against the zod
 * schemas by its own property) is reused.
 */
import Decimal from 'decimal.js';
import { parseCustomer, parseTransaction, type RoundingName } from '../../src/index.js';

const D = Decimal.clone({ precision: 200 });
type Dec = InstanceType<typeof D>;

const MODES: Record<RoundingName, Decimal.Rounding> = {
  'half-up': Decimal.ROUND_HALF_UP,
  'half-even': Decimal.ROUND_HALF_EVEN,
  'half-down': Decimal.ROUND_HALF_DOWN,
  up: Decimal.ROUND_UP,
  down: Decimal.ROUND_DOWN,
  ceil: Decimal.ROUND_CEIL,
  floor: Decimal.ROUND_FLOOR,
};

export interface RefOptions {
  readonly timeZone: string;
  readonly scale: number;
  readonly rounding: RoundingName;
}

interface RefPayment {
  readonly transaction_id: string;
  readonly customer_id: string;
  readonly offer_id: number;
  readonly cashback: number;
  readonly payment_date: string;
}

export interface RefResult {
  readonly payments: RefPayment[];
  readonly errors: { key: string; code: string }[];
}

interface Customer {
  readonly birthday: string;
  readonly gender: string;
  readonly city: string;
}

interface Stored {
  readonly customerId: string;
  readonly merchant: string;
  /** The merchant's id and category code as sent (`''` when a history item had none). */
  readonly merchantId: string;
  readonly category: string;
  readonly at: Instant;
  readonly day: number;
}

/** Wall-clock whole seconds and nanoseconds: dates carry up to 9 fractional digits. */
interface Instant {
  readonly seconds: number;
  readonly nanos: number;
}

function instantOf(raw: unknown, seconds: number): Instant {
  const fraction =
    /T\d{2}:\d{2}:\d{2}(?:\.(\d{1,9}))?/.exec((raw as Json).date as string)?.[1] ?? '';
  return { seconds, nanos: Number(fraction.padEnd(9, '0')) };
}

function before(a: Instant, b: Instant): boolean {
  return a.seconds < b.seconds || (a.seconds === b.seconds && a.nanos < b.nanos);
}

type Json = Record<string, unknown>;

/** Eligibility, merchant: NFKC, trimmed, inner white space made one space, lower-cased. */
function merchantOf(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

function dayNumber(day: string): number {
  return (
    Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) /
    86_400_000
  );
}

function addDays(day: string, days: number): string {
  const d = new Date(
    Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)) + days),
  );
  return d.toISOString().slice(0, 10);
}

/** Whole years from birthday to day; a 29 February birthday is reached on 1 March. */
function ageOn(birthday: string, day: string): number {
  const years = Number(day.slice(0, 4)) - Number(birthday.slice(0, 4));
  return day.slice(5) < birthday.slice(5) ? years - 1 : years;
}

function inAgeBands(labels: readonly string[], age: number): boolean {
  if (labels.length === 0) return true;
  return labels.some((label) => {
    const closed = /^(\d+)-(\d+)$/.exec(label.trim());
    if (closed) return age >= Number(closed[1]) && age <= Number(closed[2]);
    const open = /^(\d+)\+$/.exec(label.trim());
    if (open) return age >= Number(open[1]);
    throw new Error(`reference: unreadable age label ${label}`);
  });
}

function dec(v: unknown): Dec {
  return new D(typeof v === 'number' ? String(v) : (v as string));
}

/** Evaluates the simple conditions the arbitraries draw. */
function evaluate(node: Json, facts: Json): boolean {
  if ('all' in node) return (node.all as Json[]).every((n) => evaluate(n, facts));
  if ('any' in node) return (node.any as Json[]).some((n) => evaluate(n, facts));
  if ('not' in node) return !evaluate(node.not as Json, facts);
  const [root = '', ...dotted] = (node.fact as string).split('.');
  const path =
    typeof node.path === 'string'
      ? node.path
          .replace(/^\$\.?/, '')
          .split('.')
          .filter(Boolean)
      : [];
  let v: unknown = facts[root];
  for (const step of [...dotted, ...path]) v = (v as Json | undefined)?.[step];
  const x = node.value;
  switch (node.operator) {
    case 'equal':
      return v === x;
    case 'notEqual':
      return v !== x;
    case 'lessThan':
      return (v as number) < (x as number);
    case 'lessThanInclusive':
      return (v as number) <= (x as number);
    case 'greaterThan':
      return (v as number) > (x as number);
    case 'greaterThanInclusive':
      return (v as number) >= (x as number);
    case 'in':
      return (x as unknown[]).includes(v);
    case 'notIn':
      return !(x as unknown[]).includes(v);
    default:
      throw new Error(`reference: operator ${String(node.operator)}`);
  }
}

/** Eligibility, scope: at the offer's merchant, or in its scope (docs/concepts.md, Scopes). */
function inPlace(offer: Json, merchant: string, id: string, category: string): boolean {
  if (typeof offer.merchant_name === 'string') return merchantOf(offer.merchant_name) === merchant;
  const scope = offer.scope as Json;
  const names = (key: string) => ((scope[key] as string[] | undefined) ?? []).map(merchantOf);
  if (names('exclude_merchants').includes(merchant)) return false;
  return (
    names('merchants').includes(merchant) ||
    ((scope.merchant_ids as string[] | undefined) ?? []).includes(id) ||
    ((scope.mcc as string[] | undefined) ?? []).includes(category)
  );
}

/** What an offer's discount or reward pays on an amount, unrounded (docs/concepts.md, Rewards). */
function rewardOn(offer: Json, amount: Dec): Dec {
  if (offer.discount !== undefined) return amount.times(dec(offer.discount)).div(100);
  const r = offer.reward as Json;
  if (r.type === 'fixed') return D.min(amount, dec(r.amount));
  if (r.type === 'percent') {
    const eligible =
      r.max_eligible_amount === undefined ? amount : D.min(amount, dec(r.max_eligible_amount));
    return eligible.times(dec(r.rate)).div(100);
  }
  const tiers = (r.tiers as Json[]).map((t) => ({ from: dec(t.from), rate: dec(t.rate) }));
  if (r.mode === 'whole') {
    let rate = new D(0);
    for (const t of tiers) if (t.from.lte(amount)) rate = t.rate;
    return amount.times(rate).div(100);
  }
  let sum = new D(0);
  tiers.forEach((t, i) => {
    const end = tiers[i + 1]?.from;
    const top = end === undefined || amount.lt(end) ? amount : end;
    if (top.gt(t.from)) sum = sum.plus(top.minus(t.from).times(t.rate).div(100));
  });
  return sum;
}

/** A budget or a customer cap (docs/concepts.md, Funding controls). */
interface Limit {
  readonly amount: Dec | undefined;
  readonly count: number | undefined;
  readonly period: string;
}

function limitOf(raw: unknown, scale: number): Limit | undefined {
  if (raw === undefined) return undefined;
  const l = raw as Json;
  return {
    // Rounded down to the scale, so that it is never exceeded.
    amount:
      l.amount === undefined ? undefined : dec(l.amount).toDecimalPlaces(scale, Decimal.ROUND_DOWN),
    count: l.count as number | undefined,
    period: (l.period as string | undefined) ?? 'offer',
  };
}

/** The period of a day: itself, its ISO week (from its Monday), its month, or the whole offer. */
function periodOf(period: string, day: string, dayNo: number, weekday: number): string {
  if (period === 'day') return day;
  if (period === 'week') return `w${dayNo - (weekday - 1)}`;
  if (period === 'month') return day.slice(0, 7);
  return 'offer';
}

/** What budgets and caps spent, by offer, period and customer (for caps). */
type SpentMap = Map<string, { amount: Dec; count: number }>;

/**
 * The most a funded offer may pay on this day, `undefined` when it has no limit by amount, or
 * `null` when its cap (first) or its budget has nothing left or the cap's count is reached, or
 * when a budget that skips (`on_exhaust: 'skip'`) has less left than the payment would be.
 */
function roomOf(
  offer: Json,
  spent: SpentMap,
  customerId: string,
  at: (period: string) => string,
  scale: number,
  cashback: Dec,
): Dec | undefined | null {
  let room: Dec | undefined;
  const cap = limitOf(offer.customer_cap, scale);
  if (cap !== undefined) {
    const s = spent.get(`${offer.offer_id}/${at(cap.period)}/${customerId}`);
    if (cap.count !== undefined && (s?.count ?? 0) >= cap.count) return null;
    if (cap.amount !== undefined) {
      room = cap.amount.minus(s?.amount ?? 0);
      if (room.lte(0)) return null;
    }
  }
  const budget = limitOf(offer.budget, scale);
  if (budget?.amount !== undefined) {
    const left = budget.amount.minus(
      spent.get(`${offer.offer_id}/${at(budget.period)}`)?.amount ?? 0,
    );
    if (left.lte(0)) return null;
    const payment = room === undefined || cashback.lt(room) ? cashback : room;
    if ((offer.budget as Json).on_exhaust === 'skip' && left.lt(payment)) return null;
    if (room === undefined || left.lt(room)) room = left;
  }
  return room;
}

/** Counts a payment of a funded offer in its budget and its customer's cap. */
function spend(
  offer: Json,
  spent: SpentMap,
  customerId: string,
  at: (period: string) => string,
  cashback: Dec,
): void {
  const keys = [
    ...(offer.budget === undefined
      ? []
      : [`${offer.offer_id}/${at(limitOf(offer.budget, 0)?.period ?? 'offer')}`]),
    ...(offer.customer_cap === undefined
      ? []
      : [
          `${offer.offer_id}/${at(limitOf(offer.customer_cap, 0)?.period ?? 'offer')}/${customerId}`,
        ]),
  ];
  for (const key of keys) {
    const s = spent.get(key);
    spent.set(key, { amount: (s?.amount ?? new D(0)).plus(cashback), count: (s?.count ?? 0) + 1 });
  }
}

/** Replays a data set the naive way. */
export function referenceReplay(
  data: {
    offers: readonly object[];
    customers: readonly unknown[];
    history: readonly unknown[];
    transactions: readonly unknown[];
  },
  options: RefOptions,
): RefResult {
  // Customers: every copy of a repeated id is rejected; the rest registered when valid.
  const idOf = (c: unknown) => {
    const raw = (c as Json | null)?.customer_id;
    const id = typeof raw === 'string' ? raw.trim() : '';
    return id.length > 0 && id.length <= 128 ? id : undefined;
  };
  const counts = new Map<string, number>();
  for (const c of data.customers) {
    const id = idOf(c);
    if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const customers = new Map<string, Customer>();
  data.customers.forEach((c, i) => {
    const id = idOf(c);
    if (id !== undefined && (counts.get(id) ?? 0) > 1) return;
    if (!parseCustomer(c, i).ok) return;
    const json = c as { birthday: string; gender: string; location: { city: string } };
    customers.set(id as string, {
      birthday: json.birthday,
      gender: json.gender.trim().toLowerCase(),
      city: json.location.city,
    });
  });

  const storedIds = new Set<string>();
  const stored: Stored[] = [];
  const store = (
    raw: unknown,
    tx: {
      transactionId: string;
      customerId: string;
      merchant: { name: string; id: string; category_code: string };
      when: { seconds: number; dayText: string };
    },
  ) => {
    storedIds.add(tx.transactionId);
    stored.push({
      customerId: tx.customerId,
      merchant: merchantOf(tx.merchant.name),
      merchantId: tx.merchant.id,
      category: tx.merchant.category_code,
      at: instantOf(raw, tx.when.seconds),
      day: dayNumber(tx.when.dayText),
    });
  };
  data.history.forEach((h, i) => {
    const r = parseTransaction(h, i, options.timeZone, true);
    if (!r.ok || storedIds.has(r.value.transactionId) || !customers.has(r.value.customerId)) return;
    store(h, r.value);
  });

  const spent: SpentMap = new Map();
  const payments: RefPayment[] = [];
  const errors: { key: string; code: string }[] = [];
  data.transactions.forEach((item, i) => {
    const r = parseTransaction(item, i, options.timeZone);
    if (!r.ok) {
      errors.push({ key: r.key, code: 'invalid_transaction' });
      return;
    }
    const tx = r.value;
    const id = tx.transactionId;
    if (storedIds.has(id)) {
      errors.push({ key: id, code: 'duplicate_transaction' });
      return;
    }
    const customer = customers.get(tx.customerId);
    if (customer === undefined) {
      errors.push({ key: id, code: 'customer_not_found' });
      return;
    }

    const raw = item as Json;
    const amount = dec(raw.amount);
    const day = tx.when.dayText;
    const dayNo = dayNumber(day);
    const merchant = merchantOf(tx.merchant.name);
    const age = ageOn(customer.birthday, day);
    const weekday = ((new Date(dayNo * 86_400_000).getUTCDay() + 6) % 7) + 1;
    const instant = instantOf(item, tx.when.seconds);
    const at = (period: string) => periodOf(period, day, dayNo, weekday);
    // Audience: earlier purchases are strictly before this one and at most lookback days before
    // its day, at the offer's merchant or in its scope.
    const earlier = (offer: Json, lookback: number) =>
      stored.filter(
        (p) =>
          p.customerId === tx.customerId &&
          inPlace(offer, p.merchant, p.merchantId, p.category) &&
          before(p.at, instant) &&
          p.day >= dayNo - lookback,
      ).length;
    const channel = (item as Json).channel;

    let best: { offer: Json; cashback: Dec } | undefined;
    let matched = false;
    for (const offer of data.offers as readonly Json[]) {
      if ((offer.active ?? true) !== true) continue;
      if (!inPlace(offer, merchant, tx.merchant.id, tx.merchant.category_code)) continue;
      const channels = offer.channels as string[] | undefined;
      if (channels !== undefined && !channels.includes(channel as string)) continue;
      if (day < (offer.valid_from as string) || day > (offer.valid_to as string)) continue;
      // Before the birthday nobody has an age, and no offer pays (docs/decisions.md, Outcomes).
      if (day < customer.birthday) continue;
      if (!inAgeBands((offer.age as string[] | undefined) ?? [], age)) continue;
      const genders = ((offer.gender as string[] | undefined) ?? []).map((g) =>
        g.trim().toLowerCase(),
      );
      if (genders.length > 0 && !genders.includes(customer.gender)) continue;
      if (offer.min_amount !== undefined && amount.lt(dec(offer.min_amount))) continue;
      const lookback = (offer.lookback_days as number | undefined) ?? 365;
      const audience = offer.audience ?? 'all';
      if (audience === 'new' && earlier(offer, lookback) > 0) continue;
      if (audience === 'returning' && earlier(offer, lookback) === 0) continue;
      if (offer.conditions !== undefined) {
        const facts = {
          transaction: {
            hour: Number(tx.when.text.slice(11, 13)),
            weekday,
            amount: Number(amount.toString()),
          },
          customer: { location: { city: customer.city } },
          history: { merchant_purchases: earlier(offer, lookback) },
        };
        if (!evaluate(offer.conditions as Json, facts)) continue;
      }
      // Round the raw cashback, then cap it at max_cashback rounded down to the scale.
      let cashback = rewardOn(offer, amount).toDecimalPlaces(
        options.scale,
        MODES[options.rounding],
      );
      if (offer.max_cashback !== undefined) {
        const cap = dec(offer.max_cashback).toDecimalPlaces(options.scale, Decimal.ROUND_DOWN);
        if (cashback.gt(cap)) cashback = cap;
      }
      const room = roomOf(offer, spent, tx.customerId, at, options.scale, cashback);
      if (room === null) continue;
      matched = true;
      // The cashback as paid: no more than what the cap and the budget have left.
      if (room !== undefined && cashback.gt(room)) cashback = room;
      if (cashback.isZero()) continue;
      const better =
        best === undefined ||
        cashback.gt(best.cashback) ||
        (cashback.eq(best.cashback) &&
          (offer.offer_id as number) < (best.offer.offer_id as number));
      if (better) best = { offer, cashback };
    }
    store(item, tx);
    if (best !== undefined) {
      spend(best.offer, spent, tx.customerId, at, best.cashback);
      payments.push({
        transaction_id: id,
        customer_id: tx.customerId,
        offer_id: best.offer.offer_id as number,
        cashback: best.cashback.toNumber(),
        payment_date: addDays(day, best.offer.warranty as number),
      });
    } else errors.push({ key: id, code: matched ? 'zero_cashback' : 'no_offer' });
  });
  return { payments, errors };
}
