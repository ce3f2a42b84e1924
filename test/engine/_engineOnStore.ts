/**
 * The engine's example tests that go through its store: offers and their events, the cashback
 * event, the unit of work, stored records, active offers, explain, history across requests,
 * tenancy, customers as matching reads them, `details`, injected clock and ids, and the money
 * options. Shared by every store: the memory store (test/engine/engine.test.ts), PGlite and a
 * PostgreSQL server (test/postgres/engineExamples.test.ts).
 */
import { afterEach, describe, expect, test } from 'vitest';
import {
  type CashbackEngine,
  createEngine,
  createMemoryPartners,
  type EngineOptions,
} from '../../src/engine/entry.js';
import { OfferValidationError } from '../../src/index.js';
import type { Store, StoreSession } from '../../src/store/entry.js';
import { customer, history, offer, tx } from '../fixtures.js';

export const A = 'bank-a';
const B = 'bank-b';
export const NOON = '2025-06-01T12:00:00.000Z';
export const EVERYTHING = { date_from: '0001-01-01', date_to: '9999-12-31', page_size: 1000 };

/** Counting event ids `evt-1`, `evt-2`, … */
export function counter(): () => string {
  let n = 0;
  return () => `evt-${++n}`;
}

/** The offer as stored and reported: the fixture with `active` filled in. */
function stored(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...offer(over), active: true, ...over };
}

const already = (id: string) => `Transaction '${id}' is already in the service`;
const elsewhere = { id: 'm9', name: 'Elsewhere', category_code: '1' };

async function outboxOf(engine: CashbackEngine, partner: string) {
  return engine.store.outbox.list(partner, { limit: 100 });
}

/**
 * The tests, on engines over stores from `createStore`: each call gives a new, empty store. Every
 * store a test takes is closed after it.
 * @param createStore - a fresh, empty store
 */
