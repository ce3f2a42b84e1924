import { compareText } from '../../model/compareText.js';
/**
 * What the store conformance suite's parts share: the registration of a test on a fresh store,
 * record factories, and helpers that compare what a store returns with what it was given.
 */
import { formatDay, parseDay } from '../../model/day.js';
import type { Offer } from '../../model/schemas.js';
import type {
  CustomerRecord,
  OfferRevision,
  OutboxEvent,
  PaymentRecord,
  Store,
  StoreSession,
  TransactionRecord,
} from '../../store/index.js';

/** How a part of the suite registers its groups and tests. */
export interface Suite {
  /** Groups tests under a name. */
  readonly describe: (name: string, fn: () => void) => void;
  /** Registers a test that gets a fresh store, closed after it however it ends. */
  readonly test: (name: string, fn: (store: Store) => Promise<void>, timeout?: number) => void;
  /** Size of the large-batch checks. */
  readonly largeBatch: number;
}

/** Two partners; their names join with ids into distinct texts. */
export const PARTNER_A = 'partner-a';
/** The second partner. */
export const PARTNER_B = 'partner-b';

/** A range that holds every payment day. */
export const ALL_DAYS = { from: '0000-01-01', to: '9999-12-31' } as const;

/** A limit above any listing the suite makes. */
export const NO_LIMIT = 1_000_000;

/** A customer; `overrides` replace fields. */
export function makeCustomer(id: string, overrides: Partial<CustomerRecord> = {}): CustomerRecord {
  return {
    customer_id: id,
    birthday: '1990-05-17',
    gender: 'female',
    location: { country: 'FR', city: 'Paris' },
    ...overrides,
  };
}

/** What a transaction the factory builds differs in. */
export interface TransactionSpec {
  readonly customer?: string;
  /** Merchant key (the normalised name). */
  readonly merchant?: string;
  /** `YYYY-MM-DD`. */
  readonly day?: string;
  /** `HH:mm:ss.SSSSSSSSS`: nine fraction digits, so a store that keeps fewer is caught. */
  readonly time?: string;
  readonly source?: 'history' | 'transaction';
  readonly amount?: string;
  readonly description?: string;
  /** The merchant's category code (default `5814`; empty for history). */
  readonly category?: string;
  /** Where it was paid; absent: not sent. */
  readonly channel?: 'online' | 'in_store';
}

/** A stored transaction; history ones have no location and empty merchant id and category. */
export function makeTransaction(id: string, spec: TransactionSpec = {}): TransactionRecord {
  const day = spec.day ?? '2025-03-10';
  const key = spec.merchant ?? 'coffee house';
  const source = spec.source ?? 'transaction';
  const history = source === 'history';
  const record: TransactionRecord = {
    transaction_id: id,
    customer_id: spec.customer ?? 'c1',
    source,
    date: `${day}T${spec.time ?? '12:30:45.123456789'}`,
    day,
    amount: spec.amount ?? '12.34',
    merchant_key: key,
    merchant: {
      id: history ? '' : `m-${key}`,
      name: key.toUpperCase(),
      category_code: spec.category ?? (history ? '' : '5814'),
    },
    description: spec.description ?? (history ? '' : `purchase ${id}`),
    ...(spec.channel === undefined ? {} : { channel: spec.channel }),
  };
  return history ? record : { ...record, location: { country: 'FR', city: 'Lyon' } };
}

/** What a payment the factory builds differs in. */
export interface PaymentSpec {
  readonly customer?: string;
  /** `payment_date`, `YYYY-MM-DD`. */
  readonly date?: string;
  readonly offer?: number;
  readonly cashback?: string;
  readonly event?: string;
  /** `offer_revision`. */
  readonly revision?: number;
}

/** A payment for a transaction. */
export function makePayment(transactionId: string, spec: PaymentSpec = {}): PaymentRecord {
  return {
    transaction_id: transactionId,
    customer_id: spec.customer ?? 'c1',
    offer_id: spec.offer ?? 1,
    cashback_amount: spec.cashback ?? '0.62',
    payment_date: spec.date ?? '2025-03-24',
    country: 'FR',
    city: 'Lyon',
    event_id: spec.event ?? 'event-1',
    offer_revision: spec.revision ?? 1,
  };
}

