import type {
  ActivationRecord,
  ClawbackRecord,
  CustomerRecord,
  OfferRevision,
  OutboxEvent,
  PaymentAdjustment,
  PaymentChangeRecord,
  PaymentRecord,
  ReturnRecord,
  StoredPayment,
  TransactionRecord,
} from './records.js';

/**
 * Offers: global, shared by every partner.
 * @public
 */
export interface OfferRepository {
  /**
   * The current revision of every stored offer, active or not, by ascending `offer_id`. Inside a
   * unit of work it holds the offers until the unit ends: it waits for the open units that
   * inserted transactions, and their inserts wait for it, so that a unit's last `revision()` is
   * the one it commits under (docs/stores.md, Customers held by an insert).
   */
  list(): Promise<readonly OfferRevision[]>;
  /**
   * Every revision of these offers (docs/concepts.md, Offer revisions), by ascending `offer_id`,
   * then `revision`; ids without an offer are left out.
   */
  history(offerIds: readonly number[]): Promise<readonly OfferRevision[]>;
  /**
   * A number that changes with every `upsert` that writes (it may also change when nothing did),
   * so that an engine can tell cheaply whether the offers it compiled are still current (several
   * engines may share one store). A session sees its own upserts move it.
   */
  revision(): Promise<number>;
  /**
   * Adds revisions of offers, each its offer's next one (1 for a new offer), and makes them
   * current; offers not named are kept. Every revision stored before stays as it was. Offer ids
   * are distinct within the call; a revision that is not its offer's next is an error (the call
   * throws and stores nothing of it). It holds the offers as `list` in a unit does: it waits for
   * the open units that inserted transactions.
   */
  upsert(revisions: readonly OfferRevision[]): Promise<void>;
}

/**
 * A partner's customers.
 * @public
 */
export interface CustomerRepository {
  /** The partner's customers among these ids, in any order; unknown ids are left out. */
  get(partner: string, ids: readonly string[]): Promise<readonly CustomerRecord[]>;
  /**
   * Creates or replaces customers by `customer_id` (distinct within the call) and counts which
   * were new: an id already stored for the partner counts as updated, even when two calls race.
   */
  upsert(
    partner: string,
    customers: readonly CustomerRecord[],
  ): Promise<{ readonly added: number; readonly updated: number }>;
}

/** Which activations a batch reads: those of these customers for these offers. @public */
export interface ActivationQuery {
  /** Customer ids (distinct). */
  readonly customerIds: readonly string[];
  /** Offer ids (distinct). */
  readonly offerIds: readonly number[];
}

/**
 * A partner's activations (docs/concepts.md, Activation), keyed by customer and offer.
 * @public
 */
export interface ActivationRepository {
  /** The partner's activations of these customers for these offers, in any order. */
  get(partner: string, query: ActivationQuery): Promise<readonly ActivationRecord[]>;
  /**
   * Stores the activations whose (customer, offer) pair the partner has not stored yet; a pair
   * already stored keeps its record and counts as updated, even when two calls race. Pairs are
   * distinct within the call.
   */
  add(
    partner: string,
    activations: readonly ActivationRecord[],
  ): Promise<{ readonly added: number; readonly updated: number }>;
}

/**
 * One funding counter over a range of days (docs/stores.md, Funding counters): an offer's budget
 * (`customer_id` null: one counter that every partner shares) or the cap of one of the
 * partner's customers for an offer.
 * @public
 */
export interface FundingRange {
  /** The offer. */
  readonly offer_id: number;
  /** The customer of a cap; `null` for the offer's budget. */
  readonly customer_id: string | null;
  /** First day, inclusive, `YYYY-MM-DD`. */
  readonly from: string;
  /** Last day, inclusive, `YYYY-MM-DD`. */
  readonly to: string;
}

/** What a counter holds over a range of days. @public */
export interface FundingTotal {
  /** Sum of the current cashback of its payments, an exact plain decimal text (`0` when none). */
  readonly amount: string;
  /** How many of its payments are above 0. */
  readonly count: number;
}

/** A change of one counter on one day (the day of the paid transaction). @public */
export interface FundingChange {
  /** The offer. */
  readonly offer_id: number;
  /** The customer of a cap; `null` for the offer's budget. */
  readonly customer_id: string | null;
  /** The transaction's day, `YYYY-MM-DD`. */
  readonly day: string;
  /** What is added, an exact plain decimal text; negative when a return gives back. */
  readonly amount: string;
  /** Payments added: `1` for a new payment, `-1` for one a return brought to 0, else `0`. */
  readonly count: number;
}

