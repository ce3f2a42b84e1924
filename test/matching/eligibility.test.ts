import { describe, expect, test } from 'vitest';
import { explain } from '../../src/core/explain.js';
import { replay } from '../../src/core/replay/replay.js';
import { compileOffers } from '../../src/matching/compileOffers.js';
import { customer, history, offer, tx } from '../fixtures.js';

type Options = Parameters<typeof replay>[1];

/** The outcome of one transaction against some offers: the paying offer and cashback, or the code. */
function outcome(
  offers: Record<string, unknown>[],
  t: Record<string, unknown> = {},
  c: Record<string, unknown> = {},
  h: Record<string, unknown>[] = [],
  options: Options = {},
) {
  const r = replay(
    { offers, customers: [customer(c)], history: h, transactions: [tx(t)] },
    options,
  );
  const p = r.payments[0];
  return p === undefined ? r.errors[0]?.code : `offer ${p.offer_id}: ${p.cashback}`;
}

function failedCheck(
  o: Record<string, unknown>,
  t: Record<string, unknown> = {},
  c: Record<string, unknown> = {},
  h: Record<string, unknown>[] = [],
) {
  const e = explain(tx(t), { offers: [o], customer: customer(c), history: h });
  return e.candidates[0]?.failed?.check;
}

describe('offer eligibility (docs/concepts.md)', () => {
  test('an inactive offer pays nothing', () => {
    expect(outcome([offer({ active: false })])).toBe('no_offer');
    expect(failedCheck(offer({ active: false }))).toBe('active');
  });

  test('activation comes right after valid_dates, and counts from its date-time on', () => {
    const gated = offer({ requires_activation: true });
    expect(failedCheck(gated)).toBe('activation');
    // valid_dates is checked first: outside the dates, the missing activation is not named.
    expect(failedCheck({ ...gated, valid_to: '2025-05-31' })).toBe('valid_dates');
    // activation before age: a customer too young and not activated fails activation.
    expect(failedCheck({ ...gated, age: ['60+'] })).toBe('activation');
    const at = (date: string) =>
      explain(tx(), {
        offers: [gated],
        customer: customer(),
        activations: [
          { customer_id: 'c1', offer_id: 1, date },
          { customer_id: 'c2', offer_id: 1, date: '2000-01-01T00:00:00' },
        ],
      }).candidates[0];
    expect(at('2025-06-02T09:15:00')?.matched).toBe(true);
    expect(at('2025-06-02T09:15:00.000000001')?.failed).toEqual({
      check: 'activation',
      detail:
        'the customer activated the offer at 2025-06-02T09:15:00.000000001, after 2025-06-02T09:15:00.000',
    });
  });

  test('merchant names meet after NFKC, trimming, folding white space and lower-casing', () => {
    const names = [
      'coffee house',
      '  COFFEE\t\n  House ',
      'Ｃｏｆｆｅｅ Ｈｏｕｓｅ',
      'Coffee\u00a0House',
    ];
    for (const name of names) {
      expect(outcome([offer()], { merchant: { id: '', name, category_code: '' } })).toBe(
        'offer 1: 0.5',
      );
    }
    expect(
      outcome([offer()], { merchant: { id: '', name: 'Coffee Houses', category_code: '' } }),
    ).toBe('no_offer');
  });

  test('valid_from and valid_to are both inclusive', () => {
    const o = offer({ valid_from: '2025-06-02', valid_to: '2025-06-03' });
    expect(outcome([o], { date: '2025-06-02T00:00:00' })).toBe('offer 1: 0.5');
    expect(outcome([o], { date: '2025-06-03T23:59:59.999' })).toBe('offer 1: 0.5');
    expect(outcome([o], { date: '2025-06-01T23:59:59.999' })).toBe('no_offer');
    expect(failedCheck(o, { date: '2025-06-04T00:00:00' })).toBe('valid_dates');
  });

  test('the day is judged in the engine time zone', () => {
    const o = offer({ valid_from: '2025-06-03', valid_to: '2025-06-03' });
    const t = { date: '2025-06-02T23:30:00Z' };
    expect(outcome([o], t, {}, [], { timeZone: 'UTC' })).toBe('no_offer');
    expect(outcome([o], t, {}, [], { timeZone: 'Europe/Paris' })).toBe('offer 1: 0.5');
  });

  test('age bands are inclusive, A+ is open-ended, and an empty list means any age', () => {
    // Born 1990-05-15: 35 on 2025-06-02.
    expect(outcome([offer({ age: ['18-35'] })])).toBe('offer 1: 0.5');
    expect(outcome([offer({ age: ['35-40'] })])).toBe('offer 1: 0.5');
    expect(outcome([offer({ age: ['18-34'] })])).toBe('no_offer');
    expect(outcome([offer({ age: ['10-20', '35+'] })])).toBe('offer 1: 0.5');
    expect(outcome([offer({ age: ['36+'] })])).toBe('no_offer');
    expect(failedCheck(offer({ age: ['36+'] }))).toBe('age');
  });

  test('age counts whole years: the birthday itself is the first day of the new age', () => {
    const o = offer({ age: ['35+'] });
    expect(outcome([o], { date: '2025-05-14T23:59:59' })).toBe('no_offer');
    expect(outcome([o], { date: '2025-05-15T00:00:00' })).toBe('offer 1: 0.5');
  });

  test('a customer not born yet on the day earns nothing, even from an offer for any age', () => {
    // Born 2025-06-10; the transaction is on 2025-06-02. The day of birth itself is age 0.
    const c = { birthday: '2025-06-10' };
    for (const o of [offer(), offer({ age: ['0+'] }), offer({ age: [] })]) {
      expect(outcome([o], {}, c)).toBe('no_offer');
      expect(failedCheck(o, {}, c)).toBe('age');
      expect(outcome([o], { date: '2025-06-10T00:00:00' }, c)).toBe('offer 1: 0.5');
    }
    const e = explain(tx(), { offers: [offer()], customer: customer(c) });
    expect(e.candidates[0]?.failed?.detail).toBe(
      "the customer's birthday 2025-06-10 is after the day 2025-06-02",
    );
    expect(e.outcome).toMatchObject({
      ok: false,
      error: {
        code: 'no_offer',
        message: 'No cashback offer associated with this transaction: offer 1 failed its age check',
      },
    });
    // A condition on customer.age never sees a negative age: the age check comes first.
    const young = offer({ conditions: { fact: 'customer.age', operator: 'lessThan', value: 5 } });
    expect(outcome([young], {}, c)).toBe('no_offer');
  });

  test('a transaction dated before the birthday is still stored: history for later ones', () => {
    const c = { birthday: '2025-06-10' };
    const r = replay({
      offers: [offer({ audience: 'returning' })],
      customers: [customer(c)],
      transactions: [tx(), tx({ transaction_id: 't2', date: '2025-06-20T10:00:00' })],
    });
    expect(r.errors.map((e) => [e.key, e.code])).toEqual([['t1', 'no_offer']]);
    expect(r.payments.map((p) => p.transaction_id)).toEqual(['t2']);
  });

  test('a 29 February birthday counts on 1 March in common years', () => {
    const o = offer({ age: ['18+'], valid_from: '2020-01-01' });
    const c = { birthday: '2004-02-29' };
    expect(outcome([o], { date: '2022-02-28T12:00:00' }, c)).toBe('no_offer');
    expect(outcome([o], { date: '2022-03-01T00:00:00' }, c)).toBe('offer 1: 0.5');
    expect(
      outcome(
        [offer({ age: ['20+'], valid_from: '2020-01-01' })],
        { date: '2024-02-29T00:00:00' },
        c,
      ),
    ).toBe('offer 1: 0.5');
  });

  test('genders compare trimmed and lower-cased; an empty list means any gender', () => {
    expect(outcome([offer({ gender: [' f '] })], {}, { gender: 'F ' })).toBe('offer 1: 0.5');
    expect(outcome([offer({ gender: ['m'] })], {}, { gender: 'F' })).toBe('no_offer');
    expect(failedCheck(offer({ gender: ['m'] }))).toBe('gender');
  });

  test('min_amount is inclusive and exact', () => {
    expect(outcome([offer({ min_amount: '10.00' })], { amount: 10 })).toBe('offer 1: 0.5');
    expect(outcome([offer({ min_amount: 10.01 })], { amount: '10.009' })).toBe('no_offer');
    expect(failedCheck(offer({ min_amount: 11 }))).toBe('min_amount');
  });

  test('max_cashback caps the cashback of one transaction', () => {
    expect(outcome([offer({ discount: 50, max_cashback: 2.5 })], { amount: 100 })).toBe(
      'offer 1: 2.5',
    );
    // A cap with more places than the scale is rounded down: it is never exceeded.
    expect(outcome([offer({ discount: 50, max_cashback: '2.345' })], { amount: 100 })).toBe(
      'offer 1: 2.34',
    );
    expect(outcome([offer({ discount: 100, max_cashback: 0.005 })], { amount: 1 })).toBe(
      'zero_cashback',
    );
  });
});

