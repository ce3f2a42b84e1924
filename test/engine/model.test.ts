/**
 * Model-based test: random sequences of engine calls for two partners, each checked against a
 * simple model after every step. The model keeps plain maps and lists per partner and decides
 * with the pure core (`screenCustomers`, `screenHistory`, `decide`) over them, so what is checked
 * is everything the engine adds: storing, reading back, tenancy, listings and paging.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { screenCustomers } from '../../src/core/customers.js';
import { purchaseOf, screenHistory } from '../../src/core/decide.js';
import { type CashbackEngine, createEngine } from '../../src/engine/entry.js';
import {
  type DecideState,
  decide,
  type ParsedCustomer,
  type ParsedTransaction,
  type Payment,
  type Purchase,
  parseTransaction,
  resolveOptions,
} from '../../src/index.js';
import { scopeHistoryKeys } from '../../src/matching/candidates.js';
import { compileOfferSet } from '../../src/matching/compileOffers.js';
import {
  customerArbitrary,
  historyTransactionArbitrary,
  offerArbitrary,
  transactionArbitrary,
} from '../../src/testing/index.js';

const PARTNERS = ['bank-a', 'bank-b'] as const;
const CUSTOMER_IDS = ['c1', 'c2', 'c3'];
const OPTIONS = resolveOptions({ timeZone: 'Europe/Paris' });

interface PartnerModel {
  customers: Map<string, ParsedCustomer>;
  ids: Set<string>;
  /** Every stored transaction, by customer. */
  stored: Map<string, ParsedTransaction[]>;
  payments: Payment[];
}

interface Model {
  offers: Map<number, unknown>;
  partners: Record<string, PartnerModel>;
}

interface Real {
  engine: CashbackEngine;
}

function stateOf(model: Model, partner: PartnerModel): DecideState {
  const offers = compileOfferSet([...model.offers.values()]);
  // A customer's purchases at a merchant key, or in a scope (by its key), worked out from every
  // stored transaction of the customer.
  const purchases = (c: string, k: string): Purchase[] =>
    (partner.stored.get(c) ?? [])
      .filter(
        (tx) =>
          tx.merchantKey === k ||
          scopeHistoryKeys(
            offers,
            tx.merchantKey,
            tx.merchant.id,
            tx.merchant.category_code,
          ).includes(k),
      )
      .map(purchaseOf);
  return {
    offers,
    options: OPTIONS,
    customer: (id) => partner.customers.get(id),
    hasTransaction: (id) => partner.ids.has(id),
    purchases,
  };
}

function store(partner: PartnerModel, accepted: readonly ParsedTransaction[]): void {
  for (const tx of accepted) {
    partner.ids.add(tx.transactionId);
    const list = partner.stored.get(tx.customerId) ?? [];
    list.push(tx);
    partner.stored.set(tx.customerId, list);
  }
}

/** Ids from a small pool, so that requests collide; sometimes an item loses a field. */
function smallIds<T extends { transaction_id: string }>(arb: fc.Arbitrary<T>, prefix: string) {
  return fc
    .tuple(arb, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 19 }))
    .map(([t, n, broken]) => {
      const item: Record<string, unknown> = { ...t, transaction_id: `${prefix}${n}` };
      if (broken === 0) delete item.amount;
      return item;
    });
}

const OPEN_OFFER = {
  offer_id: 1,
  name: 'Coffee',
  merchant_name: 'Coffee House',
  warranty: 10,
  discount: 5,
  valid_from: '2025-01-01',
  valid_to: '2025-12-31',
};

const START_CUSTOMERS = CUSTOMER_IDS.map((customer_id, i) => ({
  customer_id,
  birthday: `19${70 + i * 10}-03-01`,
  gender: 'female',
  location: { country: 'FR', city: 'Paris' },
}));

const partnerArb = fc.constantFrom(...PARTNERS);

class UpsertOffers implements fc.AsyncCommand<Model, Real> {
  constructor(readonly offers: readonly { offer_id: number }[]) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const result = await r.engine.upsertOffers(this.offers);
    const created = this.offers.map((o) => o.offer_id).filter((id) => !m.offers.has(id));
    expect(result.created).toEqual([...created].sort((a, b) => a - b));
    expect([...result.updated, ...result.unchanged].sort((a, b) => a - b)).toEqual(
      this.offers
        .map((o) => o.offer_id)
        .filter((id) => m.offers.has(id))
        .sort((a, b) => a - b),
    );
    for (const o of this.offers) m.offers.set(o.offer_id, o);
  }
  toString = () => `upsertOffers(${this.offers.map((o) => o.offer_id).join(',')})`;
}

class UpsertCustomers implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly partner: string,
    readonly customers: readonly unknown[],
  ) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const p = m.partners[this.partner] as PartnerModel;
    const batch = screenCustomers(this.customers);
    const added = batch.accepted.filter((c) => !p.customers.has(c.customerId)).length;
    const result = await r.engine.upsertCustomers(this.partner, this.customers);
    expect(result.Added).toBe(added);
    expect(result.Updated).toBe(batch.accepted.length - added);
    expect(result.details.errors).toEqual(batch.errors);
    for (const c of batch.accepted) p.customers.set(c.customerId, c);
  }
  toString = () => `upsertCustomers(${this.partner}, ${JSON.stringify(this.customers)})`;
}

