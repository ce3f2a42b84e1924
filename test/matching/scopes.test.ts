/**
 * Offer scopes and channels (docs/concepts.md, Scopes): merchant lists, merchant ids, category
 * codes and exclusions; the checks `scope` and `channel`; history over a scope; selection across
 * merchant-bound and scoped offers; the indexes that find the candidates.
 */
import { describe, expect, test } from 'vitest';
import { explain } from '../../src/core/explain.js';
import { replay } from '../../src/core/replay/replay.js';
import { candidatesOf } from '../../src/matching/candidates.js';
import {
  compileOfferSet,
  compileOffers,
  OfferValidationError,
} from '../../src/matching/compileOffers.js';
import { customer, history, offer, tx } from '../fixtures.js';

/** An offer scoped to `scope` instead of one merchant. */
function scoped(scope: unknown, over: Record<string, unknown> = {}): Record<string, unknown> {
  const { merchant_name: _, ...rest } = offer(over);
  return { ...rest, scope };
}

/** A transaction at a merchant with this name, id and category code. */
function at(name: string, id = 'm1', code = '5812', over: Record<string, unknown> = {}) {
  return tx({ merchant: { id, name, category_code: code }, ...over });
}

/** What each transaction is paid (`offer id: cashback`) or its error code, in input order. */
function outcomes(
  offers: Record<string, unknown>[],
  transactions: Record<string, unknown>[],
  h: Record<string, unknown>[] = [],
): string[] {
  const r = replay({ offers, customers: [customer()], history: h, transactions });
  const paid = new Map(r.payments.map((p) => [p.transaction_id, `${p.offer_id}: ${p.cashback}`]));
  const failed = new Map(r.errors.map((e) => [e.key, e.code]));
  return transactions.map((t) => {
    const id = String(t.transaction_id);
    return paid.get(id) ?? failed.get(id) ?? 'none';
  });
}

/** The check an offer fails for a transaction, as `explain` names it, with its detail. */
function failed(o: Record<string, unknown>, t: Record<string, unknown>) {
  const e = explain(t, { offers: [o], customer: customer() });
  return e.candidates[0]?.failed;
}

