import { describe, expect, test } from 'vitest';
import { screenCustomers } from '../../src/core/customers.js';
import { decide, screenHistory } from '../../src/core/decide.js';
import { createReplay } from '../../src/core/replay/createReplay.js';
import { replay } from '../../src/core/replay/replay.js';
import { OfferValidationError } from '../../src/matching/compileOffers.js';
import { customer, history, offer, tx } from '../fixtures.js';

type Data = Parameters<typeof replay>[0];

function run(data: Partial<Data>, options: Parameters<typeof replay>[1] = {}) {
  return replay(
    { offers: [offer()], customers: [customer()], history: [], transactions: [tx()], ...data },
    options,
  );
}

function codes(r: ReturnType<typeof run>) {
  return Object.fromEntries(r.errors.map((e) => [e.key, e.code]));
}

describe('replay: the message conditions of the partner API', () => {
  test('a customer with the given id not found', () => {
    const r = run({ transactions: [tx({ customer_id: 'nobody' })] });
    expect(r.errors).toEqual([
      { key: 't1', code: 'customer_not_found', message: "Customer with id 'nobody' not found" },
    ]);
  });

  test('a history item of an unknown customer is rejected and not stored', () => {
    const r = run({
      history: [history({ customer_id: 'nobody', transaction_id: 't1' })],
      transactions: [tx()],
    });
    expect(r.rejected.history).toEqual([
      { key: 't1', code: 'customer_not_found', message: "Customer with id 'nobody' not found" },
    ]);
    expect(r.payments).toHaveLength(1);
  });

  test('several customers with the same id in one request: every copy rejected, one entry', () => {
    const r = run({
      customers: [
        customer(),
        customer({ birthday: '1980-01-01' }),
        customer({ customer_id: ' c1 ' }),
      ],
      transactions: [tx()],
    });
    expect(r.rejected.customers).toEqual([
      {
        key: 'c1',
        code: 'duplicate_customer',
        message: "Several customers with the id 'c1' were provided in the request",
      },
    ]);
    expect(codes(r)).toEqual({ t1: 'customer_not_found' });
  });

  test('a transaction already in the service: stored before, or earlier in the same batch', () => {
    const r = run({
      history: [history({ transaction_id: 'h1' })],
      transactions: [tx(), tx({ amount: 99 }), tx({ transaction_id: 'h1' })],
    });
    expect(r.payments.map((p) => p.transaction_id)).toEqual(['t1']);
    expect(r.errors.map((e) => [e.key, e.code])).toEqual([
      ['t1', 'duplicate_transaction'],
      ['h1', 'duplicate_transaction'],
    ]);
    expect(r.errors[0]?.message).toBe("Transaction 't1' is already in the service");
  });

  test('no cashback offer associated', () => {
    const r = run({
      transactions: [tx({ merchant: { id: 'm', name: 'Elsewhere', category_code: '1' } })],
    });
    expect(r.errors).toEqual([
      {
        key: 't1',
        code: 'no_offer',
        message: "No cashback offer associated with merchant 'elsewhere'",
      },
    ]);
  });
});