class AddHistory implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly partner: string,
    readonly items: readonly unknown[],
  ) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const p = m.partners[this.partner] as PartnerModel;
    const parsed = this.items.map((t, i) => parseTransaction(t, i, OPTIONS.timeZone, true));
    const expected = screenHistory(parsed, stateOf(m, p));
    const result = await r.engine.addHistory(this.partner, this.items);
    expect(result.details.errors).toEqual(expected.errors);
    store(p, expected.accepted);
  }
  toString = () => `addHistory(${this.partner}, ${JSON.stringify(this.items)})`;
}

class AddTransactions implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly partner: string,
    readonly items: readonly unknown[],
  ) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const p = m.partners[this.partner] as PartnerModel;
    const parsed = this.items.map((t, i) => parseTransaction(t, i, OPTIONS.timeZone));
    const expected = decide(parsed, stateOf(m, p));
    const result = await r.engine.addTransactions(this.partner, this.items);
    const paid = expected.outcomes.flatMap((o) => (o.ok ? [o.payment] : []));
    expect(result.details.payments).toEqual(paid);
    expect(result.details.errors).toEqual(
      expected.outcomes.flatMap((o) => (o.ok ? [] : [o.error])),
    );
    expect(result.payments).toEqual(
      paid.map((x) => ({
        cashback: x.cashback,
        payment_date: x.payment_date,
        transaction_id: x.transaction_id,
      })),
    );
    store(p, expected.accepted);
    p.payments.push(...paid);
  }
  toString = () => `addTransactions(${this.partner}, ${JSON.stringify(this.items)})`;
}

class ListPayments implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly partner: string,
    readonly from: string,
    readonly to: string,
    readonly page: number,
    readonly size: number,
  ) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const p = m.partners[this.partner] as PartnerModel;
    const [from, to] = this.from <= this.to ? [this.from, this.to] : [this.to, this.from];
    const matching = p.payments
      .filter((x) => x.payment_date >= from && x.payment_date <= to)
      .sort((a, b) =>
        a.payment_date === b.payment_date
          ? a.transaction_id < b.transaction_id
            ? -1
            : 1
          : a.payment_date < b.payment_date
            ? -1
            : 1,
      );
    const result = await r.engine.listPayments(this.partner, {
      date_from: from,
      date_to: to,
      current_page: this.page,
      page_size: this.size,
    });
    expect(result.total_count).toBe(matching.length);
    expect(result.transactions.map((x) => [x.transaction_id, x.cashback_amount])).toEqual(
      matching
        .slice((this.page - 1) * this.size, this.page * this.size)
        .map((x) => [x.transaction_id, x.cashback]),
    );
  }
  toString = () =>
    `listPayments(${this.partner}, ${this.from}..${this.to}, page ${this.page} of ${this.size})`;
}

const day = fc
  .date({
    min: new Date('2025-01-01T00:00:00Z'),
    max: new Date('2026-03-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));

const commands = [
  fc
    .uniqueArray(
      fc.oneof(
        // Open offers (any age and gender, the whole year), so that many transactions are paid.
        offerArbitrary({ offerIds: { min: 1, max: 6 }, extensions: false }).map(
          ({ age: _age, gender: _gender, ...o }) => ({
            ...o,
            valid_from: '2025-01-01',
            valid_to: '2025-12-31',
          }),
        ),
        offerArbitrary({ offerIds: { min: 1, max: 6 } }),
      ),
      {
        selector: (o) => o.offer_id,
        minLength: 1,
        maxLength: 3,
      },
    )
    .map((offers) => new UpsertOffers(offers)),
  fc
    .tuple(
      partnerArb,
      fc.oneof(
        // Mostly distinct ids (all copies of a repeated id are rejected), sometimes repeats.
        fc.uniqueArray(customerArbitrary({ customerIds: CUSTOMER_IDS }), {
          selector: (c) => c.customer_id,
          minLength: 1,
          maxLength: 3,
        }),
        fc.array(customerArbitrary({ customerIds: CUSTOMER_IDS }), { maxLength: 4 }),
      ),
    )
    .map(([p, c]) => new UpsertCustomers(p, c)),
  fc
    .tuple(
      partnerArb,
      fc.array(
        smallIds(historyTransactionArbitrary({ customerIds: [...CUSTOMER_IDS, 'c9'] }), 'h'),
        {
          maxLength: 5,
        },
      ),
    )
    .map(([p, t]) => new AddHistory(p, t)),
  fc
    .tuple(
      partnerArb,
      fc.array(smallIds(transactionArbitrary({ customerIds: [...CUSTOMER_IDS, 'c9'] }), 't'), {
        maxLength: 6,
      }),
    )
    .map(([p, t]) => new AddTransactions(p, t)),
  fc
    .tuple(partnerArb, day, day, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }))
    .map(([p, from, to, page, size]) => new ListPayments(p, from, to, page, size)),
];

describe('the engine against a model', () => {
  it('agrees with the model after every step of any sequence of calls by two partners', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 60, size: 'large' }), async (cmds) => {
        let n = 0;
        const setup = async () => {
          const model: Model = {
            offers: new Map(),
            partners: Object.fromEntries(
              PARTNERS.map((p) => [
                p,
                { customers: new Map(), ids: new Set(), stored: new Map(), payments: [] },
              ]),
            ),
          };
          const real: Real = {
            engine: createEngine({ timeZone: 'Europe/Paris', ids: () => `event-${++n}` }),
          };
          // A start where payments are likely: one open offer, and customers at both partners.
          await new UpsertOffers([OPEN_OFFER]).run(model, real);
          for (const p of PARTNERS) await new UpsertCustomers(p, START_CUSTOMERS).run(model, real);
          return { model, real };
        };
        await fc.asyncModelRun(setup, cmds);
      }),
      { numRuns: 100 },
    );
  });
});