describe('audience and lookback', () => {
  const returning = offer({ audience: 'returning', lookback_days: 30 });
  const fresh = offer({ audience: 'new', lookback_days: 30 });
  const at = (date: string, over: Record<string, unknown> = {}) => history({ date, ...over });

  test('returning needs an earlier purchase at the same merchant inside the lookback', () => {
    expect(outcome([returning], {}, {}, [at('2025-05-03T10:00:00')])).toBe('offer 1: 0.5');
    expect(outcome([returning], {}, {}, [at('2025-05-02T23:59:59')])).toBe('no_offer');
    expect(outcome([returning])).toBe('no_offer');
    expect(failedCheck(returning)).toBe('audience');
  });

  test('an earlier purchase must be strictly before, at the same normalised merchant', () => {
    expect(outcome([returning], {}, {}, [at('2025-06-02T09:15:00')])).toBe('no_offer');
    expect(outcome([returning], {}, {}, [at('2025-06-02T09:14:59.999')])).toBe('offer 1: 0.5');
    expect(
      outcome([returning], {}, {}, [
        at('2025-06-01T00:00:00', { merchant: { name: ' COFFEE house' } }),
      ]),
    ).toBe('offer 1: 0.5');
    expect(
      outcome([returning], {}, {}, [
        at('2025-06-01T00:00:00', { merchant: { name: 'Tea House' } }),
      ]),
    ).toBe('no_offer');
  });

  test('new means no such purchase', () => {
    expect(outcome([fresh])).toBe('offer 1: 0.5');
    expect(outcome([fresh], {}, {}, [at('2025-06-01T00:00:00')])).toBe('no_offer');
    expect(outcome([fresh], {}, {}, [at('2025-04-01T00:00:00')])).toBe('offer 1: 0.5');
  });

  test('lookback_days defaults to 365', () => {
    const o = offer({ audience: 'returning' });
    expect(outcome([o], {}, {}, [at('2024-06-02T10:00:00')])).toBe('offer 1: 0.5');
    expect(outcome([o], {}, {}, [at('2024-06-01T10:00:00')])).toBe('no_offer');
  });

  test('a transaction accepted earlier, paid or not, is history for later ones', () => {
    const r = replay({
      offers: [returning],
      customers: [customer()],
      transactions: [
        tx({ transaction_id: 'a', date: '2025-06-01T10:00:00' }),
        tx({ transaction_id: 'b' }),
      ],
    });
    expect(r.errors.map((e) => [e.key, e.code])).toEqual([['a', 'no_offer']]);
    expect(r.payments.map((p) => p.transaction_id)).toEqual(['b']);
  });
});