describe('replay: outcomes', () => {
  test('pays amount × discount / 100, rounded half-up, on day + warranty', () => {
    const r = run({
      transactions: [tx({ amount: 10.1 })],
      offers: [offer({ discount: 5, warranty: 30 })],
    });
    expect(r.payments).toEqual([
      {
        transaction_id: 't1',
        customer_id: 'c1',
        offer_id: 1,
        cashback: 0.51,
        payment_date: '2025-07-02',
      },
    ]);
  });

  test('reports zero_cashback when the match rounds to 0', () => {
    const r = run({ transactions: [tx({ amount: 0.09 })] });
    expect(codes(r)).toEqual({ t1: 'zero_cashback' });
  });

  test('checks run in order: validation, duplicate, customer, matching', () => {
    const r = run({
      history: [history({ transaction_id: 'h1' })],
      transactions: [
        tx({ transaction_id: 'h1', amount: -1, customer_id: 'nobody' }),
        tx({ transaction_id: 'h1', customer_id: 'nobody' }),
        tx({
          transaction_id: 't9',
          customer_id: 'nobody',
          merchant: { id: '', name: 'Elsewhere', category_code: '' },
        }),
      ],
    });
    expect(r.errors.map((e) => e.code)).toEqual([
      'invalid_transaction',
      'duplicate_transaction',
      'customer_not_found',
    ]);
  });

  test('keys an item without a usable id as #<index>, counted across chunks', () => {
    const session = createReplay({ offers: [offer()], customers: [customer()] });
    session.push([tx()]);
    const outcomes = session.push([tx({ transaction_id: 't2' }), 42]);
    expect(outcomes[1]).toMatchObject({
      ok: false,
      error: { key: '#2', code: 'invalid_transaction' },
    });
  });

  test('stores valid transactions of known customers whether or not they pay; not the others', () => {
    const session = createReplay({
      offers: [offer({ audience: 'returning' })],
      customers: [customer()],
    });
    const first = session.push([
      tx({ transaction_id: 'bad', amount: 0 }),
      tx({ transaction_id: 'a', date: '2025-06-01T10:00:00' }),
    ]);
    expect(first.map((o) => (o.ok ? 'paid' : o.error.code))).toEqual([
      'invalid_transaction',
      'no_offer',
    ]);
    const second = session.push([tx({ transaction_id: 'bad' }), tx({ transaction_id: 'a' })]);
    expect(second.map((o) => (o.ok ? 'paid' : o.error.code))).toEqual([
      'paid',
      'duplicate_transaction',
    ]);
  });

  test('summarises counts by outcome and by offer with exact totals', () => {
    const r = run({
      offers: [offer(), offer({ offer_id: 2, merchant_name: 'Bakery', discount: 10 })],
      transactions: [
        tx({ transaction_id: 'a', amount: 0.09 }),
        tx({ transaction_id: 'b', amount: 0.2 }),
        tx({
          transaction_id: 'c',
          amount: 3.3,
          merchant: { id: '', name: 'BAKERY', category_code: '' },
        }),
        tx({ transaction_id: 'd', customer_id: 'x' }),
      ],
    });
    expect(r.summary).toEqual({
      transactions: 4,
      paid: 2,
      errors: {
        invalid_transaction: 0,
        customer_not_found: 1,
        duplicate_transaction: 0,
        no_offer: 0,
        zero_cashback: 1,
      },
      byOffer: { '1': { payments: 1, cashback: '0.01' }, '2': { payments: 1, cashback: '0.33' } },
      totalCashback: '0.34',
      rejected: { customers: 0, history: 0 },
      currency: 'EUR',
      liability: {
        asOf: '2025-06-02T09:15:00.000',
        pending: { count: 2, cashback: '0.34' },
        confirmed: { count: 0, cashback: '0.00' },
        cancelled: { count: 0, cashback: '0.00' },
        clawedBack: { count: 0, cashback: '0.00' },
      },
    });
  });

  test('uses the injected ids and clock, and nothing else', () => {
    const r = run({}, { ids: () => 'evt-1', clock: () => new Date('2026-01-01T00:00:00Z') });
    expect(r.event_id).toBe('evt-1');
    expect(r.generated_at).toBe('2026-01-01T00:00:00.000Z');
    expect(run({}).generated_at).toBeUndefined();
  });

  test('refuses invalid offers at load, naming the offer and the field', () => {
    expect(() => run({ offers: [offer({ discount: 120 })] })).toThrow(OfferValidationError);
    expect(() => run({ offers: [offer({ discount: 120 })] })).toThrow(
      'offer 1: discount must be at most 100',
    );
  });

  test('rejects unknown options', () => {
    expect(() => run({}, { timeZone: 'Mars/Olympus' })).toThrow("Unknown time zone 'Mars/Olympus'");
    expect(() => run({}, { scale: 11 })).toThrow(RangeError);
    expect(() => run({}, { rounding: 'sideways' as 'up' })).toThrow(RangeError);
  });
});