export function describeEngineOnStore(createStore: () => Promise<Store>): void {
  const opened: Store[] = [];
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close?.();
  });

  /** A fresh store, closed after the test. */
  async function fresh(): Promise<Store> {
    const store = await createStore();
    opened.push(store);
    return store;
  }

  /** An engine with a fixed clock and counting ids, over a fresh store unless given one. */
  async function engineOf(options: EngineOptions = {}): Promise<CashbackEngine> {
    const store = options.store ?? (await fresh());
    return createEngine({ clock: () => new Date(NOON), ids: counter(), ...options, store });
  }

  /** An engine with the given offers (default: the fixture offer) and customer c1 of bank-a. */
  async function ready(
    offers: readonly Record<string, unknown>[] = [offer()],
    options: EngineOptions = {},
  ): Promise<CashbackEngine> {
    const engine = await engineOf(options);
    await engine.upsertOffers(offers);
    await engine.upsertCustomers(A, [customer()]);
    return engine;
  }

  describe('upsertOffers', () => {
    test('returns the created, updated and unchanged offer ids, each ascending', async () => {
      const engine = await engineOf();
      expect(
        await engine.upsertOffers([offer({ offer_id: 3 }), offer(), offer({ offer_id: 2 })]),
      ).toEqual({ created: [1, 2, 3], updated: [], unchanged: [] });
      expect(
        await engine.upsertOffers([
          offer({ offer_id: 4 }),
          offer({ offer_id: 3, active: false }),
          offer({ offer_id: 2 }),
          offer({ discount: 6 }),
        ]),
      ).toEqual({ created: [4], updated: [1, 3], unchanged: [2] });
      expect((await engine.store.offers.list()).map((r) => r.offer)).toEqual([
        stored({ discount: 6 }),
        stored({ offer_id: 2 }),
        stored({ offer_id: 3, active: false }),
        stored({ offer_id: 4 }),
      ]);
    });

    test('an offer re-sent with its keys in another order, or active: true spelled out, is unchanged', async () => {
      const engine = await engineOf();
      await engine.upsertOffers([offer()]);
      const reversed = Object.fromEntries(Object.entries(offer()).reverse());
      expect(await engine.upsertOffers([reversed])).toEqual({
        created: [],
        updated: [],
        unchanged: [1],
      });
      expect(await engine.upsertOffers([offer({ active: true })])).toEqual({
        created: [],
        updated: [],
        unchanged: [1],
      });
    });

    test('dropping an optional field counts as updated', async () => {
      const engine = await engineOf();
      await engine.upsertOffers([offer({ min_amount: 5, audience: 'all' })]);
      expect(await engine.upsertOffers([offer()])).toEqual({
        created: [],
        updated: [1],
        unchanged: [],
      });
      expect((await engine.store.offers.list()).map((r) => r.offer)).toEqual([stored()]);
    });

    test('a deactivated offer re-sent without active is active again: updated', async () => {
      const engine = await engineOf();
      await engine.upsertOffers([offer({ active: false })]);
      expect(await engine.upsertOffers([offer()])).toEqual({
        created: [],
        updated: [1],
        unchanged: [],
      });
      expect((await engine.store.offers.list()).map((r) => r.offer)).toEqual([stored()]);
    });

    test('re-sending identical offers writes nothing: no event, no new revision', async () => {
      const engine = await engineOf({
        partners: createMemoryPartners([{ application_id: A, webhook_url: 'https://a.example' }]),
      });
      await engine.upsertOffers([offer(), offer({ offer_id: 2 })]);
      const revision = await engine.store.offers.revision();
      expect(await engine.upsertOffers([offer({ offer_id: 2 }), offer()])).toEqual({
        created: [],
        updated: [],
        unchanged: [1, 2],
      });
      expect(await engine.store.offers.revision()).toBe(revision);
      expect((await outboxOf(engine, A)).map((e) => e.id)).toEqual(['evt-1', 'evt-2']);
    });

    test('offers not named are kept', async () => {
      const engine = await engineOf();
      await engine.upsertOffers([offer(), offer({ offer_id: 2, merchant_name: 'Bakery' })]);
      await engine.upsertOffers([offer({ offer_id: 2, merchant_name: 'Bakery', discount: 7 })]);
      expect((await engine.store.offers.list()).map((r) => r.offer)).toEqual([
        stored(),
        stored({ offer_id: 2, merchant_name: 'Bakery', discount: 7 }),
      ]);
      await engine.upsertCustomers(A, [customer()]);
      const r = await engine.addTransactions(A, [tx()]);
      expect(r.payments).toEqual([
        { cashback: 0.5, payment_date: '2025-06-16', transaction_id: 't1' },
      ]);
    });

    test('an invalid offer throws OfferValidationError naming it, and nothing of the load is stored', async () => {
      const engine = await engineOf({
        partners: createMemoryPartners([{ application_id: A, webhook_url: 'https://a.example' }]),
      });
      await engine.upsertOffers([offer()]);
      const err = await engine
        .upsertOffers([offer({ discount: 9 }), offer({ offer_id: 6, discount: 120 })])
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OfferValidationError);
      expect((err as OfferValidationError).message).toBe(
        'Invalid offers: offer 6: discount must be at most 100',
      );
      expect((err as OfferValidationError).issues).toEqual([
        { offer: '6', path: 'discount', message: 'must be at most 100' },
      ]);
      expect((await engine.store.offers.list()).map((r) => r.offer)).toEqual([stored()]);
      expect((await outboxOf(engine, A)).map((e) => e.id)).toEqual(['evt-1']);
    });

    test('two offers with one offer_id in one load are refused', async () => {
      const engine = await engineOf();
      await expect(engine.upsertOffers([offer(), offer({ discount: 6 })])).rejects.toThrow(
        'Invalid offers: offer 1: offer_id is used by another offer in the same load',
      );
      expect((await engine.store.offers.list()).map((r) => r.offer)).toEqual([]);
    });

    test('an engine sees offers another engine loaded into the shared store', async () => {
      const store = await fresh();
      const first = await engineOf({ store });
      const second = await engineOf({ store });
      await first.upsertOffers([offer()]);
      await second.upsertCustomers(A, [customer()]);
      expect((await second.addTransactions(A, [tx()])).payments).toHaveLength(1);
      await first.upsertOffers([offer({ discount: 10 })]);
      expect((await second.addTransactions(A, [tx({ transaction_id: 't2' })])).payments).toEqual([
        { cashback: 1, payment_date: '2025-06-16', transaction_id: 't2' },
      ]);
    });
  });

  describe('offer.updated events', () => {
    const partners = () =>
      createMemoryPartners([
        { application_id: A, webhook_url: 'https://a.example/hooks', webhook_secret: 's' },
        { application_id: B },
        { application_id: 'bank-c', webhook_url: 'https://c.example/hooks' },
      ]);

    function event(id: string, sequence: number, data: Record<string, unknown>) {
      return {
        id,
        type: 'offer.updated',
        payload: { type: 'offer.updated', timestamp: NOON, data },
        created_at: NOON,
        sequence,
      };
    }

    test('one event per created offer for every partner with a webhook, none for the others', async () => {
      const engine = await engineOf({ partners: partners() });
      await engine.upsertOffers([offer({ offer_id: 2 }), offer()]);
      expect(await outboxOf(engine, A)).toEqual([
        event('evt-1', 1, stored()),
        event('evt-2', 2, stored({ offer_id: 2 })),
      ]);
      expect(await outboxOf(engine, 'bank-c')).toEqual([
        event('evt-3', 1, stored()),
        event('evt-4', 2, stored({ offer_id: 2 })),
      ]);
      expect(await outboxOf(engine, B)).toEqual([]);
    });

    test('a changed field or a status change emits the complete offer; an unchanged one emits nothing', async () => {
      const engine = await engineOf({ partners: partners() });
      await engine.upsertOffers([offer(), offer({ offer_id: 2 }), offer({ offer_id: 3 })]);
      await engine.upsertOffers([
        offer({ name: 'Coffee 6%', discount: 6 }),
        offer({ offer_id: 2, active: false }),
        offer({ offer_id: 3 }),
      ]);
      const events = await outboxOf(engine, A);
      expect(events.slice(3)).toEqual([
        event('evt-7', 4, stored({ name: 'Coffee 6%', discount: 6 })),
        event('evt-8', 5, stored({ offer_id: 2, active: false })),
      ]);
      expect((await outboxOf(engine, 'bank-c')).slice(3).map((e) => e.id)).toEqual([
        'evt-9',
        'evt-10',
      ]);
    });

    test('metadata is kept, listed in activeOffers, and a change of it emits the offer', async () => {
      const engine = await engineOf({ partners: partners() });
      const metadata = { campaign: 'spring', tags: ['a', 1, null] };
      await engine.upsertOffers([offer()]);
      await engine.upsertOffers([offer({ metadata })]);
      expect((await outboxOf(engine, A)).slice(1)).toEqual([
        event('evt-3', 2, stored({ metadata })),
      ]);
      expect((await engine.activeOffers())[0]?.metadata).toEqual(metadata);
    });

    test('without partners with webhooks, offers load and no event is written', async () => {
      const engine = await engineOf({ partners: createMemoryPartners([{ application_id: A }]) });
      expect(await engine.upsertOffers([offer()])).toEqual({
        created: [1],
        updated: [],
        unchanged: [],
      });
      expect(await outboxOf(engine, A)).toEqual([]);
    });
  });

  describe('cashback.created events', () => {
    test('a call that pays writes exactly one event: its id and event_id are the returned event_id', async () => {
      const engine = await ready();
      await engine.upsertCustomers(A, [
        customer({ customer_id: 'c2', location: { country: 'DE', city: 'Berlin' } }),
      ]);
      const r = await engine.addTransactions(A, [
        tx({ transaction_id: 't2', amount: 20, date: '2025-06-03T10:00:00' }),
        tx({ transaction_id: 'x', merchant: elsewhere }),
        tx({
          transaction_id: 't1',
          customer_id: 'c2',
          amount: 12.34,
          location: { country: 'DE', city: 'Lyon?' },
        }),
      ]);
      expect(r.event_id).toBe('evt-1');
      expect(await outboxOf(engine, A)).toEqual([
        {
          id: 'evt-1',
          type: 'cashback.created',
          payload: {
            type: 'cashback.created',
            event_id: 'evt-1',
            timestamp: NOON,
            data: {
              records: [
                {
                  transaction_id: 't2',
                  country: 'FR',
                  city: 'Paris',
                  date: '2025-06-17T00:00:00.000',
                  cashback_amount: 1,
                  offer_id: 1,
                  customer_id: 'c1',
                  offer_revision: 1,
                  status: 'pending',
                },
                {
                  transaction_id: 't1',
                  country: 'DE',
                  city: 'Lyon?',
                  date: '2025-06-16T00:00:00.000',
                  cashback_amount: 0.62,
                  offer_id: 1,
                  customer_id: 'c2',
                  offer_revision: 1,
                  status: 'pending',
                },
              ],
            },
          },
          created_at: NOON,
          sequence: 1,
        },
      ]);
    });

    test('a call that pays nothing writes no event, though its transactions are stored', async () => {
      const engine = await ready();
      const r = await engine.addTransactions(A, [
        tx({ merchant: elsewhere }),
        tx({ transaction_id: 't2', amount: 0.01 }),
      ]);
      expect(r.payments).toEqual([]);
      expect(r.event_id).toBe('evt-1');
      expect(await outboxOf(engine, A)).toEqual([]);
      expect(await engine.store.transactions.existing(A, ['t1', 't2'])).toEqual(['t1', 't2']);
    });

    test('every paying call writes its own event, in call order', async () => {
      const engine = await ready();
      await engine.addTransactions(A, [tx()]);
      await engine.addTransactions(A, [tx({ transaction_id: 'x', merchant: elsewhere })]);
      await engine.addTransactions(A, [tx({ transaction_id: 't2' })]);
      const events = await outboxOf(engine, A);
      expect(events.map((e) => [e.id, e.sequence, e.payload.event_id])).toEqual([
        ['evt-1', 1, 'evt-1'],
        ['evt-3', 2, 'evt-3'],
      ]);
    });
  });

  describe('the unit of work of addTransactions', () => {
    type Fault = 'payments.insert' | 'outbox.add';

    /**
     * A real memory store whose units of work hand out a session that fails at `fault` while it is
     * set; everything else is the real session.
     */
    function faultyStore(real: Store): { store: Store; inject(fault: Fault | undefined): void } {
      let fault: Fault | undefined;
      const broken = (s: StoreSession, f: Fault): StoreSession => {
        const boom = async (): Promise<never> => {
          throw new Error(`injected: ${f} failed`);
        };
        return {
          offers: s.offers,
          customers: s.customers,
          activations: s.activations,
          transactions: s.transactions,
          payments: f === 'payments.insert' ? { ...s.payments, insert: boom } : s.payments,
          outbox: f === 'outbox.add' ? { add: boom, list: s.outbox.list } : s.outbox,
          returns: s.returns,
          funding: s.funding,
          confirmations: s.confirmations,
        };
      };
      const store: Store = {
        offers: real.offers,
        customers: real.customers,
        activations: real.activations,
        transactions: real.transactions,
        payments: real.payments,
        outbox: real.outbox,
        returns: real.returns,
        funding: real.funding,
        confirmations: real.confirmations,
        transaction: <T>(fn: (s: StoreSession) => Promise<T>) =>
          real.transaction((s) => fn(fault === undefined ? s : broken(s, fault))),
      };
      return {
        store,
        inject: (f) => {
          fault = f;
        },
      };
    }

    const batch = [
      tx(),
      tx({ transaction_id: 't2', merchant: elsewhere }),
      tx({ transaction_id: 't3', customer_id: 'nobody' }),
    ];

    for (const fault of ['payments.insert', 'outbox.add'] as const) {
      test(`when ${fault} fails the call rejects and nothing of it is stored; resubmitting pays`, async () => {
        const { store, inject } = faultyStore(await fresh());
        const engine = await ready([offer()], { store });
        inject(fault);
        await expect(engine.addTransactions(A, batch)).rejects.toThrow(`injected: ${fault} failed`);
        expect(await store.transactions.existing(A, ['t1', 't2', 't3'])).toEqual([]);
        expect((await engine.listPayments(A, EVERYTHING)).total_count).toBe(0);
        expect(await outboxOf(engine, A)).toEqual([]);

        inject(undefined);
        const r = await engine.addTransactions(A, batch);
        expect({ event_id: r.event_id, payments: r.payments, errors: r.errors }).toEqual({
          event_id: 'evt-2',
          payments: [{ cashback: 0.5, payment_date: '2025-06-16', transaction_id: 't1' }],
          errors: {
            t2: "No cashback offer associated with merchant 'elsewhere'",
            t3: "Customer with id 'nobody' not found",
          },
        });
        expect(await store.transactions.existing(A, ['t1', 't2', 't3'])).toEqual(['t1', 't2']);
        expect((await engine.listPayments(A, EVERYTHING)).total_count).toBe(1);
        expect((await outboxOf(engine, A)).map((e) => e.id)).toEqual(['evt-2']);
      });
    }

    test('two concurrent calls with one transaction id pay it once', async () => {
      const engine = await ready();
      const results = await Promise.all([
        engine.addTransactions(A, [tx()]),
        engine.addTransactions(A, [tx({ amount: 20 })]),
      ]);
      expect(results.map((r) => r.event_id)).toEqual(['evt-1', 'evt-2']);
      // The call whose unit stores the id first pays it: on the memory store the first call, on
      // a server either (its pool runs the two calls side by side).
      const won = results.findIndex((r) => r.payments.length > 0);
      const [winner, loser] = won === 0 ? results : [...results].reverse();
      const cashback = won === 0 ? 0.5 : 1;
      expect(winner?.payments).toEqual([
        { cashback, payment_date: '2025-06-16', transaction_id: 't1' },
      ]);
      expect(loser?.payments).toEqual([]);
      expect(loser?.errors).toEqual({ t1: already('t1') });
      const listed = await engine.listPayments(A, EVERYTHING);
      expect(listed.transactions.map((p) => [p.transaction_id, p.cashback_amount])).toEqual([
        ['t1', cashback],
      ]);
      expect((await outboxOf(engine, A)).map((e) => e.id)).toEqual([winner?.event_id]);
    });

    test('two engines over one store racing on one transaction id pay it once', async () => {
      const store = await fresh();
      const one = await ready([offer()], { store });
      const two = await engineOf({ store, ids: () => 'other-1' });
      const results = await Promise.all([
        one.addTransactions(A, [tx(), tx({ transaction_id: 't2' })]),
        two.addTransactions(A, [tx({ transaction_id: 't2' }), tx({ transaction_id: 't3' })]),
      ]);
      const paid = results.flatMap((r) => r.payments.map((p) => p.transaction_id)).sort();
      expect(paid).toEqual(['t1', 't2', 't3']);
      expect((await one.listPayments(A, EVERYTHING)).total_count).toBe(3);
      expect(results.flatMap((r) => Object.keys(r.errors))).toEqual(['t2']);
    });
  });

  describe('stored transaction records', () => {
    test('keep the date with nine fraction digits in the engine zone, the day, the amount as text and the merchant key', async () => {
      const engine = await ready([offer()], { timeZone: 'Europe/Paris' });
      await engine.addTransactions(A, [
        tx({ transaction_id: 'whole', date: '2025-06-02T09:05:07', amount: 12.5 }),
        tx({ transaction_id: 'fraction', date: '2025-06-02T09:05:07.5', amount: '7.25' }),
        tx({ transaction_id: 'nanos', date: '2025-06-02T23:59:59.000000001' }),
        tx({ transaction_id: 'offset', date: '2025-06-02T22:30:00Z' }),
        tx({ transaction_id: 'midnight', date: '2025-06-04T00:00:00', merchant: elsewhere }),
        tx({ transaction_id: 'cents', amount: 12.34 }),
        tx({ transaction_id: 'cents-text', amount: '0012.340' }),
      ]);
      await engine.addHistory(A, [history({ transaction_id: 'h1', date: '2025-06-01T00:00:01' })]);
      const records = await engine.store.transactions.purchases(A, {
        pairs: [
          { customerId: 'c1', merchantKey: 'coffee house' },
          { customerId: 'c1', merchantKey: 'elsewhere' },
        ],
        fromDay: '2025-01-01',
      });
      const byId = Object.fromEntries(
        records.map((r) => [r.transaction_id, [r.date, r.day, r.amount, r.merchant_key, r.source]]),
      );
      expect(byId).toEqual({
        whole: [
          '2025-06-02T09:05:07.000000000',
          '2025-06-02',
          '12.5',
          'coffee house',
          'transaction',
        ],
        fraction: [
          '2025-06-02T09:05:07.500000000',
          '2025-06-02',
          '7.25',
          'coffee house',
          'transaction',
        ],
        nanos: ['2025-06-02T23:59:59.000000001', '2025-06-02', '10', 'coffee house', 'transaction'],
        // 22:30 UTC is 00:30 the next day in Paris (summer time).
        offset: [
          '2025-06-03T00:30:00.000000000',
          '2025-06-03',
          '10',
          'coffee house',
          'transaction',
        ],
        midnight: ['2025-06-04T00:00:00.000000000', '2025-06-04', '10', 'elsewhere', 'transaction'],
        h1: ['2025-06-01T00:00:01.000000000', '2025-06-01', '20', 'coffee house', 'history'],
        cents: [
          '2025-06-02T09:15:00.000000000',
          '2025-06-02',
          '12.34',
          'coffee house',
          'transaction',
        ],
        'cents-text': [
          '2025-06-02T09:15:00.000000000',
          '2025-06-02',
          '12.34',
          'coffee house',
          'transaction',
        ],
      });
    });
  });

  describe('activation (requires_activation)', () => {
    const gated = () => offer({ requires_activation: true });

    test('a customer without an activation is not paid, and the activation check is named', async () => {
      const engine = await ready([gated()]);
      const r = await engine.addTransactions(A, [tx()]);
      expect(r.payments).toEqual([]);
      expect(r.errors).toEqual({
        t1: 'No cashback offer associated with this transaction: offer 1 failed its activation check',
      });
      const why = await engine.explain(A, tx({ transaction_id: 't2' }));
      expect(why.candidates[0]?.failed).toEqual({
        check: 'activation',
        detail: 'the customer has not activated the offer',
      });
    });

    test('an activation dated after the transaction does not count; one at its date-time does', async () => {
      const engine = await ready([gated()]);
      expect(
        await engine.addActivations(A, [
          { customer_id: 'c1', offer_id: 1, date: '2025-06-02T09:15:00.001' },
        ]),
      ).toMatchObject({ Added: 1, Updated: 0, Errors: {} });
      const late = await engine.explain(A, tx());
      expect(late.candidates[0]?.failed).toEqual({
        check: 'activation',
        detail:
          'the customer activated the offer at 2025-06-02T09:15:00.001, after 2025-06-02T09:15:00.000',
      });
      const paid = await engine.addTransactions(A, [tx({ date: '2025-06-02T09:15:00.001' })]);
      expect(paid.payments).toEqual([
        { cashback: 0.5, payment_date: '2025-06-16', transaction_id: 't1' },
      ]);
    });

    test('an activation without a date counts from the engine clock; activating again keeps it', async () => {
      const engine = await ready([gated()]);
      await engine.addActivations(A, [{ customer_id: 'c1', offer_id: 1 }]);
      expect(
        await engine.addActivations(A, [
          { customer_id: 'c1', offer_id: 1, date: '2025-01-01T00:00:00' },
        ]),
      ).toMatchObject({ Added: 0, Updated: 1, Errors: {} });
      const before = await engine.addTransactions(A, [tx({ date: '2025-06-01T11:59:59' })]);
      expect(before.payments).toEqual([]);
      const after = await engine.addTransactions(A, [
        tx({ transaction_id: 't2', date: '2025-06-01T12:00:00' }),
      ]);
      expect(after.payments.map((p) => p.transaction_id)).toEqual(['t2']);
    });

    test('activations belong to one partner', async () => {
      const engine = await ready([gated()]);
      await engine.upsertCustomers(B, [customer()]);
      await engine.addActivations(B, [
        { customer_id: 'c1', offer_id: 1, date: '2025-01-01T00:00:00' },
      ]);
      expect((await engine.addTransactions(A, [tx()])).payments).toEqual([]);
      expect((await engine.addTransactions(B, [tx()])).payments).toHaveLength(1);
    });
  });

  describe('activeOffers', () => {
    test('lists active offers not expired today, by offer_id; a future offer is listed too', async () => {
      const engine = await engineOf();
      await engine.upsertOffers([
        offer({ offer_id: 5, valid_from: '2025-07-01', valid_to: '2025-12-31' }),
        offer({ offer_id: 4, active: false }),
        offer({ offer_id: 3, valid_to: '2025-05-31' }),
        offer({ offer_id: 2, valid_to: '2025-06-01' }),
        offer({ offer_id: 1 }),
      ]);
      expect(await engine.activeOffers()).toEqual([
        stored(),
        stored({ offer_id: 2, valid_to: '2025-06-01' }),
        stored({ offer_id: 5, valid_from: '2025-07-01', valid_to: '2025-12-31' }),
      ]);
    });

    test("judges today in the engine's time zone: ahead of UTC", async () => {
      // 2025-06-01T12:00Z is 2025-06-02T00:00 in Auckland (UTC+12 in June).
      const engine = await engineOf({ timeZone: 'Pacific/Auckland' });
      await engine.upsertOffers([
        offer({ offer_id: 1, valid_to: '2025-06-01' }),
        offer({ offer_id: 2, valid_to: '2025-06-02' }),
      ]);
      expect((await engine.activeOffers()).map((o) => o.offer_id)).toEqual([2]);
    });

    test("judges today in the engine's time zone: behind UTC", async () => {
      // 2025-06-01T03:00Z is 2025-05-31T20:00 in Los Angeles (UTC-7 in June).
      const engine = await engineOf({
        timeZone: 'America/Los_Angeles',
        clock: () => new Date('2025-06-01T03:00:00Z'),
      });
      await engine.upsertOffers([
        offer({ offer_id: 1, valid_to: '2025-05-30' }),
        offer({ offer_id: 2, valid_to: '2025-05-31' }),
      ]);
      expect((await engine.activeOffers()).map((o) => o.offer_id)).toEqual([2]);
    });

    test('reads the clock at every call', async () => {
      let now = new Date('2025-06-01T23:59:59.999Z');
      const engine = await engineOf({ clock: () => now });
      await engine.upsertOffers([offer({ valid_to: '2025-06-01' })]);
      expect((await engine.activeOffers()).map((o) => o.offer_id)).toEqual([1]);
      now = new Date('2025-06-02T00:00:00.000Z');
      expect(await engine.activeOffers()).toEqual([]);
    });

    test('lists offers in the partner API shape: amounts as numbers, age and gender always present', async () => {
      const engine = await engineOf({
        partners: createMemoryPartners([{ application_id: A, webhook_url: 'https://a.example/h' }]),
      });
      const { age: _a, gender: _g, merchant_logo: _l, category_name: _c, ...bare } = offer();
      await engine.upsertOffers([
        { ...bare, discount: '5.50', min_amount: '10', max_cashback: '2.5', audience: 'new' },
      ]);
      const seedShape = {
        offer_id: 1,
        name: 'Coffee 5%',
        merchant_name: 'Coffee House',
        warranty: 14,
        discount: 5.5,
        valid_from: '2025-01-01',
        valid_to: '2025-12-31',
        active: true,
        audience: 'new',
        age: [],
        gender: [],
        min_amount: 10,
        max_cashback: 2.5,
      };
      expect(await engine.activeOffers()).toEqual([seedShape]);
      const [event] = await outboxOf(engine, A);
      expect(event?.payload).toEqual({ type: 'offer.updated', timestamp: NOON, data: seedShape });
    });

    test('lists an offer of the seed shape byte for byte as before: its keys in their order', async () => {
      const engine = await engineOf();
      await engine.upsertOffers([offer({ discount: '5.50', min_amount: 10 })]);
      expect(JSON.stringify(await engine.activeOffers())).toBe(
        '[{"offer_id":1,"name":"Coffee 5%","merchant_name":"Coffee House","merchant_logo":"https://example.com/coffee.png","warranty":14,"age":[],"gender":[],"category_name":"Food","discount":5.5,"valid_from":"2025-01-01","valid_to":"2025-12-31","active":true,"min_amount":10}]',
      );
    });

    test('follows offer changes: a deactivated offer leaves the list', async () => {
      const engine = await engineOf();
      await engine.upsertOffers([offer(), offer({ offer_id: 2 })]);
      await engine.upsertOffers([offer({ active: false })]);
      expect((await engine.activeOffers()).map((o) => o.offer_id)).toEqual([2]);
    });
  });

  describe('explain', () => {
    test('an already stored transaction id explains as duplicate_transaction', async () => {
      const engine = await ready();
      await engine.addTransactions(A, [tx()]);
      const e = await engine.explain(A, tx());
      expect(e.outcome).toEqual({
        ok: false,
        error: { key: 't1', code: 'duplicate_transaction', message: already('t1') },
      });
      expect(e.candidates).toEqual([
        { offer_id: 1, matched: true, cashback: 0.5, payment_date: '2025-06-16' },
      ]);
    });

    test('an id stored as history explains as duplicate_transaction too', async () => {
      const engine = await ready();
      await engine.addHistory(A, [history({ transaction_id: 't1' })]);
      const e = await engine.explain(A, tx());
      expect(e.outcome).toEqual({
        ok: false,
        error: { key: 't1', code: 'duplicate_transaction', message: already('t1') },
      });
    });

    test('explaining stores nothing', async () => {
      const engine = await ready();
      const e = await engine.explain(A, tx());
      expect(e.outcome.ok && e.outcome.payment).toEqual({
        transaction_id: 't1',
        customer_id: 'c1',
        offer_id: 1,
        cashback: 0.5,
        payment_date: '2025-06-16',
      });
      expect(await engine.store.transactions.existing(A, ['t1'])).toEqual([]);
      expect((await engine.listPayments(A, EVERYTHING)).total_count).toBe(0);
      expect((await engine.addTransactions(A, [tx()])).payments).toHaveLength(1);
    });

    test('a returning-customers offer matches only once a history purchase at that merchant is stored', async () => {
      const engine = await ready([offer({ audience: 'returning' })]);
      const before = await engine.explain(A, tx());
      expect(before).toEqual({
        outcome: {
          ok: false,
          error: {
            key: 't1',
            code: 'no_offer',
            message:
              'No cashback offer associated with this transaction: offer 1 failed its audience check',
          },
        },
        candidates: [
          {
            offer_id: 1,
            matched: false,
            failed: {
              check: 'audience',
              detail:
                'the offer is for returning customers; no earlier purchase here in the 365 days before',
            },
          },
        ],
      });
      await engine.addHistory(A, [history()]);
      const after = await engine.explain(A, tx());
      expect(after.outcome.ok).toBe(true);
      expect(after.candidates).toEqual([
        { offer_id: 1, matched: true, cashback: 0.5, payment_date: '2025-06-16' },
      ]);
    });

    test('an unknown customer explains as customer_not_found, without candidates', async () => {
      const engine = await ready();
      expect(await engine.explain(A, tx({ customer_id: 'nobody' }))).toEqual({
        outcome: {
          ok: false,
          error: {
            key: 't1',
            code: 'customer_not_found',
            message: "Customer with id 'nobody' not found",
          },
        },
        candidates: [],
      });
    });
  });

  describe('history across requests (audience offers)', () => {
    const returning = (over: Record<string, unknown> = {}) =>
      offer({ audience: 'returning', ...over });

    test('a purchase accepted by an earlier addTransactions, even unpaid, is history for a later one', async () => {
      const engine = await ready([returning()]);
      const first = await engine.addTransactions(A, [tx({ date: '2025-06-02T09:00:00' })]);
      expect(first.details.errors.map((e) => e.code)).toEqual(['no_offer']);
      const second = await engine.addTransactions(A, [
        tx({ transaction_id: 't2', date: '2025-06-03T09:00:00' }),
      ]);
      expect(second.payments).toEqual([
        { cashback: 0.5, payment_date: '2025-06-17', transaction_id: 't2' },
      ]);
    });

    test('an earlier item of the same request is history for a later one', async () => {
      const engine = await ready([returning()]);
      const r = await engine.addTransactions(A, [
        tx({ date: '2025-06-02T09:00:00' }),
        tx({ transaction_id: 't2', date: '2025-06-02T10:00:00' }),
      ]);
      expect(r.payments.map((p) => p.transaction_id)).toEqual(['t2']);
      expect(r.details.errors.map((e) => [e.key, e.code])).toEqual([['t1', 'no_offer']]);
    });

    test('a new-customers offer pays the first purchase only', async () => {
      const engine = await ready([offer({ audience: 'new' })]);
      const first = await engine.addTransactions(A, [tx()]);
      expect(first.payments.map((p) => p.transaction_id)).toEqual(['t1']);
      const second = await engine.addTransactions(A, [
        tx({ transaction_id: 't2', date: '2025-06-03T09:00:00' }),
      ]);
      expect(second.errors).toEqual({
        t2: 'No cashback offer associated with this transaction: offer 1 failed its audience check',
      });
    });

    test('uploaded history at the normalised merchant name makes a customer returning', async () => {
      const engine = await ready([returning()]);
      await engine.addHistory(A, [history({ merchant: { name: '  COFFEE   house ' } })]);
      expect((await engine.addTransactions(A, [tx()])).payments).toHaveLength(1);
    });

    test('history at another merchant, of another customer, or invalid, does not count', async () => {
      const engine = await ready([returning()]);
      await engine.upsertCustomers(A, [customer({ customer_id: 'c2' })]);
      const { description: _, ...noDescription } = tx({ transaction_id: 'bad' });
      await engine.addHistory(A, [
        history({ transaction_id: 'h1', merchant: { name: 'Bakery' } }),
        history({ transaction_id: 'h2', customer_id: 'c2' }),
      ]);
      await engine.addTransactions(A, [noDescription]);
      const r = await engine.addTransactions(A, [tx()]);
      expect(r.details.errors.map((e) => e.code)).toEqual(['no_offer']);
    });

    test('lookback_days edge: a purchase exactly lookback_days days before counts, one day more does not', async () => {
      const engine = await ready([returning({ lookback_days: 30 })]);
      await engine.addHistory(A, [history({ transaction_id: 'h1', date: '2025-05-02T23:59:59' })]);
      // 2025-06-02 is 31 days after 2025-05-02.
      const tooOld = await engine.addTransactions(A, [tx({ transaction_id: 't1' })]);
      expect(tooOld.details.errors.map((e) => e.code)).toEqual(['no_offer']);
      // t1 itself (2025-06-02T09:15) is now stored; a later request on a later day would see it,
      // so the next check is submitted earlier in the day than t1.
      await engine.addHistory(A, [history({ transaction_id: 'h2', date: '2025-05-03T00:00:00' })]);
      const justIn = await engine.addTransactions(A, [
        tx({ transaction_id: 't2', date: '2025-06-02T08:00:00' }),
      ]);
      expect(justIn.payments.map((p) => p.transaction_id)).toEqual(['t2']);
    });

    test('a purchase at the same instant or later is not earlier; one a millisecond before is', async () => {
      const engine = await ready([returning()]);
      await engine.addHistory(A, [
        history({ transaction_id: 'same', date: '2025-06-02T09:15:00.000' }),
        history({ transaction_id: 'later', date: '2025-06-02T09:15:00.001' }),
      ]);
      const r = await engine.addTransactions(A, [tx({ date: '2025-06-02T09:15:00.000' })]);
      expect(r.details.errors.map((e) => e.code)).toEqual(['no_offer']);
      await engine.addHistory(A, [
        history({ transaction_id: 'before', date: '2025-06-02T09:14:59.999' }),
      ]);
      const again = await engine.addTransactions(A, [
        tx({ transaction_id: 't2', date: '2025-06-02T09:14:59.999' }),
        tx({ transaction_id: 't3', date: '2025-06-02T09:15:00.000' }),
      ]);
      expect(again.payments.map((p) => p.transaction_id)).toEqual(['t3']);
    });
  });

  describe('tenant isolation', () => {
    test("partner B cannot see A's customers", async () => {
      const engine = await ready();
      const r = await engine.addTransactions(B, [tx()]);
      expect(r.errors).toEqual({ t1: "Customer with id 'c1' not found" });
      const h = await engine.addHistory(B, [history()]);
      expect(h.errors).toEqual({ h1: "Customer with id 'c1' not found" });
      const c = await engine.upsertCustomers(B, [customer()]);
      expect([c.Added, c.Updated]).toEqual([1, 0]);
    });

    test("partner B lists none of A's payments and gets none of A's events", async () => {
      const engine = await ready();
      await engine.addTransactions(A, [tx()]);
      expect((await engine.listPayments(A, EVERYTHING)).total_count).toBe(1);
      expect(await engine.listPayments(B, EVERYTHING)).toEqual({
        total_count: 0,
        current_page: 1,
        page_size: 1000,
        date_from: '0001-01-01',
        date_to: '9999-12-31',
        transactions: [],
      });
      expect(await outboxOf(engine, B)).toEqual([]);
    });

    test('the same transaction id is accepted and paid for both partners', async () => {
      const engine = await ready();
      await engine.upsertCustomers(B, [customer({ location: { country: 'ES', city: 'Madrid' } })]);
      const a = await engine.addTransactions(A, [tx()]);
      const b = await engine.addTransactions(B, [
        tx({ amount: 20, location: { country: 'ES', city: 'Madrid' } }),
      ]);
      expect(a.payments).toEqual([
        { cashback: 0.5, payment_date: '2025-06-16', transaction_id: 't1' },
      ]);
      expect(b.payments).toEqual([
        { cashback: 1, payment_date: '2025-06-16', transaction_id: 't1' },
      ]);
      expect((await engine.listPayments(B, EVERYTHING)).transactions).toEqual([
        {
          transaction_id: 't1',
          country: 'ES',
          city: 'Madrid',
          date: '2025-06-16T00:00:00.000',
          cashback_amount: 1,
          offer_id: 1,
          customer_id: 'c1',
          offer_revision: 1,
          status: 'pending',
        },
      ]);
      expect((await engine.listPayments(A, EVERYTHING)).transactions[0]?.cashback_amount).toBe(0.5);
    });

    test("B's history does not make A's customer returning", async () => {
      const engine = await ready([offer({ audience: 'returning' })]);
      await engine.upsertCustomers(B, [customer()]);
      await engine.addHistory(B, [history()]);
      const a = await engine.addTransactions(A, [tx()]);
      expect(a.details.errors.map((e) => e.code)).toEqual(['no_offer']);
      const b = await engine.addTransactions(B, [tx()]);
      expect(b.payments).toHaveLength(1);
    });
  });

  describe('customers and days as matching reads them', () => {
    test('a replaced customer is matched as replaced', async () => {
      const engine = await ready([offer({ gender: ['f'], age: ['30-39'] })]);
      expect((await engine.addTransactions(A, [tx()])).payments).toHaveLength(1);
      await engine.upsertCustomers(A, [customer({ gender: 'M' })]);
      const r = await engine.addTransactions(A, [tx({ transaction_id: 't2' })]);
      expect(r.errors).toEqual({
        t2: 'No cashback offer associated with this transaction: offer 1 failed its gender check',
      });
      await engine.upsertCustomers(A, [customer({ birthday: '1960-01-01' })]);
      const old = await engine.addTransactions(A, [tx({ transaction_id: 't3' })]);
      expect(old.errors).toEqual({
        t3: 'No cashback offer associated with this transaction: offer 1 failed its age check',
      });
    });

    test("a date with Z is judged on its day in the engine's time zone", async () => {
      // 2025-06-30T13:00Z is 2025-07-01T01:00 in Auckland: past the offer's valid_to.
      const engine = await ready([offer({ valid_to: '2025-06-30', warranty: 0 })], {
        timeZone: 'Pacific/Auckland',
      });
      const r = await engine.addTransactions(A, [
        tx({ transaction_id: 'z', date: '2025-06-30T11:59:59Z' }),
        tx({ transaction_id: 'late', date: '2025-06-30T12:00:00Z' }),
      ]);
      expect(r.payments).toEqual([
        { cashback: 0.5, payment_date: '2025-06-30', transaction_id: 'z' },
      ]);
      expect(r.details.errors.map((e) => [e.key, e.code])).toEqual([['late', 'no_offer']]);
    });

    test('an error key such as __proto__ is an own key of the errors map', async () => {
      const engine = await ready();
      const r = await engine.addTransactions(A, [
        tx({ transaction_id: '__proto__', customer_id: 'x' }),
      ]);
      expect(Object.keys(r.errors)).toEqual(['__proto__']);
      expect(Object.getOwnPropertyDescriptor(r.errors, '__proto__')?.value).toBe(
        "Customer with id 'x' not found",
      );
      expect(Object.getPrototypeOf(r.errors)).toBe(null);
    });
  });

  describe('details beside the partner API fields', () => {
    test('structured errors in input order and full payments', async () => {
      const engine = await ready();
      const r = await engine.addTransactions(A, [
        tx({ transaction_id: 'z' }),
        tx({ transaction_id: 'y', merchant: elsewhere }),
        tx({ transaction_id: 'z', amount: 20 }),
        tx({ transaction_id: 'x', customer_id: 'nobody' }),
        tx({ transaction_id: 'w', amount: 40 }),
        tx({ transaction_id: 'v', amount: 'NaN' }),
      ]);
      expect(r.details).toEqual({
        payments: [
          {
            transaction_id: 'z',
            customer_id: 'c1',
            offer_id: 1,
            cashback: 0.5,
            payment_date: '2025-06-16',
          },
          {
            transaction_id: 'w',
            customer_id: 'c1',
            offer_id: 1,
            cashback: 2,
            payment_date: '2025-06-16',
          },
        ],
        errors: [
          {
            key: 'y',
            code: 'no_offer',
            message: "No cashback offer associated with merchant 'elsewhere'",
          },
          { key: 'z', code: 'duplicate_transaction', message: already('z') },
          { key: 'x', code: 'customer_not_found', message: "Customer with id 'nobody' not found" },
          {
            key: 'v',
            code: 'invalid_transaction',
            message: 'Invalid transaction: amount must be a number or a plain decimal string',
          },
        ],
      });
      expect(r.payments).toEqual([
        { cashback: 0.5, payment_date: '2025-06-16', transaction_id: 'z' },
        { cashback: 2, payment_date: '2025-06-16', transaction_id: 'w' },
      ]);
    });

    test('messages of two items that share a key are joined with "; " in input order', async () => {
      const engine = await ready();
      const r = await engine.addTransactions(A, [
        tx({ merchant: elsewhere }),
        tx(),
        tx({ transaction_id: 't2', amount: 0.01 }),
        tx({ transaction_id: 't2', amount: 99 }),
      ]);
      expect(r.errors).toEqual({
        t1: `No cashback offer associated with merchant 'elsewhere'; ${already('t1')}`,
        t2: `Cashback of offer 1 rounds to 0 at 2 decimal places; ${already('t2')}`,
      });
      expect(r.details.errors).toHaveLength(4);
    });

    test('an identical message is not repeated in the map, though details keeps every item', async () => {
      const engine = await ready();
      const r = await engine.addTransactions(A, [
        tx(),
        tx(),
        tx(),
        tx({ transaction_id: 'u', customer_id: 'nobody' }),
        tx({ transaction_id: 'u', customer_id: 'nobody' }),
      ]);
      expect(r.errors).toEqual({
        t1: already('t1'),
        u: "Customer with id 'nobody' not found",
      });
      expect(r.details.errors.map((e) => [e.key, e.code])).toEqual([
        ['t1', 'duplicate_transaction'],
        ['t1', 'duplicate_transaction'],
        ['u', 'customer_not_found'],
        ['u', 'customer_not_found'],
      ]);
    });

    test('an invalid first copy does not claim the id: the valid copy after it is paid', async () => {
      const engine = await ready();
      const r = await engine.addTransactions(A, [tx({ amount: -1 }), tx()]);
      expect(r.payments).toEqual([
        { cashback: 0.5, payment_date: '2025-06-16', transaction_id: 't1' },
      ]);
      expect(r.errors).toEqual({ t1: 'Invalid transaction: amount must be greater than 0' });
    });

    test('history and customers report details with codes too', async () => {
      const engine = await ready();
      const h = await engine.addHistory(A, [history({ customer_id: 'nobody' }), history()]);
      expect(h.details).toEqual({
        errors: [
          { key: 'h1', code: 'customer_not_found', message: "Customer with id 'nobody' not found" },
        ],
      });
      const c = await engine.upsertCustomers(A, [
        customer({ customer_id: 'c2' }),
        customer({ customer_id: 'c2' }),
        customer({ customer_id: 'c3', gender: ' ' }),
      ]);
      expect(c.details).toEqual({
        errors: [
          {
            key: 'c2',
            code: 'duplicate_customer',
            message: "Several customers with the id 'c2' were provided in the request",
          },
          {
            key: 'c3',
            code: 'invalid_customer',
            message: 'Invalid customer: gender must not be empty',
          },
        ],
      });
    });
  });

  describe('injected clock and ids', () => {
    test('event ids come from ids, one per call and per event; timestamps from the clock', async () => {
      let now = new Date('2025-06-01T08:00:00Z');
      const engine = createEngine({
        store: await fresh(),
        clock: () => now,
        ids: counter(),
        partners: createMemoryPartners([{ application_id: A, webhook_url: 'https://a.example' }]),
      });
      await engine.upsertOffers([offer()]);
      await engine.upsertCustomers(A, [customer()]);
      now = new Date('2025-06-01T09:30:00.250Z');
      const h = await engine.addHistory(A, [history()]);
      const r = await engine.addTransactions(A, [tx()]);
      expect([h.event_id, r.event_id]).toEqual(['evt-2', 'evt-3']);
      const events = await outboxOf(engine, A);
      expect(
        events.map((e) => [e.id, e.type, e.created_at, e.payload.timestamp, e.sequence]),
      ).toEqual([
        ['evt-1', 'offer.updated', '2025-06-01T08:00:00.000Z', '2025-06-01T08:00:00.000Z', 1],
        ['evt-3', 'cashback.created', '2025-06-01T09:30:00.250Z', '2025-06-01T09:30:00.250Z', 2],
      ]);
      const stored = await engine.store.payments.list(A, {
        from: '2025-06-16',
        to: '2025-06-16',
        offset: 0,
        limit: 10,
      });
      expect(stored.items.map((p) => p.event_id)).toEqual(['evt-3']);
    });

    test('without ids, event ids are random UUIDs, distinct per call', async () => {
      const engine = createEngine({ store: await fresh() });
      await engine.upsertCustomers(A, [customer()]);
      const one = await engine.addTransactions(A, [tx()]);
      const two = await engine.addTransactions(A, [tx({ transaction_id: 't2' })]);
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
      expect(one.event_id).toMatch(uuid);
      expect(two.event_id).toMatch(uuid);
      expect(one.event_id).not.toBe(two.event_id);
    });
  });

  describe('scale and rounding options', () => {
    async function paidWith(options: EngineOptions, amounts: readonly (number | string)[]) {
      const engine = await ready([offer()], options);
      const r = await engine.addTransactions(
        A,
        amounts.map((amount, i) => tx({ transaction_id: `t${i + 1}`, amount })),
      );
      const listed = await engine.listPayments(A, EVERYTHING);
      const records = await engine.store.payments.list(A, {
        from: '0001-01-01',
        to: '9999-12-31',
        offset: 0,
        limit: 100,
      });
      const events = await outboxOf(engine, A);
      return { r, listed, records, events };
    }

    test('scale 3 rounding down flows into payments, the listing, the stored text and the event', async () => {
      // 10.37 × 5 / 100 = 0.5185
      const { r, listed, records, events } = await paidWith(
        { scale: 3, rounding: 'down' },
        [10.37],
      );
      expect(r.payments).toEqual([
        { cashback: 0.518, payment_date: '2025-06-16', transaction_id: 't1' },
      ]);
      expect(listed.transactions.map((p) => p.cashback_amount)).toEqual([0.518]);
      expect(records.items.map((p) => p.cashback_amount)).toEqual(['0.518']);
      const data = events[0]?.payload.data as { records: { cashback_amount: number }[] };
      expect(data.records.map((p) => p.cashback_amount)).toEqual([0.518]);
    });

    test('scale 0: half-up pays 0.5 as 1, and 0.45 rounds to zero_cashback', async () => {
      const { r, records } = await paidWith({ scale: 0 }, [10, 9]);
      expect(r.payments).toEqual([
        { cashback: 1, payment_date: '2025-06-16', transaction_id: 't1' },
      ]);
      expect(r.errors).toEqual({ t2: 'Cashback of offer 1 rounds to 0 at 0 decimal places' });
      expect(records.items.map((p) => p.cashback_amount)).toEqual(['1']);
    });

    test('half-even rounds a tie to the even digit where half-up rounds it up', async () => {
      // 10.1 × 5 / 100 = 0.505; 10.3 × 5 / 100 = 0.515
      const even = await paidWith({ rounding: 'half-even' }, [10.1, 10.3]);
      expect(even.r.payments.map((p) => p.cashback)).toEqual([0.5, 0.52]);
      const up = await paidWith({}, [10.1, 10.3]);
      expect(up.r.payments.map((p) => p.cashback)).toEqual([0.51, 0.52]);
    });

    test('ceil rounds any remainder up; stored texts carry no trailing zeros', async () => {
      // 10.02 × 5 / 100 = 0.501; 20 × 5 / 100 = 1.00
      const { r, records } = await paidWith({ rounding: 'ceil' }, ['10.02', 20]);
      expect(r.payments.map((p) => p.cashback)).toEqual([0.51, 1]);
      expect(records.items.map((p) => [p.transaction_id, p.cashback_amount])).toEqual([
        ['t1', '0.51'],
        ['t2', '1'],
      ]);
    });

    test('the resolved options are exposed on the engine', () => {
      const engine = createEngine({ scale: 3, rounding: 'down', timeZone: 'Europe/Paris' });
      expect([engine.options.scale, engine.options.rounding, engine.options.timeZone]).toEqual([
        3,
        'down',
        'Europe/Paris',
      ]);
    });
  });

  describe('rewards and scopes through the store', () => {
    /** A scoped offer paying `reward`. */
    function scopedOffer(over: Record<string, unknown> = {}): Record<string, unknown> {
      const { merchant_name: _, discount: _d, ...rest } = offer();
      return { ...rest, scope: { mcc: ['5411'] }, reward: { type: 'fixed', amount: 2 }, ...over };
    }
    const grocer = (name: string, over: Record<string, unknown> = {}) =>
      tx({ merchant: { id: name, name, category_code: '5411' }, ...over });

    test('lists reward, scope and channels as loaded, amounts as numbers, and no merchant_name', async () => {
      const engine = await engineOf({
        partners: createMemoryPartners([{ application_id: A, webhook_url: 'https://a.example/h' }]),
      });
      const {
        age: _a,
        gender: _g,
        merchant_logo: _l,
        category_name: _c,
        ...bare
      } = scopedOffer({
        scope: { mcc: ['5411'], exclude_merchants: ['  Big Box '] },
        reward: {
          type: 'tiers',
          mode: 'marginal',
          tiers: [
            { from: '0', rate: '1.5' },
            { from: 20, rate: 5 },
          ],
        },
        channels: ['online'],
      });
      await engine.upsertOffers([bare]);
      const listed = {
        offer_id: 1,
        name: 'Coffee 5%',
        scope: { mcc: ['5411'], exclude_merchants: ['Big Box'] },
        channels: ['online'],
        warranty: 14,
        valid_from: '2025-01-01',
        valid_to: '2025-12-31',
        active: true,
        age: [],
        gender: [],
        reward: {
          type: 'tiers',
          mode: 'marginal',
          tiers: [
            { from: 0, rate: 1.5 },
            { from: 20, rate: 5 },
          ],
        },
      };
      expect(await engine.activeOffers()).toEqual([listed]);
      expect(Object.keys((await engine.activeOffers())[0] ?? {})).not.toContain('merchant_name');
      const [event] = await outboxOf(engine, A);
      expect(event?.payload).toEqual({ type: 'offer.updated', timestamp: NOON, data: listed });
    });

    test('a scoped returning offer counts stored purchases at any merchant of its scope', async () => {
      const engine = await ready([scopedOffer({ audience: 'returning' })]);
      await engine.addHistory(A, [
        history({
          transaction_id: 'h1',
          merchant: { name: 'Coffee House', category_code: '5812' },
        }),
        // History without a category code is in no mcc scope.
        history({ transaction_id: 'h2', merchant: { name: 'Green Grocer' } }),
      ]);
      const first = await engine.addTransactions(A, [grocer('Corner Shop')]);
      expect(first.details.errors.map((e) => e.code)).toEqual(['no_offer']);
      await engine.addHistory(A, [
        history({
          transaction_id: 'h3',
          merchant: { name: 'Green Grocer', category_code: '5411' },
        }),
      ]);
      const second = await engine.addTransactions(A, [
        grocer('Corner Shop', { transaction_id: 't2', date: '2025-06-03T09:00:00' }),
      ]);
      expect(second.payments).toEqual([
        { cashback: 2, payment_date: '2025-06-17', transaction_id: 't2' },
      ]);
    });

    test('a batch reads scopes and merchants together: earlier items of its own count', async () => {
      const engine = await ready([
        scopedOffer({ offer_id: 1, audience: 'returning' }),
        offer({ offer_id: 2, audience: 'new' }),
      ]);
      const r = await engine.addTransactions(A, [
        grocer('Green Grocer', { date: '2025-06-02T09:00:00' }),
        tx({ transaction_id: 't2', date: '2025-06-02T10:00:00' }),
        grocer('Corner Shop', { transaction_id: 't3', date: '2025-06-02T11:00:00' }),
        tx({ transaction_id: 't4', date: '2025-06-02T12:00:00' }),
      ]);
      expect(r.details.payments.map((p) => [p.transaction_id, p.offer_id])).toEqual([
        ['t2', 2],
        ['t3', 1],
      ]);
    });

    test("keeps a transaction's channel and judges channels on it", async () => {
      const engine = await ready([offer({ channels: ['in_store'] })]);
      const r = await engine.addTransactions(A, [
        tx({ channel: 'in_store' }),
        tx({ transaction_id: 't2', channel: 'online' }),
      ]);
      expect(r.payments.map((p) => p.transaction_id)).toEqual(['t1']);
      expect(r.errors).toEqual({
        t2: 'No cashback offer associated with this transaction: offer 1 failed its channel check',
      });
      const stored = await engine.store.transactions.get(A, ['t1', 't2']);
      expect(stored.map((t) => t.channel).sort()).toEqual(['in_store', 'online']);
    });

    test('a return works a fixed reward out on the net amount', async () => {
      const engine = await ready([
        scopedOffer({ reward: { type: 'fixed', amount: 10 }, min_amount: 50 }),
      ]);
      await engine.addTransactions(A, [
        grocer('Green Grocer', { amount: 100 }),
        grocer('Green Grocer', { transaction_id: 't2', amount: 100 }),
      ]);
      const r = await engine.addReturns(A, [
        { return_id: 'r1', transaction_id: 't1', date: '2025-06-03T10:00:00', amount: 95 },
        { return_id: 'r2', transaction_id: 't2', date: '2025-06-03T10:00:00', amount: 45 },
      ]);
      // t1: net 5 is below min_amount 50; t2: min(10, 55) stands.
      expect(r.adjustments.map((a) => [a.transaction_id, a.previous_cashback, a.cashback])).toEqual(
        [
          ['t1', 10, 0],
          ['t2', 10, 10],
        ],
      );
    });
  });
}