/** An outbox event with a small nested payload. */
export function makeEvent(
  id: string,
  payload: Readonly<Record<string, unknown>> = { transaction_id: id },
): OutboxEvent {
  return {
    id,
    type: 'cashback.created',
    payload: { ...payload, nested: { amounts: ['0.62', 1.5], flag: true, none: null } },
    created_at: '2025-03-10T12:30:45.123Z',
  };
}

/** An offer; `overrides` replace fields. */
export function makeOffer(id: number, overrides: Partial<Offer> = {}): Offer {
  return {
    offer_id: id,
    name: `Offer ${id}`,
    merchant_name: 'Coffee House',
    warranty: 14,
    discount: '5',
    valid_from: '2025-01-01',
    valid_to: '2025-12-31',
    active: true,
    ...overrides,
  };
}

/** A revision of an offer: the first by default. */
export function revisionOf(offer: Offer, revision = 1): OfferRevision {
  return {
    offer,
    revision,
    effective_at: `2025-03-${String(9 + revision).padStart(2, '0')}T12:00:00.000Z`,
  };
}

/** An offer with every optional field, so that a store must keep them all. */
export function makeRichOffer(id: number): Offer {
  return makeOffer(id, {
    merchant_logo: 'https://example.com/logo.png',
    age: ['18-25', '60+'],
    gender: ['female', 'other'],
    category_name: 'Food',
    discount: 7.5,
    min_amount: '10.00',
    max_cashback: 3,
    audience: 'returning',
    lookback_days: 90,
    conditions: {
      all: [{ fact: 'transaction', path: '$.location.city', operator: 'equal', value: 'Lyon' }],
    },
    metadata: { campaign: 'spring', tags: ['a', 1, null], owner: { team: 'cards' } },
  });
}

/** The day `n` days after `day` (`YYYY-MM-DD`). */
export function addDays(day: string, n: number): string {
  const number = parseDay(day);
  if (number === undefined) throw new RangeError(`'${day}' is not a day YYYY-MM-DD`);
  return formatDay(number + n);
}

/** Payments in listing order: `payment_date`, then `transaction_id`. */
export function listingOrder(payments: readonly PaymentRecord[]): PaymentRecord[] {
  return [...payments].sort(
    (a, b) =>
      compareText(a.payment_date, b.payment_date) ||
      compareText(a.transaction_id, b.transaction_id),
  );
}

/**
 * A value as JSON has it: what a store must give back, whatever it turns an absent optional
 * field into on the way (`undefined` and absent compare equal after this, `null` does not).
 */
export function plainCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Records sorted by a key and made plain, for comparing results returned in any order. */
export function sortedBy<T>(records: readonly T[], key: (r: T) => string): T[] {
  return plainCopy([...records].sort((a, b) => compareText(key(a), key(b))));
}

/**
 * The ids of events, claims or dead letters, in the order given.
 * @param records - what a store listed
 * @returns their ids
 */
export function idsOf(records: readonly { readonly id: string }[]): string[] {
  return records.map((r) => r.id);
}

/** Ids in code-unit order. */
export function sortedIds(ids: readonly string[]): string[] {
  return [...ids].sort(compareText);
}

/**
 * A short wait that differs between units, so that their statements interleave.
 * @param k - the unit's number
 * @returns a promise resolved after 0 to 2 milliseconds
 */
export function jitter(k: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, k % 3));
}

/**
 * Starts `callers` units of work at once, unit `k` doing `work` after its `jitter(k)`.
 * @param store - the store under test
 * @param callers - how many units race
 * @param work - what unit `k` does in its session
 * @returns each unit's promise, in caller order
 */
export function racingUnits<T>(
  store: Store,
  callers: number,
  work: (session: StoreSession, k: number) => Promise<T>,
): Promise<T>[] {
  return Array.from({ length: callers }, (_, k) =>
    store.transaction(async (s) => {
      await jitter(k);
      return work(s, k);
    }),
  );
}