describe('replay: what it rejects before deciding', () => {
  test('an invalid customer is rejected with every reason, keyed by its id or #<index>', () => {
    const r = run({
      customers: [
        customer(),
        customer({ customer_id: 'a', birthday: '1990-02-30' }),
        customer({ customer_id: 'b', gender: '  ' }),
        customer({ customer_id: 'c', location: undefined }),
        customer({ customer_id: 'd', location: { country: 'FR' } }),
        customer({ customer_id: 'e', location: 'Paris' }),
        customer({ customer_id: 'x'.repeat(129) }),
        7,
      ],
      transactions: [tx(), tx({ transaction_id: 't2', customer_id: 'a' })],
    });
    const invalid = (key: string, reason: string) => ({
      key,
      code: 'invalid_customer',
      message: `Invalid customer: ${reason}`,
    });
    expect(r.rejected.customers).toEqual([
      invalid('a', 'birthday must be a real date YYYY-MM-DD'),
      invalid('b', 'gender must not be empty'),
      invalid('c', 'location is required'),
      invalid('d', 'location.city is required'),
      invalid('e', 'location must be an object'),
      invalid('#6', 'customer_id must be at most 128 characters'),
      invalid('#7', 'must be an object'),
    ]);
    // Rejected customers are not registered: their transactions find no customer.
    expect(codes(r)).toEqual({ t2: 'customer_not_found' });
    expect(r.summary.rejected).toEqual({ customers: 7, history: 0 });
  });

  test('an invalid history item is rejected and not stored', () => {
    const r = run({
      history: [
        history({ transaction_id: 'h1', date: 'yesterday' }),
        history({ transaction_id: undefined, amount: -1 }),
      ],
      transactions: [tx({ transaction_id: 'h1' })],
    });
    expect(r.rejected.history).toEqual([
      {
        key: 'h1',
        code: 'invalid_transaction',
        message: 'Invalid history transaction: date must be a date-time YYYY-MM-DDTHH:mm:ss[.fff]',
      },
      {
        key: '#1',
        code: 'invalid_transaction',
        message:
          'Invalid history transaction: transaction_id is required; amount must be greater than 0',
      },
    ]);
    // h1 was not stored, so the transaction with that id is not a duplicate.
    expect(r.payments.map((p) => p.transaction_id)).toEqual(['h1']);
  });

  test('an input that is not an array or an object is a TypeError naming it', () => {
    const base = { offers: [offer()], customers: [customer()], transactions: [tx()] };
    const bad = (data: unknown) => () => replay(data as Data);
    expect(bad(null)).toThrow(new TypeError('data must be an object, got null'));
    expect(bad({ ...base, customers: 5 })).toThrow(
      new TypeError('data.customers must be an array, got the number 5'),
    );
    expect(bad({ ...base, history: 'h1' })).toThrow(
      new TypeError('data.history must be an array, got the string "h1"'),
    );
    expect(bad({ ...base, transactions: tx() })).toThrow(
      new TypeError('data.transactions must be an array, got an object'),
    );
    expect(bad({ ...base, offers: 5 })).toThrow(
      new TypeError(
        'data.offers must be an array of offers or an OfferSet from compileOffers, got the number 5',
      ),
    );
    expect(bad({ ...base, offers: 'x' })).toThrow(
      new TypeError(
        'data.offers must be an array of offers or an OfferSet from compileOffers, got the string "x"',
      ),
    );
    expect(bad({ ...base, offers: { byMerchant: 1 } })).toThrow(/^data\.offers must be an array/);
    expect(() => createReplay({ ...base, offers: 'x' } as never)).toThrow(
      /^data\.offers must be an array/,
    );
    const session = createReplay(base);
    expect(() => session.push(undefined as unknown as unknown[])).toThrow(
      new TypeError('transactions must be an array, got undefined'),
    );
    expect(() => screenCustomers(null as never)).toThrow(
      new TypeError('customers must be an array, got null'),
    );
    expect(() => decide(undefined as never, {} as never)).toThrow(TypeError);
    expect(() => screenHistory('t1' as never, {} as never)).toThrow(TypeError);
    // Nothing was decided by the calls that threw.
    expect(session.summary().transactions).toBe(0);
  });

  test('a key the input object does not have is a TypeError naming it and the nearest field', () => {
    const base = { offers: [offer()], customers: [customer()], transactions: [tx()] };
    const { transactions, ...sessionData } = base;
    expect(() => replay({ ...sessionData, transaction: transactions } as never)).toThrow(
      new TypeError(
        "data: unknown field 'transaction'; did you mean 'transactions'? " +
          '(known: offers, customers, activations, history, transactions, returns)',
      ),
    );
    expect(() => replay({ ...base, histroy: [] } as never)).toThrow(
      /^data: unknown field 'histroy'; did you mean 'history'\?/,
    );
    expect(() => createReplay({ ...sessionData, transaction: transactions } as never)).toThrow(
      /^data: unknown field 'transaction'; did you mean 'transactions'\?/,
    );
    // The same data set feeds a session, which leaves its transactions to push.
    expect(createReplay(base).push([]).length).toBe(0);
    expect(() => createReplay({ ...base, transactions: {} } as never)).toThrow(
      new TypeError('data.transactions must be an array, got an object'),
    );
    expect(() => replay({ ...base, customers: undefined } as never)).toThrow(
      new TypeError('data.customers must be an array, got undefined'),
    );
  });

  test('an options key that is not an option is a TypeError naming the nearest one', () => {
    const base = { offers: [offer()], customers: [customer()], transactions: [tx()] };
    expect(() => replay(base, { timezone: 'Europe/Paris' } as never)).toThrow(
      new TypeError(
        "replay options: unknown option 'timezone'; did you mean 'timeZone'? " +
          '(known: timeZone, scale, rounding, currency, operators, lateReturns, maxLatenessDays, asOf, clock, ids)',
      ),
    );
    expect(() => replay(base, { maxLateness: 3 } as never)).toThrow(
      /^replay options: unknown option 'maxLateness'; did you mean 'maxLatenessDays'\?/,
    );
    const { transactions: _, ...sessionData } = base;
    // clock and ids stamp a replay's result; a session has none.
    expect(() => createReplay(sessionData, { clock: () => new Date() } as never)).toThrow(
      /^createReplay options: unknown option 'clock' \(known: /,
    );
    expect(() => replay(base, null as never)).toThrow(
      new TypeError('replay options must be an object, got null'),
    );
  });

  test('option values of the wrong type are errors naming the option', () => {
    const base = { offers: [offer()], customers: [customer()], transactions: [tx()] };
    expect(() => replay(base, { clock: '2026-01-01' } as never)).toThrow(
      new TypeError('replay options.clock must be a function, got the string "2026-01-01"'),
    );
    expect(() => replay(base, { ids: 'evt-1' } as never)).toThrow(
      new TypeError('replay options.ids must be a function, got the string "evt-1"'),
    );
    expect(() => replay(base, { clock: () => '2026-01-01' } as never)).toThrow(
      new TypeError('replay options.clock must return a valid Date, got the string "2026-01-01"'),
    );
    expect(() => replay(base, { ids: () => 7 } as never)).toThrow(
      new TypeError('replay options.ids must return a non-empty string, got the number 7'),
    );
    expect(() => replay(base, { currency: 978 } as never)).toThrow(
      new TypeError('currency must be a non-empty string, got the number 978'),
    );
    expect(() => replay(base, { operators: [] } as never)).toThrow(
      new TypeError('operators must be a registry from createOperatorRegistry, got a list'),
    );
    expect(() => replay(base, { scale: 1.5 })).toThrow(
      new RangeError('scale must be a whole number from 0 to 10, got the number 1.5'),
    );
    expect(() => replay(base, { maxLatenessDays: -1 })).toThrow(
      new RangeError(
        'maxLatenessDays must be a whole number of at least 0 or Infinity, got the number -1',
      ),
    );
  });
});

describe('replay with activations', () => {
  const gated = offer({ requires_activation: true });

  test('pays only customers with an activation at or before the transaction, known from the start', () => {
    const r = run({
      offers: [gated],
      customers: [customer(), customer({ customer_id: 'c2' }), customer({ customer_id: 'c3' })],
      activations: [
        { customer_id: 'c1', offer_id: 1, date: '2025-06-02T09:15:00' },
        { customer_id: 'c3', offer_id: 1, date: '2025-06-02T09:15:01' },
      ],
      transactions: [
        tx(),
        tx({ transaction_id: 't2', customer_id: 'c2' }),
        tx({ transaction_id: 't3', customer_id: 'c3' }),
      ],
    });
    expect(r.payments.map((p) => p.transaction_id)).toEqual(['t1']);
    expect(codes(r)).toEqual({ t2: 'no_offer', t3: 'no_offer' });
    expect(r.errors[0]?.message).toContain('failed its activation check');
  });

  test('rejects activations as the engine does, date required', () => {
    const r = run({
      offers: [gated],
      activations: [
        { customer_id: 'c1', offer_id: 1 },
        { customer_id: 'nobody', offer_id: 1, date: '2025-01-01T00:00:00' },
        { customer_id: 'c1', offer_id: 2, date: '2025-01-01T00:00:00' },
      ],
    });
    expect(r.rejected.activations).toEqual([
      { key: 'c1/1', code: 'invalid_activation', message: 'Invalid activation: date is required' },
      {
        key: 'nobody/1',
        code: 'customer_not_found',
        message: "Customer with id 'nobody' not found",
      },
      { key: 'c1/2', code: 'offer_not_found', message: 'Offer with id 2 not found' },
    ]);
    expect(r.payments).toEqual([]);
  });

  test('createReplay takes activations too', () => {
    const session = createReplay({
      offers: [gated],
      customers: [customer()],
      activations: [{ customer_id: 'c1', offer_id: 1, date: '2025-01-01T00:00:00' }],
    });
    expect(session.push([tx()])[0]?.ok).toBe(true);
  });

  test('activations that are not an array are a TypeError', () => {
    expect(() => run({ activations: 5 as never })).toThrow(
      new TypeError('data.activations must be an array, got the number 5'),
    );
  });
});