describe('selection, payment and rounding', () => {
  test('the highest cashback as paid wins, after the cap', () => {
    const offers = [
      offer({ offer_id: 1, discount: 50, max_cashback: 1 }),
      offer({ offer_id: 2, discount: 20 }),
      offer({ offer_id: 3, discount: 10 }),
    ];
    expect(outcome(offers)).toBe('offer 2: 2');
  });

  test('ties go to the lowest offer_id', () => {
    expect(
      outcome([offer({ offer_id: 9, discount: 5 }), offer({ offer_id: 4, discount: 5.004 })]),
    ).toBe('offer 4: 0.5');
  });

  test('payment_date is the day plus warranty, across months and years', () => {
    const r = replay({
      offers: [offer({ warranty: 45, valid_to: '2026-12-31' })],
      customers: [customer()],
      transactions: [tx({ date: '2025-12-20T23:59:59' })],
    });
    expect(r.payments[0]?.payment_date).toBe('2026-02-03');
  });

  test('rounds half-up by default, and honours scale and rounding options', () => {
    const t = { amount: '0.5' }; // 5% of 0.5 = 0.025
    expect(outcome([offer()], t)).toBe('offer 1: 0.03');
    expect(outcome([offer()], t, {}, [], { rounding: 'half-even' })).toBe('offer 1: 0.02');
    expect(outcome([offer()], t, {}, [], { rounding: 'down' })).toBe('offer 1: 0.02');
    expect(outcome([offer()], t, {}, [], { scale: 3 })).toBe('offer 1: 0.025');
    expect(outcome([offer()], t, {}, [], { scale: 0 })).toBe('zero_cashback');
  });

  test('is exact with money: 0.1 + 0.2 style amounts do not drift', () => {
    expect(outcome([offer({ discount: 10 })], { amount: 0.3 })).toBe('offer 1: 0.03');
    expect(outcome([offer({ discount: 33.33 })], { amount: '123456789012.45' })).toBe(
      'offer 1: 41148147777.85',
    );
  });

  test('conditions see hour and weekday in the engine time zone', () => {
    const o = offer({
      conditions: { all: [{ fact: 'transaction.hour', operator: 'lessThan', value: 10 }] },
    });
    expect(outcome([o], { date: '2025-06-02T09:59:59' })).toBe('offer 1: 0.5');
    expect(outcome([o], { date: '2025-06-02T10:00:00' })).toBe('no_offer');
    expect(
      outcome([o], { date: '2025-06-02T07:30:00Z' }, {}, [], { timeZone: 'Europe/Paris' }),
    ).toBe('offer 1: 0.5');
    const weekend = offer({
      conditions: {
        all: [{ fact: 'transaction.weekday', operator: 'greaterThanInclusive', value: 6 }],
      },
    });
    expect(outcome([weekend], { date: '2025-06-07T12:00:00' })).toBe('offer 1: 0.5');
    expect(failedCheck(weekend)).toBe('conditions');
  });

  test('history facts count earlier purchases within the lookback', () => {
    const o = offer({
      lookback_days: 30,
      conditions: {
        all: [
          {
            fact: 'history',
            path: '$.merchant_purchases',
            operator: 'greaterThanInclusive',
            value: 2,
          },
        ],
      },
    });
    const h = [
      history({ transaction_id: 'h1', date: '2025-05-20T00:00:00' }),
      history({ transaction_id: 'h2', date: '2025-04-01T00:00:00' }),
    ];
    expect(outcome([o], {}, {}, h)).toBe('no_offer');
    expect(
      outcome([o], {}, {}, [...h, history({ transaction_id: 'h3', date: '2025-06-01T00:00:00' })]),
    ).toBe('offer 1: 0.5');
  });
});