describe('scopes', () => {
  test('a category scope pays at every merchant with one of its codes', () => {
    const groceries = scoped({ mcc: ['5411'] });
    expect(
      outcomes(
        [groceries],
        [
          at('Green Grocer', 'g1', '5411', { transaction_id: 't1' }),
          at('Corner Shop', 'c9', '5411', { transaction_id: 't2' }),
          at('Coffee House', 'm1', '5812', { transaction_id: 't3' }),
        ],
      ),
    ).toEqual(['1: 0.5', '1: 0.5', 'no_offer']);
  });

  test('a merchant list matches normalised names, and merchant_ids the id as sent', () => {
    const chains = scoped({ merchants: ['Bean Box', 'DAILY  grind'], merchant_ids: ['m-7'] });
    expect(
      outcomes(
        [chains],
        [
          at(' daily grind', 'x', '0', { transaction_id: 't1' }),
          at('Somewhere', 'm-7', '0', { transaction_id: 't2' }),
          at('Somewhere', 'M-7', '0', { transaction_id: 't3' }),
        ],
      ),
    ).toEqual(['1: 0.5', '1: 0.5', 'no_offer']);
  });

  test('exclude_merchants wins over a category, and explain names the check scope', () => {
    const fuel = scoped({ mcc: ['5541'], exclude_merchants: ['FastFuel'] });
    expect(outcomes([fuel], [at(' FASTFUEL', 'f1', '5541')])).toEqual(['no_offer']);
    expect(failed(fuel, at('FastFuel', 'f1', '5541'))).toEqual({
      check: 'scope',
      detail: "merchant 'fastfuel' is excluded from the offer's scope",
    });
    const r = replay({
      offers: [fuel],
      customers: [customer()],
      transactions: [at('FastFuel', 'f1', '5541')],
    });
    expect(r.errors[0]?.message).toBe(
      'No cashback offer associated with this transaction: offer 1 failed its scope check',
    );
  });

  test('an offer has exactly one of merchant_name and scope, and a scope lists something', () => {
    const problems = (o: Record<string, unknown>) => {
      try {
        compileOffers([o]);
        return [];
      } catch (e) {
        if (!(e instanceof OfferValidationError)) throw e;
        return e.issues.map((i) => `${i.path}: ${i.message}`);
      }
    };
    expect(problems({ ...scoped({ mcc: ['5411'] }), merchant_name: 'Shop' })).toEqual([
      'scope: cannot be given with merchant_name: an offer has exactly one of them',
    ]);
    expect(problems(scoped({ merchants: [], exclude_merchants: ['A'] }))).toEqual([
      'scope: must list at least one merchant, merchant id or mcc',
    ]);
    expect(problems(scoped({ mcc: [''], merchant_ids: ['  '] }))).toEqual([
      'scope.merchant_ids.0: must not be empty',
      'scope.mcc.0: must not be empty',
    ]);
    expect(problems(scoped({ mcc: ['5411'], merchant: ['A'] }))).toEqual([
      "scope.merchant: is not a field of scope; did you mean 'merchants'?",
    ]);
  });

  test('candidates come from the indexes, each offer once, by offer_id', () => {
    const set = compileOfferSet([
      offer({ offer_id: 4 }),
      scoped({ merchants: ['Coffee House'], mcc: ['5812'] }, { offer_id: 2 }),
      scoped({ merchant_ids: ['m1'] }, { offer_id: 3 }),
      scoped({ mcc: ['9999'] }, { offer_id: 1 }),
    ]);
    expect(set.byCategory.get('5812')?.map((o) => o.offerId)).toEqual([2]);
    expect(candidatesOf(set, 'coffee house', 'm1', '5812')?.map((o) => o.offerId)).toEqual([
      2, 3, 4,
    ]);
    expect(candidatesOf(set, 'elsewhere', 'x', '9999')?.map((o) => o.offerId)).toEqual([1]);
    expect(candidatesOf(set, 'elsewhere', 'x', '0')).toBeUndefined();
  });
});

describe('selection across merchant-bound and scoped offers', () => {
  test('the highest as paid wins, ties to the lowest offer_id', () => {
    const bound = offer({ offer_id: 2, discount: 5 });
    const wide = scoped({ mcc: ['5812'] }, { offer_id: 3, discount: 8 });
    expect(outcomes([bound, wide], [at('Coffee House')])).toEqual(['3: 0.8']);
    const tie = scoped({ mcc: ['5812'] }, { offer_id: 1, discount: 5 });
    expect(outcomes([bound, tie], [at('Coffee House')])).toEqual(['1: 0.5']);
  });

  test('a scoped budget is one budget across its merchants', () => {
    const wide = scoped({ mcc: ['5411'] }, { discount: 10, budget: { amount: 15 } });
    expect(
      outcomes(
        [wide],
        [
          at('A', 'a', '5411', { transaction_id: 't1', amount: 100 }),
          at('B', 'b', '5411', { transaction_id: 't2', amount: 100 }),
          at('C', 'c', '5411', { transaction_id: 't3', amount: 100 }),
        ],
      ),
    ).toEqual(['1: 10', '1: 5', 'no_offer']);
  });
});

