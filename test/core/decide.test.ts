import { describe, expect, test } from 'vitest';
import { type DecideState, decide } from '../../src/core/decide.js';
import { compileOffers } from '../../src/matching/compileOffers.js';
import { resolveOptions } from '../../src/model/options.js';
import { parseCustomer } from '../../src/model/parseCustomer.js';
import { parseTransaction } from '../../src/model/parseTransaction.js';
import { TransactionIdSet } from '../../src/model/TransactionIdSet.js';
import { customer, offer, tx } from '../fixtures.js';

const c1 = parseCustomer(customer(), 0);
const batch = [
  tx({ transaction_id: 'a' }),
  tx({ transaction_id: 'a' }),
  tx({ transaction_id: 'b', customer_id: 'nobody' }),
  tx({ transaction_id: 'b' }),
  tx({ transaction_id: 'stored' }),
  tx({ transaction_id: 'c', amount: -1 }),
].map((t, i) => parseTransaction(t, i, 'UTC'));

function state(stored: { has(id: string): boolean } = new Set(['stored'])): DecideState {
  return {
    offers: compileOffers([offer()]),
    options: resolveOptions(),
    customer: (id) => (c1.ok && id === c1.value.customerId ? c1.value : undefined),
    hasTransaction: (id) => stored.has(id),
    purchases: () => undefined,
  };
}

const codes = (d: ReturnType<typeof decide>) =>
  d.outcomes.map((o) => (o.ok ? 'paid' : o.error.code));

describe('decide', () => {
  test('claims ids in array order: a later copy is a duplicate, a copy after an unknown customer is not', () => {
    const d = decide(batch, state());
    expect(codes(d)).toEqual([
      'paid',
      'duplicate_transaction',
      'customer_not_found',
      'paid',
      'duplicate_transaction',
      'invalid_transaction',
    ]);
    expect(d.accepted.map((t) => t.transactionId)).toEqual(['a', 'b']);
  });

  test('decides the same over a TransactionIdSet, and changes none of its inputs', () => {
    const ids = new TransactionIdSet(['stored']);
    const d = decide(batch, state(ids));
    expect(codes(d)).toEqual(codes(decide(batch, state())));
    expect([...ids]).toEqual(['stored']);
    expect(codes(decide(batch, state(ids)))).toEqual(codes(d));
  });
});

describe('decide and its offers', () => {
  test('takes a set from compileOffers, and refuses a look-alike with a TypeError', () => {
    const set = compileOffers([offer()]);
    const lookAlike = {
      offers: set.offers,
      historyKeys: set.historyKeys,
      maxLookbackDays: set.maxLookbackDays,
      historyKeysOf: set.historyKeysOf,
    };
    expect(() => decide(batch, { ...state(), offers: lookAlike })).toThrow(
      new TypeError('state.offers must be an OfferSet from compileOffers, got an object'),
    );
  });
});

describe('decide when a custom operator throws', () => {
  test('throws and leaves the stored ids as they were', async () => {
    const { createOperatorRegistry, defineOperator } = await import('../../src/rules/index.js');
    const boom = defineOperator({
      name: 'boom',
      evaluate: () => {
        throw new Error('boom');
      },
    });
    const offers = compileOffers(
      [offer({ conditions: { fact: 'transaction.hour', operator: 'boom', value: 1 } })],
      { operators: createOperatorRegistry([boom]) },
    );
    const ids = new TransactionIdSet(['stored']);
    const items = [
      tx({ transaction_id: 'ok', merchant: { id: '', name: 'Elsewhere', category_code: '' } }),
      tx(),
    ].map((t, i) => parseTransaction(t, i, 'UTC'));
    expect(() => decide(items, { ...state(ids), offers })).toThrow('boom');
    expect([...ids]).toEqual(['stored']);
  });
});
