/**
 * Every example condition of the partner API (docs/http.md) through the engine over the
 * memory store, in the partner API's own shapes: `{ event_id, payments, errors }` for transactions,
 * `{ event_id, errors }` for history, `{ Added, Updated, Errors }` for customers and the paged
 * listing of 4.5. Every expected value is exact.
 */
import { describe, expect, test } from 'vitest';
import {
  type CashbackEngine,
  createEngine,
  createMemoryStore,
  InvalidRequestError,
} from '../../src/engine/entry.js';
import { customer, history, offer, tx } from '../fixtures.js';

const A = 'bank-a';

/** An engine with a pinned clock and counting event ids: `evt-1`, `evt-2`, … */
function engineOf(): CashbackEngine {
  let n = 0;
  return createEngine({
    store: createMemoryStore(),
    clock: () => new Date('2025-06-01T12:00:00Z'),
    ids: () => `evt-${++n}`,
  });
}

/** An engine with the fixture offer (Coffee House, 5 %, warranty 14) and customer c1 of bank-a. */
async function ready(): Promise<CashbackEngine> {
  const engine = engineOf();
  await engine.upsertOffers([offer()]);
  await engine.upsertCustomers(A, [customer()]);
  return engine;
}

const notFound = (id: string) => `Customer with id '${id}' not found`;
const already = (id: string) => `Transaction '${id}' is already in the service`;

function elsewhere(over: Record<string, unknown> = {}) {
  return tx({ merchant: { id: 'm9', name: 'Elsewhere', category_code: '1' }, ...over });
}

describe('add transactions history: { event_id, errors }', () => {
  test('a clean upload answers its event id and an empty errors object', async () => {
    const engine = await ready();
    const r = await engine.addHistory(A, [history(), history({ transaction_id: 'h2' })]);
    expect({ event_id: r.event_id, errors: r.errors }).toEqual({ event_id: 'evt-1', errors: {} });
    expect(await engine.store.transactions.existing(A, ['h1', 'h2'])).toEqual(['h1', 'h2']);
  });

  test('a customer with the given id not found: reported by transaction id, not stored', async () => {
    const engine = await ready();
    const r = await engine.addHistory(A, [
      history({ transaction_id: 'h1', customer_id: 'nobody' }),
      history({ transaction_id: 'h2' }),
    ]);
    expect({ event_id: r.event_id, errors: r.errors }).toEqual({
      event_id: 'evt-1',
      errors: { h1: notFound('nobody') },
    });
    expect(await engine.store.transactions.existing(A, ['h1', 'h2'])).toEqual(['h2']);
  });

  test('a history item refused for its unknown customer is accepted once the customer exists', async () => {
    const engine = await ready();
    await engine.addHistory(A, [history({ customer_id: 'c2' })]);
    await engine.upsertCustomers(A, [customer({ customer_id: 'c2' })]);
    const r = await engine.addHistory(A, [history({ customer_id: 'c2' })]);
    expect(r.errors).toEqual({});
  });

  test('a transaction id twice in one upload: the second copy is already in the service', async () => {
    const engine = await ready();
    const r = await engine.addHistory(A, [history(), history({ amount: 99 })]);
    expect(r.errors).toEqual({ h1: already('h1') });
  });

  test('a transaction id uploaded again in a later request is already in the service', async () => {
    const engine = await ready();
    await engine.addHistory(A, [history()]);
    const r = await engine.addHistory(A, [history()]);
    expect(r.errors).toEqual({ h1: already('h1') });
  });

  test('a history id already submitted as a transaction is already in the service: one id space', async () => {
    const engine = await ready();
    await engine.addTransactions(A, [tx({ transaction_id: 'x1' })]);
    const r = await engine.addHistory(A, [history({ transaction_id: 'x1' })]);
    expect(r.errors).toEqual({ x1: already('x1') });
  });

  test('an invalid history item is keyed by its id, or by #<index> without a usable id', async () => {
    const engine = await ready();
    const r = await engine.addHistory(A, [
      history({ amount: 0 }),
      history({ transaction_id: '' }),
      history({ transaction_id: 'h3', merchant: {} }),
    ]);
    expect(r.errors).toEqual({
      h1: 'Invalid history transaction: amount must be greater than 0',
      '#1': 'Invalid history transaction: transaction_id must not be empty',
      h3: 'Invalid history transaction: merchant.name is required',
    });
  });
});