describe('channels', () => {
  const online = offer({ channels: ['online'] });

  test('an offer with channels pays only transactions on one of them', () => {
    expect(
      outcomes(
        [online],
        [
          tx({ transaction_id: 't1', channel: 'online' }),
          tx({ transaction_id: 't2', channel: 'in_store' }),
          tx({ transaction_id: 't3' }),
        ],
      ),
    ).toEqual(['1: 0.5', 'no_offer', 'no_offer']);
    expect(outcomes([offer()], [tx({ channel: 'in_store' })])).toEqual(['1: 0.5']);
  });

  test('the check channel comes right after scope, before valid_dates', () => {
    expect(failed(online, tx())).toEqual({
      check: 'channel',
      detail: 'the transaction has no channel; the offer requires online',
    });
    expect(failed(online, tx({ channel: 'in_store' }))?.detail).toBe(
      "channel 'in_store' is not in online",
    );
    expect(failed({ ...online, valid_to: '2025-01-31' }, tx())?.check).toBe('channel');
    const elsewhere = scoped(
      { mcc: ['1'], exclude_merchants: ['Coffee House'] },
      { channels: ['online'] },
    );
    expect(failed(elsewhere, at('Coffee House', 'm1', '1'))?.check).toBe('scope');
  });

  test('any other channel is an invalid transaction, and channels an offer error', () => {
    const r = replay({
      offers: [offer()],
      customers: [customer()],
      transactions: [tx({ channel: 'phone' })],
    });
    expect(r.errors[0]).toMatchObject({
      code: 'invalid_transaction',
      message: "Invalid transaction: channel must be one of 'online', 'in_store'",
    });
    expect(() => compileOffers([offer({ channels: [] })])).toThrow(
      'offer 1: channels must not be empty',
    );
    expect(() => compileOffers([offer({ channels: ['web'] })])).toThrow(
      "offer 1: channels.0 must be one of 'online', 'in_store'",
    );
  });
});

describe('history over a scope', () => {
  const returning = scoped({ mcc: ['5411'] }, { audience: 'returning' });

  test('audience counts purchases at any merchant of the scope, and only those', () => {
    const earlier = (name: string, code?: string) =>
      history({
        merchant: { name, id: 'x', ...(code === undefined ? {} : { category_code: code }) },
      });
    const now = at('Corner Shop', 'c', '5411');
    expect(outcomes([returning], [now], [earlier('Green Grocer', '5411')])).toEqual(['1: 0.5']);
    expect(outcomes([returning], [now], [earlier('Coffee House', '5812')])).toEqual(['no_offer']);
    // A stored purchase without category_code is never in an mcc scope.
    expect(outcomes([returning], [now], [earlier('Green Grocer')])).toEqual(['no_offer']);
    const e = explain(now, { offers: [returning], customer: customer(), history: [] });
    expect(e.candidates[0]?.failed?.detail).toBe(
      'the offer is for returning customers; no earlier purchase in its scope in the 365 days before',
    );
  });

  test('earlier transactions of the replay count as they are stored, in scope only', () => {
    const r = outcomes(
      [returning],
      [
        at('Green Grocer', 'g', '5411', { transaction_id: 't1' }),
        at('Coffee House', 'm1', '5812', { transaction_id: 't2', date: '2025-06-03T09:00:00' }),
        at('Corner Shop', 'c', '5411', { transaction_id: 't3', date: '2025-06-04T09:00:00' }),
      ],
    );
    expect(r).toEqual(['no_offer', 'no_offer', '1: 0.5']);
  });

  test('history facts of a scoped offer count its scope', () => {
    const loyal = scoped(
      { merchants: ['Green Grocer', 'Corner Shop'] },
      {
        conditions: {
          fact: 'history.merchant_purchases',
          operator: 'greaterThanInclusive',
          value: 2,
        },
      },
    );
    const h = [
      history({ transaction_id: 'h1', merchant: { name: 'Green Grocer' } }),
      history({ transaction_id: 'h2', merchant: { name: 'corner shop' } }),
      history({ transaction_id: 'h3', merchant: { name: 'Coffee House' } }),
    ];
    expect(outcomes([loyal], [at('Green Grocer')], h)).toEqual(['1: 0.5']);
    expect(outcomes([loyal], [at('Green Grocer')], h.slice(1))).toEqual(['no_offer']);
  });
});