describe('explain', () => {
  test('lists every candidate at the merchant with its cashback or first failed check', () => {
    const e = explain(tx(), {
      offers: [
        offer(),
        offer({ offer_id: 2, age: ['50+'] }),
        offer({ offer_id: 3, merchant_name: 'Elsewhere' }),
      ],
      customer: customer(),
    });
    expect(e.outcome).toMatchObject({ ok: true, payment: { offer_id: 1, cashback: 0.5 } });
    expect(e.candidates).toEqual([
      { offer_id: 1, matched: true, cashback: 0.5, payment_date: '2025-06-16' },
      { offer_id: 2, matched: false, failed: { check: 'age', detail: 'age 35 is not in 50+' } },
    ]);
  });

  test('explains a zero cashback and an unknown customer', () => {
    const zero = explain(tx({ amount: 0.01 }), { offers: [offer()], customer: customer() });
    expect(zero.candidates[0]?.failed?.check).toBe('zero_cashback');
    const unknown = explain(tx(), { offers: [offer()], customer: undefined });
    expect(unknown.outcome).toMatchObject({ ok: false, error: { code: 'customer_not_found' } });
    expect(unknown.candidates).toEqual([]);
  });

  test('takes offers as JSON or as a set from compileOffers, and refuses a look-alike set', () => {
    const set = compileOffers([offer()]);
    const e = explain(tx(), { offers: set, customer: customer() });
    expect(e).toEqual(explain(tx(), { offers: [offer()], customer: customer() }));
    const lookAlike = {
      offers: set.offers,
      historyKeys: new Set<string>(),
      maxLookbackDays: 0,
      historyKeysOf: () => [],
    };
    expect(() => explain(tx(), { offers: lookAlike, customer: customer() })).toThrow(
      new TypeError('context.offers must be an OfferSet from compileOffers, got an object'),
    );
  });
});

describe('exactness on very long amounts', () => {
  test('rounds a 68-digit amount × discount only once', () => {
    // Just under …89.005: rounded first to fewer digits, it would become .005 and then .01.
    const amount = `123456789.004${'9'.repeat(56)}`;
    const r = replay({
      offers: [offer({ discount: 100 })],
      customers: [customer()],
      transactions: [tx({ amount })],
    });
    expect(r.summary.totalCashback).toBe('123456789.00');
  });
});