describe('add customers: { Added, Updated, Errors }', () => {
  test('new customers count in Added, with an empty Errors object', async () => {
    const engine = engineOf();
    const r = await engine.upsertCustomers(A, [customer(), customer({ customer_id: 'c2' })]);
    expect({ Added: r.Added, Updated: r.Updated, Errors: r.Errors }).toEqual({
      Added: 2,
      Updated: 0,
      Errors: {},
    });
  });

  test('an existing customer is replaced, not rejected, and counts in Updated', async () => {
    const engine = engineOf();
    await engine.upsertCustomers(A, [customer()]);
    const r = await engine.upsertCustomers(A, [
      customer({ birthday: '1980-01-01', gender: 'M' }),
      customer({ customer_id: 'c2' }),
    ]);
    expect({ Added: r.Added, Updated: r.Updated, Errors: r.Errors }).toEqual({
      Added: 1,
      Updated: 1,
      Errors: {},
    });
    expect(await engine.store.customers.get(A, ['c1'])).toEqual([
      {
        customer_id: 'c1',
        birthday: '1980-01-01',
        gender: 'M',
        location: { country: 'FR', city: 'Paris' },
      },
    ]);
  });

  test('several customers with the same id in one request: every copy rejected, one Errors entry', async () => {
    const engine = engineOf();
    const r = await engine.upsertCustomers(A, [
      customer(),
      customer({ customer_id: 'c2' }),
      customer({ birthday: '1980-01-01' }),
      customer({ customer_id: ' c1 ' }),
    ]);
    expect({ Added: r.Added, Updated: r.Updated, Errors: r.Errors }).toEqual({
      Added: 1,
      Updated: 0,
      Errors: { c1: "Several customers with the id 'c1' were provided in the request" },
    });
    expect(await engine.store.customers.get(A, ['c1', 'c2'])).toEqual([
      customer({ customer_id: 'c2' }),
    ]);
  });

  test('repeated copies of an existing customer leave the stored one as it was', async () => {
    const engine = engineOf();
    await engine.upsertCustomers(A, [customer()]);
    const r = await engine.upsertCustomers(A, [
      customer({ gender: 'M' }),
      customer({ gender: 'X' }),
    ]);
    expect({ Added: r.Added, Updated: r.Updated }).toEqual({ Added: 0, Updated: 0 });
    expect(await engine.store.customers.get(A, ['c1'])).toEqual([customer()]);
  });

  test('an invalid customer is rejected with its reason, keyed by id or #<index>', async () => {
    const engine = engineOf();
    const r = await engine.upsertCustomers(A, [
      customer({ birthday: '2025-02-30' }),
      customer({ customer_id: 42 }),
      customer({ customer_id: 'c3' }),
    ]);
    expect({ Added: r.Added, Updated: r.Updated, Errors: r.Errors }).toEqual({
      Added: 1,
      Updated: 0,
      Errors: {
        c1: 'Invalid customer: birthday must be a real date YYYY-MM-DD',
        '#1': 'Invalid customer: customer_id must be a string',
      },
    });
  });
});