/** A promise and the function that resolves it. */
interface Deferred<T> {
  readonly promise: Promise<T>;
  readonly resolve: (value: T) => void;
}

/** A promise resolved from outside. */
function deferred<T = void>(): Deferred<T> {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A unit of work stopped midway, with its writes so far open, until the test releases it. */
export interface PausedUnit<T> {
  /** The unit: what it returns once released, or its error. */
  readonly done: Promise<T>;
  /** Resolves when the unit reaches its pause. */
  readonly paused: Promise<void>;
  /** Lets the unit go on past its pause. */
  readonly release: () => void;
}

/**
 * Starts a unit of work that stops where `work` calls `pause()` until `release()` is called, so
 * that a test can race other calls against what the unit holds or wrote.
 * @param store - the store under test
 * @param work - the unit's work; `pause()` resolves once the test releases the unit
 * @returns the unit, its pause and its release
 */
export function pausedUnit<T>(
  store: Store,
  work: (session: StoreSession, pause: () => Promise<void>) => Promise<T>,
): PausedUnit<T> {
  const paused = deferred();
  const release = deferred();
  const done = store.transaction((s) =>
    work(s, () => {
      paused.resolve();
      return release.promise;
    }),
  );
  return { done, paused: paused.promise, release: () => release.resolve() };
}

/** Whether `promise` settles (either way) within `ms` milliseconds. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether `promise` settles within `ms` milliseconds while `unit` is paused; the unit is then
 * released and waited for, whatever happened, since a unit left open would hold the store.
 * @param unit - the paused unit
 * @param promise - a call that may have to wait for the unit
 * @param ms - how long the call is given
 * @returns whether the call settled before the unit was released
 */
export async function settlesBeforeRelease(
  unit: PausedUnit<unknown>,
  promise: Promise<unknown>,
  ms: number,
): Promise<boolean> {
  try {
    return await settlesWithin(promise, ms);
  } finally {
    unit.release();
    await unit.done;
  }
}

/** Which ids and pairs a snapshot reads. */
export interface Probe {
  readonly partner: string;
  readonly customerIds: readonly string[];
  readonly transactionIds: readonly string[];
  readonly pairs: readonly { readonly customerId: string; readonly merchantKey: string }[];
}

/** Everything a probe can read, made plain and sorted where order is free. */
export interface Snapshot {
  readonly offers: readonly OfferRevision[];
  readonly customers: readonly CustomerRecord[];
  readonly existing: readonly string[];
  readonly purchases: readonly TransactionRecord[];
  readonly payments: { readonly total: number; readonly items: readonly PaymentRecord[] };
  readonly outbox: readonly unknown[];
}

/**
 * Reads every repository through `session` (one call after the other: a session need not take
 * concurrent calls). Offer revisions are left out: a store may move them without a change.
 */
export async function takeSnapshot(session: StoreSession, probe: Probe): Promise<Snapshot> {
  const { partner } = probe;
  const offers = await session.offers.list();
  const customers = await session.customers.get(partner, probe.customerIds);
  const existing = await session.transactions.existing(partner, probe.transactionIds);
  const purchases = await session.transactions.purchases(partner, {
    pairs: probe.pairs,
    fromDay: '0000-01-01',
  });
  const payments = await session.payments.list(partner, {
    ...ALL_DAYS,
    offset: 0,
    limit: NO_LIMIT,
  });
  const outbox = await session.outbox.list(partner, { limit: NO_LIMIT });
  return {
    offers: plainCopy(offers),
    customers: sortedBy(customers, (c) => c.customer_id),
    existing: sortedIds(existing),
    purchases: sortedBy(purchases, (t) => t.transaction_id),
    payments: plainCopy(payments),
    outbox: plainCopy(outbox),
  };
}

/** Whether the numbers are strictly increasing. */
export function isIncreasing(sequences: readonly number[]): boolean {
  for (let i = 1; i < sequences.length; i++) {
    if (!((sequences[i] as number) > (sequences[i - 1] as number))) return false;
  }
  return true;
}