/**
 * What budgets and caps have spent, per offer (and customer) and day (docs/stores.md, Funding
 * counters). Exact under concurrency: inside a unit of work, `hold` keeps every counter it names
 * from other units until the unit ends, so a unit that holds, decides and adds is never raced.
 * @public
 */
export interface FundingRepository {
  /**
   * The totals of `ranges`, one per range, in order. Inside a unit of work it first holds every
   * counter the ranges name (the budgets, shared by all partners, and the partner's caps) until
   * the unit ends: no other unit can hold or change them in between. Outside one, a plain read.
   */
  hold(partner: string, ranges: readonly FundingRange[]): Promise<readonly FundingTotal[]>;
  /**
   * Adds `changes` to the counters (a counter never written holds 0). Inside a unit of work it
   * holds the counters it changes, as `hold` does.
   */
  add(partner: string, changes: readonly FundingChange[]): Promise<void>;
  /**
   * Works the counters of offers out again from the stored payments of every partner: each
   * payment's current cashback on its transaction's day, payments at 0 not counted. For an offer
   * that gains a budget (`budgets`) or a cap (`caps`) on a reload: its payments were not counted
   * while it had none. Its earlier counters of that kind are replaced.
   */
  recount(query: FundingRecount): Promise<void>;
}

/** Which offers' counters `FundingRepository.recount` works out again. @public */
export interface FundingRecount {
  /** Offers whose budget counters (shared by every partner) are recounted. */
  readonly budgets: readonly number[];
  /** Offers whose customers' cap counters (of every partner) are recounted. */
  readonly caps: readonly number[];
}

/**
 * Which purchases a lookback reads: pairs of customer and merchant key, and customers read at every
 * merchant (for offers scoped to many merchants, docs/concepts.md, Scopes), from a day on.
 * @public
 */
export interface PurchaseQuery {
  /** Customer and merchant key pairs (distinct), of customers not in `customers`. */
  readonly pairs: readonly { readonly customerId: string; readonly merchantKey: string }[];
  /** Customers (distinct) whose transactions at any merchant are read; absent: none. */
  readonly customers?: readonly string[];
  /** First day, `YYYY-MM-DD`, inclusive: transactions of earlier days are left out. */
  readonly fromDay: string;
}

/**
 * Options of `transactions.insert` (docs/stores.md, Customers held by an insert).
 * @public
 */
export interface TransactionInsertOptions {
  /**
   * The customers the insert holds until its unit ends, in place of the records' customers
   * (ids; repeats allowed, unregistered ones hold nothing). The engine names the customers whose
   * purchases its batch read, and none when it read none: a batch that read no history has no
   * lookback to keep current, and each customer held is a row lock on PostgreSQL.
   */
  readonly hold?: readonly string[];
}

/**
 * A partner's stored transactions, history and submitted alike: one id space per partner.
 * @public
 */
export interface TransactionRepository {
  /** Which of these ids the partner has stored, in any order. */
  existing(partner: string, ids: readonly string[]): Promise<readonly string[]>;
  /** The partner's stored transactions among these ids, in any order; unknown ids are left out. */
  get(partner: string, ids: readonly string[]): Promise<readonly TransactionRecord[]>;
  /**
   * Inserts the transactions whose id the partner has not stored yet and returns those ids, in
   * any order. Atomic per id: when two calls race on one id, exactly one of them reports it.
   * Ids are distinct within the call. Inside a unit of work it holds customers until the unit
   * ends (the records' customers, or `options.hold`): another unit's insert that holds any of
   * them waits, so that unit's reads after its insert see this unit's purchases (how the engine
   * checks the lookback it decided on; docs/stores.md, Customers held by an insert). It holds the
   * offers too, as `offers.list` in a unit does: a reload waits for the unit to end.
   */
  insert(
    partner: string,
    transactions: readonly TransactionRecord[],
    options?: TransactionInsertOptions,
  ): Promise<readonly string[]>;
  /**
   * The partner's transactions whose `day` is on or after `fromDay` of the query's pairs (a
   * customer at a merchant key, `merchant_key`) and of its `customers` (at any merchant), in any
   * order: the earlier purchases a batch's lookbacks read.
   */
  purchases(partner: string, query: PurchaseQuery): Promise<readonly TransactionRecord[]>;
}

/** A page of a payments listing. @public */
export interface PaymentPage {
  /** How many payments match the range, over all pages. */
  readonly total: number;
  /** The page's payments, by `payment_date`, then `transaction_id` (code-unit order). */
  readonly items: readonly PaymentRecord[];
}