describe('add transactions: { event_id, payments, errors }', () => {
  test('a qualifying transaction is paid: amount × discount / 100 on day + warranty', async () => {
    const engine = await ready();
    const r = await engine.addTransactions(A, [tx({ amount: 10.1 })]);
    expect({ event_id: r.event_id, payments: r.payments, errors: r.errors }).toEqual({
      event_id: 'evt-1',
      payments: [{ cashback: 0.51, payment_date: '2025-06-16', transaction_id: 't1' }],
      errors: {},
    });
  });

  test('a customer with the given id not found: reported, and the transaction is not stored', async () => {
    const engine = await ready();
    const r = await engine.addTransactions(A, [tx({ customer_id: 'nobody' })]);
    expect({ event_id: r.event_id, payments: r.payments, errors: r.errors }).toEqual({
      event_id: 'evt-1',
      payments: [],
      errors: { t1: notFound('nobody') },
    });
    expect(await engine.store.transactions.existing(A, ['t1'])).toEqual([]);
    await engine.upsertCustomers(A, [customer({ customer_id: 'nobody' })]);
    const again = await engine.addTransactions(A, [tx({ customer_id: 'nobody' })]);
    expect(again.payments).toEqual([
      { cashback: 0.5, payment_date: '2025-06-16', transaction_id: 't1' },
    ]);
  });

  test('a transaction id twice in one request: the first is paid, the second is already in the service', async () => {
    const engine = await ready();
    const r = await engine.addTransactions(A, [tx(), tx({ amount: 99 })]);
    expect({ payments: r.payments, errors: r.errors }).toEqual({
      payments: [{ cashback: 0.5, payment_date: '2025-06-16', transaction_id: 't1' }],
      errors: { t1: already('t1') },
    });
  });

  test('a transaction already in the service from an earlier request', async () => {
    const engine = await ready();
    await engine.addTransactions(A, [tx()]);
    const r = await engine.addTransactions(A, [tx({ amount: 99 })]);
    expect({ event_id: r.event_id, payments: r.payments, errors: r.errors }).toEqual({
      event_id: 'evt-2',
      payments: [],
      errors: { t1: already('t1') },
    });
  });

  test('a transaction already in the service as uploaded history: one id space', async () => {
    const engine = await ready();
    await engine.addHistory(A, [history({ transaction_id: 'x1' })]);
    const r = await engine.addTransactions(A, [tx({ transaction_id: 'x1' })]);
    expect({ payments: r.payments, errors: r.errors }).toEqual({
      payments: [],
      errors: { x1: already('x1') },
    });
  });

  test('no cashback offer associated: no offer at the merchant', async () => {
    const engine = await ready();
    const r = await engine.addTransactions(A, [elsewhere()]);
    expect({ payments: r.payments, errors: r.errors }).toEqual({
      payments: [],
      errors: { t1: "No cashback offer associated with merchant 'elsewhere'" },
    });
  });

  test('no cashback offer associated: the merchant has an offer the transaction fails', async () => {
    const engine = await ready();
    const r = await engine.addTransactions(A, [tx({ date: '2026-01-01T00:00:00' })]);
    expect(r.errors).toEqual({
      t1: 'No cashback offer associated with this transaction: offer 1 failed its valid_dates check',
    });
  });

  test('an offer matched but its cashback rounds to 0: zero_cashback', async () => {
    const engine = await ready();
    const r = await engine.addTransactions(A, [
      tx({ amount: 0.09 }),
      tx({ transaction_id: 't2', amount: 0.1 }),
    ]);
    expect({ payments: r.payments, errors: r.errors }).toEqual({
      payments: [{ cashback: 0.01, payment_date: '2025-06-16', transaction_id: 't2' }],
      errors: { t1: 'Cashback of offer 1 rounds to 0 at 2 decimal places' },
    });
    expect(r.details.errors.map((e) => e.code)).toEqual(['zero_cashback']);
  });

  test('an invalid transaction is keyed by its id, or #<index> when it has no usable id', async () => {
    const engine = await ready();
    const { description: _, ...noDescription } = tx({ transaction_id: 't4' });
    const r = await engine.addTransactions(A, [
      tx({ amount: -1 }),
      tx({ transaction_id: undefined }),
      42,
      noDescription,
      tx({ transaction_id: 't5', date: '2025-02-30T10:00:00' }),
    ]);
    expect({ payments: r.payments, errors: r.errors }).toEqual({
      payments: [],
      errors: {
        t1: 'Invalid transaction: amount must be greater than 0',
        '#1': 'Invalid transaction: transaction_id is required',
        '#2': 'Invalid transaction: must be an object',
        t4: 'Invalid transaction: description is required',
        t5: 'Invalid transaction: date is not a real calendar date',
      },
    });
    expect(r.details.errors.map((e) => e.code)).toEqual([
      'invalid_transaction',
      'invalid_transaction',
      'invalid_transaction',
      'invalid_transaction',
      'invalid_transaction',
    ]);
    expect(await engine.store.transactions.existing(A, ['t1', 't4', 't5'])).toEqual([]);
  });

  test('every condition in one request: one payment or one error per item', async () => {
    const engine = await ready();
    await engine.addHistory(A, [history({ transaction_id: 'h1' })]);
    const r = await engine.addTransactions(A, [
      tx({ transaction_id: 'a', amount: 20 }),
      tx({ transaction_id: 'b', customer_id: 'nobody' }),
      tx({ transaction_id: 'h1' }),
      elsewhere({ transaction_id: 'c' }),
      tx({ transaction_id: 'd', amount: 0.05 }),
      tx({ transaction_id: 'e', amount: 'ten' }),
    ]);
    expect({ event_id: r.event_id, payments: r.payments, errors: r.errors }).toEqual({
      event_id: 'evt-2',
      payments: [{ cashback: 1, payment_date: '2025-06-16', transaction_id: 'a' }],
      errors: {
        b: notFound('nobody'),
        h1: already('h1'),
        c: "No cashback offer associated with merchant 'elsewhere'",
        d: 'Cashback of offer 1 rounds to 0 at 2 decimal places',
        e: 'Invalid transaction: amount must be a number or a plain decimal string',
      },
    });
  });
});

describe('get cashback payments: the paged listing', () => {
  /**
   * Four payments on three payment days (warranty 14): c on 06-15, a and b on 06-16, d on 06-17,
   * submitted out of listing order.
   */
  async function paid(): Promise<CashbackEngine> {
    const engine = await ready();
    await engine.upsertCustomers(A, [
      customer({ customer_id: 'c2', location: { country: 'DE', city: 'Berlin' } }),
    ]);
    const r = await engine.addTransactions(A, [
      tx({ transaction_id: 'd', date: '2025-06-03T08:00:00', amount: 40 }),
      tx({ transaction_id: 'b', date: '2025-06-02T23:59:59.999', amount: 20 }),
      tx({
        transaction_id: 'a',
        customer_id: 'c2',
        date: '2025-06-02T00:00:00',
        amount: 12.34,
        location: { country: 'DE', city: 'Berlin' },
      }),
      tx({ transaction_id: 'c', date: '2025-06-01T10:00:00', amount: 30 }),
    ]);
    expect(r.errors).toEqual({});
    return engine;
  }

  const record = {
    a: {
      transaction_id: 'a',
      country: 'DE',
      city: 'Berlin',
      date: '2025-06-16T00:00:00.000',
      cashback_amount: 0.62,
      offer_id: 1,
      customer_id: 'c2',
      offer_revision: 1,
      status: 'pending',
    },
    b: {
      transaction_id: 'b',
      country: 'FR',
      city: 'Paris',
      date: '2025-06-16T00:00:00.000',
      cashback_amount: 1,
      offer_id: 1,
      customer_id: 'c1',
      offer_revision: 1,
      status: 'pending',
    },
    c: {
      transaction_id: 'c',
      country: 'FR',
      city: 'Paris',
      date: '2025-06-15T00:00:00.000',
      cashback_amount: 1.5,
      offer_id: 1,
      customer_id: 'c1',
      offer_revision: 1,
      status: 'pending',
    },
    d: {
      transaction_id: 'd',
      country: 'FR',
      city: 'Paris',
      date: '2025-06-17T00:00:00.000',
      cashback_amount: 2,
      offer_id: 1,
      customer_id: 'c1',
      offer_revision: 1,
      status: 'pending',
    },
  };

  test('lists by payment day, then transaction_id, dated at the payment day T00:00:00.000; defaults page 1 of 100', async () => {
    const engine = await paid();
    const page = await engine.listPayments(A, { date_from: '2025-06-01', date_to: '2025-06-30' });
    expect(page).toEqual({
      total_count: 4,
      current_page: 1,
      page_size: 100,
      date_from: '2025-06-01',
      date_to: '2025-06-30',
      transactions: [record.c, record.a, record.b, record.d],
    });
  });

  test('the range selects by payment day, both ends inclusive, not by transaction day', async () => {
    const engine = await paid();
    const page = await engine.listPayments(A, { date_from: '2025-06-16', date_to: '2025-06-17' });
    expect(page.total_count).toBe(3);
    expect(page.transactions).toEqual([record.a, record.b, record.d]);
    const txDays = await engine.listPayments(A, { date_from: '2025-06-01', date_to: '2025-06-03' });
    expect(txDays.total_count).toBe(0);
  });

  test('pages in listing order; total_count counts all matches', async () => {
    const engine = await paid();
    const range = { date_from: '2025-06-01', date_to: '2025-06-30' };
    const first = await engine.listPayments(A, { ...range, current_page: 1, page_size: 3 });
    const second = await engine.listPayments(A, { ...range, current_page: 2, page_size: 3 });
    expect(first).toEqual({
      total_count: 4,
      current_page: 1,
      page_size: 3,
      ...range,
      transactions: [record.c, record.a, record.b],
    });
    expect(second).toEqual({
      total_count: 4,
      current_page: 2,
      page_size: 3,
      ...range,
      transactions: [record.d],
    });
  });

  test('a page past the end is empty, with the right total_count', async () => {
    const engine = await paid();
    const page = await engine.listPayments(A, {
      date_from: '2025-06-01',
      date_to: '2025-06-30',
      current_page: 3,
      page_size: 2,
    });
    expect(page).toEqual({
      total_count: 4,
      current_page: 3,
      page_size: 2,
      date_from: '2025-06-01',
      date_to: '2025-06-30',
      transactions: [],
    });
  });

  test('a range without payments answers total_count 0 and no transactions', async () => {
    const engine = await paid();
    const page = await engine.listPayments(A, { date_from: '2025-01-01', date_to: '2025-01-31' });
    expect(page).toEqual({
      total_count: 0,
      current_page: 1,
      page_size: 100,
      date_from: '2025-01-01',
      date_to: '2025-01-31',
      transactions: [],
    });
  });

  test('a partner with nothing stored lists an empty page', async () => {
    const engine = engineOf();
    const page = await engine.listPayments(A, { date_from: '2025-06-01', date_to: '2025-06-01' });
    expect(page.total_count).toBe(0);
    expect(page.transactions).toEqual([]);
  });

  test('date_from after date_to is rejected with an issue on date_to', async () => {
    const engine = await paid();
    const err = await engine
      .listPayments(A, { date_from: '2025-06-30', date_to: '2025-06-01' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect((err as InvalidRequestError).issues).toEqual([
      { path: 'date_to', message: 'must not be before date_from' },
    ]);
    expect((err as InvalidRequestError).message).toBe(
      'Invalid request: date_to must not be before date_from',
    );
  });

  test('missing dates are rejected, each named', async () => {
    const engine = await paid();
    const err = await engine
      .listPayments(A, {} as { date_from: string; date_to: string })
      .catch((e) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect(err.issues).toEqual([
      { path: 'date_from', message: 'is required' },
      { path: 'date_to', message: 'is required' },
    ]);
  });

  test('a query that is not an object is rejected with an issue on query', async () => {
    const engine = await paid();
    const err = await engine
      .listPayments(A, 'x' as unknown as { date_from: string; date_to: string })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect((err as InvalidRequestError).issues).toEqual([
      { path: 'query', message: 'must be an object' },
    ]);
    expect((err as InvalidRequestError).message).toBe('Invalid request: query must be an object');
  });

  test('one day as the whole range is allowed', async () => {
    const engine = await paid();
    const page = await engine.listPayments(A, { date_from: '2025-06-15', date_to: '2025-06-15' });
    expect(page.transactions).toEqual([record.c]);
  });

  test('page_size 1001 and current_page 0 are rejected, each named', async () => {
    const engine = await paid();
    const range = { date_from: '2025-06-01', date_to: '2025-06-30' };
    const big = await engine.listPayments(A, { ...range, page_size: 1001 }).catch((e) => e);
    expect(big).toBeInstanceOf(InvalidRequestError);
    expect(big.issues).toEqual([{ path: 'page_size', message: 'must be at most 1000' }]);
    const zero = await engine.listPayments(A, { ...range, current_page: 0 }).catch((e) => e);
    expect(zero).toBeInstanceOf(InvalidRequestError);
    expect(zero.issues).toEqual([{ path: 'current_page', message: 'must be at least 1' }]);
    const max = await engine.listPayments(A, { ...range, page_size: 1000 });
    expect(max.page_size).toBe(1000);
  });

  test('pages given as digit strings are accepted and answered as numbers', async () => {
    const engine = await paid();
    const page = await engine.listPayments(A, {
      date_from: '2025-06-01',
      date_to: '2025-06-30',
      current_page: '2',
      page_size: '2',
    });
    expect(page).toEqual({
      total_count: 4,
      current_page: 2,
      page_size: 2,
      date_from: '2025-06-01',
      date_to: '2025-06-30',
      transactions: [record.b, record.d],
    });
  });

  test('a page number that is not whole and an impossible day are rejected, every field named', async () => {
    const engine = await paid();
    const err = await engine
      .listPayments(A, { date_from: '2025-02-30', date_to: '2025-06-30', page_size: 2.5 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect(err.issues).toEqual([
      { path: 'date_from', message: 'must be a real date YYYY-MM-DD' },
      { path: 'page_size', message: 'must be a whole number' },
    ]);
  });

  test('a page string that is not all digits is rejected as not a whole number', async () => {
    const engine = await paid();
    const err = await engine
      .listPayments(A, { date_from: '2025-06-01', date_to: '2025-06-30', current_page: '1.5' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect(err.issues).toEqual([{ path: 'current_page', message: 'must be a whole number' }]);
  });
});