/** Which payments a listing returns. @public */
export interface PaymentQuery {
  /** First payment day, `YYYY-MM-DD`, inclusive. */
  readonly from: string;
  /** Last payment day, `YYYY-MM-DD`, inclusive. */
  readonly to: string;
  /** How many matching payments to skip, in listing order. */
  readonly offset: number;
  /** At most this many payments (≥ 1). */
  readonly limit: number;
}

/**
 * A partner's cashback payments.
 * @public
 */
export interface PaymentRepository {
  /**
   * Stores payments. A transaction id that already has a payment for the partner (stored, or
   * twice in the call) is an error: the call throws and stores none of its payments. The engine
   * lets that error end its unit of work, so nothing of the unit is kept.
   */
  insert(partner: string, payments: readonly PaymentRecord[]): Promise<void>;
  /**
   * Payments whose `payment_date` lies in `[from, to]` and whose cashback is not 0 (returns
   * cancelled those), paged in listing order.
   */
  list(partner: string, query: PaymentQuery): Promise<PaymentPage>;
  /**
   * The partner's payments of these transaction ids, with their current cashback (those at 0
   * included), what their clawbacks took and whether they are confirmed, in any order; ids
   * without a payment are left out.
   */
  get(partner: string, transactionIds: readonly string[]): Promise<readonly StoredPayment[]>;
  /**
   * Sets the cashback of payments that still have `previous_cashback_amount` (compared as
   * numbers) and are not confirmed to `cashback_amount`; the others, and ids without a payment,
   * are left as they are. Transaction ids are distinct within the call.
   * @returns the transaction ids whose payment it changed, in any order
   */
  adjust(partner: string, adjustments: readonly PaymentAdjustment[]): Promise<readonly string[]>;
  /**
   * Appends entries to payments' histories (docs/concepts.md, History), in order: adjustments as
   * their returns made them, and clawbacks, each of which adds its amount to its payment's
   * `clawed_back_amount`. Entries are never changed. A clawback whose return id the partner has
   * recorded a clawback for (stored, or twice in the call) is an error: the call throws and
   * records nothing.
   */
  record(partner: string, changes: readonly PaymentChangeRecord[]): Promise<void>;
  /** The history of one payment, in the order recorded; empty when it has none. */
  history(partner: string, transactionId: string): Promise<readonly PaymentChangeRecord[]>;
  /**
   * Clawbacks whose return `day` lies in `[from, to]`, paged in listing order: by `day`, then
   * `return_id` (code-unit order).
   */
  clawbacks(partner: string, query: PaymentQuery): Promise<ClawbackPage>;
}

/** A page of a clawbacks listing. @public */
export interface ClawbackPage {
  /** How many clawbacks match the range, over all pages. */
  readonly total: number;
  /** The page's clawbacks, in listing order. */
  readonly items: readonly ClawbackRecord[];
}

/** Which payments `ConfirmationRepository.take` confirms. @public */
export interface ConfirmationQuery {
  /** The last payment day that has begun, `YYYY-MM-DD`: payments due on or before it. */
  readonly through: string;
  /** At most this many payments (≥ 1). */
  readonly limit: number;
  /** The `cashback.confirmed` event that will carry them. */
  readonly event_id: string;
}

/** Payments of one partner and one payment day that `ConfirmationRepository.take` confirmed. @public */
export interface ConfirmedPayments {
  /** Their partner. */
  readonly partner: string;
  /** Their payment day. */
  readonly payment_date: string;
  /** The payments, in listing order (by `transaction_id`, code-unit order). */
  readonly payments: readonly PaymentRecord[];
}

/**
 * Which payments are confirmed (docs/concepts.md, Confirmation): each payment is confirmed once,
 * by one `cashback.confirmed` event, across restarts and instances.
 * @public
 */
export interface ConfirmationRepository {
  /**
   * Confirms, with `query.event_id`, at most `query.limit` payments of one partner and one
   * payment day on or before `query.through` that are not confirmed yet and whose cashback is
   * above 0, and returns them; `undefined` when none is left. Payments another unit of work is
   * confirming are skipped (a store may skip the whole day that unit is confirming), so that
   * several instances confirm at once and each payment once; a store may wait for units that
   * are storing or changing payments of the days it confirms (docs/stores.md, Confirmation), so
   * call it first in its unit. Inside a unit, what it confirmed is kept or undone with the unit.
   */
  take(query: ConfirmationQuery): Promise<ConfirmedPayments | undefined>;
}

/**
 * A partner's returns (docs/concepts.md, Returns): their own id space per partner.
 * @public
 */
export interface ReturnRepository {
  /** Which of these return ids the partner has stored, in any order. */
  existing(partner: string, ids: readonly string[]): Promise<readonly string[]>;
  /**
   * What these transactions have had returned: per transaction with a stored return, the sum of
   * their amounts and their number, in any order (a transaction with none is left out). Kept as
   * running totals that `insert` moves, so that its cost does not grow with the returns stored
   * before. Inside a unit of work it first holds the transactions until the unit ends, as
   * `insert` does: another unit's `hold` or `insert` of any of them waits, so a unit that holds,
   * decides and inserts is never raced (docs/stores.md, Returns).
   */
  hold(partner: string, transactionIds: readonly string[]): Promise<readonly ReturnedTotal[]>;
  /** The partner's stored returns of these transaction ids, in any order. */
  ofTransactions(
    partner: string,
    transactionIds: readonly string[],
  ): Promise<readonly ReturnRecord[]>;
  /**
   * Inserts the returns whose id the partner has not stored yet and returns those ids, in any
   * order. Atomic per id: when two calls race on one id, exactly one of them reports it. Ids are
   * distinct within the call. Inside a unit of work it holds the returns' transactions until the
   * unit ends: another unit's insert of a return of any of them waits, so that this unit's reads
   * after its insert see every return of them stored before (how the engine checks that nothing
   * more is returned than bought).
   */
  insert(partner: string, returns: readonly ReturnRecord[]): Promise<readonly string[]>;
}

/** What one transaction has had returned (`ReturnRepository.hold`). @public */
export interface ReturnedTotal {
  /** The transaction. */
  readonly transaction_id: string;
  /** The sum of the amounts of its stored returns, an exact plain decimal text. */
  readonly amount: string;
  /** How many returns of it are stored. */
  readonly count: number;
}

/** An outbox event and where it sits in the partner's outbox. @public */
export interface StoredOutboxEvent extends OutboxEvent {
  /**
   * Position in the partner's outbox, from 1: increasing in the order the events were committed,
   * so that a reader polling with `after` misses none (a number drawn when the row is inserted,
   * such as a SQL sequence, does not guarantee that when units of work overlap).
   */
  readonly sequence: number;
}

/**
 * Events waiting for webhook delivery, per partner.
 * @public
 */
export interface OutboxRepository {
  /**
   * Appends events to the partner's outbox, in array order. Event ids are unique across the
   * store (all partners): an id that exists, or appears twice in the call, makes the call throw
   * and add nothing.
   */
  add(partner: string, events: readonly OutboxEvent[]): Promise<void>;
  /**
   * The partner's events with a `sequence` greater than `after` (default: from the start), in
   * sequence order, at most `limit` of them.
   */
  list(
    partner: string,
    query: { readonly after?: number; readonly limit: number },
  ): Promise<readonly StoredOutboxEvent[]>;
}

/** Which claimed delivery a record is about: the event and the lease its claim took. @public */
export interface DeliveryRef {
  /** The event's partner. */
  readonly partner: string;
  /** The event's `sequence` in the partner's outbox. */
  readonly sequence: number;
  /** The lease of the claim (`DeliveryClaimQuery.lease`). */
  readonly lease: string;
}

/** An outbox event claimed for a delivery attempt. @public */
export interface ClaimedDelivery extends StoredOutboxEvent, DeliveryRef {
  /** Which attempt this claim is, from 1: every claim counts, also one whose holder crashed. */
  readonly attempt: number;
}

/** What {@link DeliveryRepository.claim} takes. @public */
export interface DeliveryClaimQuery {
  /** Only events of these partners are claimed. */
  readonly partners: readonly string[];
  /** The present, in milliseconds since the epoch: events due at or before it are claimed. */
  readonly now: number;
  /**
   * Until when the claim holds, in milliseconds since the epoch: past it, an event claimed and
   * not recorded (its holder crashed) is due again.
   */
  readonly leaseUntil: number;
  /** A token unique to this claim: records made with another token are ignored. */
  readonly lease: string;
  /** At most this many events (≥ 1). */
  readonly limit: number;
}

/** An event whose last attempt failed: it waits for a redelivery. @public */
export interface DeadLetter extends StoredOutboxEvent {
  /** The event's partner. */
  readonly partner: string;
  /** How many attempts were made. */
  readonly attempts: number;
  /** The last attempt's error. */
  readonly error: string;
  /** When it was dead-lettered, in milliseconds since the epoch. */
  readonly dead_at: number;
}

/**
 * The outbox's delivery state, kept with the outbox (docs/stores.md): every event is pending
 * (due at once when added), delivered or dead. A dispatcher claims due pending events with a
 * lease, then records the outcome; several dispatchers may claim at once and never get one
 * event twice while its lease holds.
 * @public
 */
export interface DeliveryRepository {
  /**
   * Claims pending events of `partners` that are due at `now` (never claimed, or their next
   * attempt or their lease has come): at most `limit` of them, lowest `sequence` first within a
   * partner. Each claimed event counts an attempt and is not due again before `leaseUntil`.
   * Events a concurrent claim holds are skipped, not waited for.
   */
  claim(query: DeliveryClaimQuery): Promise<readonly ClaimedDelivery[]>;
  /**
   * Records that these claims were delivered: the events are never claimed again.
   * @returns how many were recorded (a claim whose lease another claim took is not)
   */
  delivered(claims: readonly DeliveryRef[], now: number): Promise<number>;
  /**
   * Records a failed attempt: the event is due again at `nextAttemptAt`.
   * @returns whether it was recorded (false when the lease was lost)
   */
  retry(
    claim: DeliveryRef,
    outcome: { readonly nextAttemptAt: number; readonly error: string },
  ): Promise<boolean>;
  /**
   * Records a failed last attempt: the event is dead-lettered with `error` and not due again
   * until it is redelivered.
   * @returns whether it was recorded (false when the lease was lost)
   */
  deadLetter(
    claim: DeliveryRef,
    outcome: { readonly now: number; readonly error: string },
  ): Promise<boolean>;
  /**
   * Gives claims back unattempted (a dispatcher stopping): due again at `now`, the attempt not
   * counted.
   */
  release(claims: readonly DeliveryRef[], now: number): Promise<void>;
  /**
   * Dead letters, by partner then `sequence`, at most `limit` of them; only `partner`'s when it
   * is given.
   */
  deadLetters(query: {
    readonly partner?: string;
    readonly limit: number;
  }): Promise<readonly DeadLetter[]>;
  /**
   * Makes dead letters pending again, due at `now`, their attempts counted from zero: those
   * whose event id is in `ids`, or every one when `ids` is absent; only `partner`'s when it is
   * given. Ids that are not dead letters are ignored.
   * @returns the event ids made pending, in any order
   */
  redeliver(query: {
    readonly ids?: readonly string[];
    readonly partner?: string;
    readonly now: number;
  }): Promise<readonly string[]>;
}

/**
 * The repositories: what the engine reads and writes. Every method is batch-shaped (one call per
 * request and resource, never one per item) and, apart from offers, scoped by partner: a partner
 * never reads, lists, collides with or overwrites another partner's data.
 * @public
 */
export interface StoreSession {
  /** Offers (global). */
  readonly offers: OfferRepository;
  /** Customers. */
  readonly customers: CustomerRepository;
  /** Activations of offers by customers. */
  readonly activations: ActivationRepository;
  /** Transactions, history and submitted. */
  readonly transactions: TransactionRepository;
  /** Cashback payments. */
  readonly payments: PaymentRepository;
  /** The event outbox. */
  readonly outbox: OutboxRepository;
  /** Returns. */
  readonly returns: ReturnRepository;
  /** What budgets and caps have spent. */
  readonly funding: FundingRepository;
  /** Which payments are confirmed. */
  readonly confirmations: ConfirmationRepository;
}

/**
 * A store: the repositories plus units of work. Calls made on the store itself are each atomic
 * on their own; calls made on the session a unit of work hands out are atomic together.
 * @public
 */
export interface Store extends StoreSession {
  /**
   * Runs `fn` as one unit of work: everything it writes through `session` is kept if it resolves,
   * and nothing if it throws (the error is rethrown). Reads through `session` see its own writes;
   * other callers see none of them until it resolves. Inside `fn`, use `session`, not the store:
   * a store may serialise units of work, and a write on the store itself would wait for `fn`.
   * @param fn - the work, given the session to read and write through
   * @returns what `fn` returns
   */
  transaction<T>(fn: (session: StoreSession) => Promise<T>): Promise<T>;
  /**
   * The outbox's delivery state, for webhook dispatchers (`cashback-engine/webhooks`). Optional:
   * a store without it can serve the engine but not a dispatcher. Its calls are each atomic, and
   * are not part of units of work.
   */
  readonly deliveries?: DeliveryRepository;
  /** Releases what the store holds (connections, timers). Optional. */
  close?(): Promise<void>;
}
