import { describe, expect, test } from 'vitest';
import {
  compileOfferSet,
  compileOffers,
  OfferValidationError,
} from '../../src/matching/compileOffers.js';
import { offer } from '../fixtures.js';

function issues(offers: unknown[]) {
  try {
    compileOffers(offers);
  } catch (e) {
    if (e instanceof OfferValidationError)
      return e.issues.map((i) => `${i.offer} ${i.path}: ${i.message}`);
    throw e;
  }
  return [];
}

describe('compileOffers', () => {
  test('indexes offers by merchant key, each list by offer_id', () => {
    const set = compileOfferSet([
      offer({ offer_id: 3 }),
      offer({ offer_id: 1, merchant_name: ' COFFEE   house' }),
      offer({ offer_id: 2, merchant_name: 'Bakery' }),
    ]);
    expect(set.compiled.map((o) => o.offerId)).toEqual([1, 2, 3]);
    expect(set.byMerchant.get('coffee house')?.map((o) => o.offerId)).toEqual([1, 3]);
    expect(set.historyKeys.size).toBe(0);
  });

  test('shows the offers as loaded, by offer_id: the same objects the compiled offers hold', () => {
    const set = compileOfferSet([offer({ offer_id: 2 }), offer({ offer_id: 1, active: false })]);
    expect(set.offers.map((o) => [o.offer_id, o.active])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(set.offers).toEqual(set.compiled.map((o) => o.offer));
    expect(set.offers[0]).toBe(set.compiled[0]?.offer);
  });

  test('knows which merchants need history, and the longest lookback', () => {
    const set = compileOfferSet([
      offer({ offer_id: 1, audience: 'returning', lookback_days: 30 }),
      offer({
        offer_id: 2,
        merchant_name: 'Bakery',
        conditions: { fact: 'history.merchant_purchases', operator: 'greaterThan', value: 0 },
      }),
      offer({ offer_id: 3, merchant_name: 'Florist' }),
    ]);
    expect([...set.historyKeys].sort()).toEqual(['bakery', 'coffee house']);
    expect(set.maxLookbackDays).toBe(365);
  });

  test('fills in active: true and keeps the offer as loaded', () => {
    const set = compileOfferSet([offer()]);
    expect(set.compiled[0]?.offer).toMatchObject({
      offer_id: 1,
      active: true,
      merchant_name: 'Coffee House',
    });
  });

  test('refuses the whole load and names every offer and field that is wrong', () => {
    expect(
      issues([
        offer({ offer_id: 1, discount: 0 }),
        offer({ offer_id: 2, discount: 100.5, warranty: 1.5 }),
        offer({ offer_id: 3, valid_from: '2025-02-30' }),
        offer({ offer_id: 4, valid_from: '2025-06-02', valid_to: '2025-06-01' }),
        offer({ offer_id: 5, age: ['18-25', 'teen', '40-30'] }),
        offer({ offer_id: 6, merchant_name: '  ' }),
        { name: 'no id' },
      ]),
    ).toEqual([
      '1 discount: must be greater than 0',
      '2 warranty: must be a whole number',
      '2 discount: must be at most 100',
      '3 valid_from: must be a real date YYYY-MM-DD',
      '4 valid_to: must not be before valid_from',
      "5 age.1: 'teen' is not an age label A-B or A+",
      "5 age.2: '40-30' is not an age label A-B or A+",
      '6 merchant_name: must not be empty',
      '#6 offer_id: is required',
      '#6 warranty: is required',
      '#6 valid_from: is required',
      '#6 valid_to: is required',
      '#6 discount: is required (or reward)',
      '#6 merchant_name: is required (or scope)',
    ]);
  });

  test('names the expected type of a field of the wrong type', () => {
    expect(
      issues([offer({ name: 5, discount: true, active: 'yes', age: '18-25', gender: [3] })]),
    ).toEqual([
      '1 name: must be a string',
      '1 age: must be an array',
      '1 gender.0: must be a string',
      '1 discount: must be a number or a string',
      '1 active: must be a boolean',
    ]);
  });

  test('refuses two offers with one offer_id', () => {
    expect(issues([offer(), offer()])).toEqual([
      '1 offer_id: is used by another offer in the same load',
    ]);
  });

  test('refuses a condition that compares the amount with a string, naming offer and path', () => {
    const bad = offer({
      offer_id: 4,
      conditions: {
        all: [
          { fact: 'transaction.hour', operator: 'lessThan', value: 10 },
          { fact: 'transaction.amount', operator: 'lessThan', value: '100' },
        ],
      },
    });
    const found = issues([bad]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^4 conditions\.all\[1\]\.value: /);
    expect(() => compileOffers([bad])).toThrow(/offer 4: conditions\.all\[1\]\.value/);
  });

  test('reports every problem of one offer at once, in the issues and in the message', () => {
    const bad = {
      offer_id: 9,
      name: 5,
      merchant_name: ' ',
      warranty: -1,
      discount: 150,
      valid_from: '2025-05-01',
      valid_to: '2025-01-01',
      age: ['18-25', 'teen'],
      audience: 'everyone',
      conditions: { all: [{ fact: 'transaction.colour', operator: 'equal', value: 'red' }] },
    };
    const expected: [string, string][] = [
      ['name', 'must be a string'],
      ['merchant_name', 'must not be empty'],
      ['warranty', 'must be at least 0'],
      ['discount', 'must be at most 100'],
      ['audience', "must be one of 'all', 'new', 'returning'"],
      ['valid_to', 'must not be before valid_from'],
      ['age.1', "'teen' is not an age label A-B or A+"],
    ];
    const found = issues([bad]);
    expect(found.slice(0, -1)).toEqual(expected.map(([path, why]) => `9 ${path}: ${why}`));
    expect(found.at(-1)).toMatch(/^9 conditions\.all\[0\]\.fact: /);
    let message = '';
    try {
      compileOffers([bad]);
    } catch (e) {
      message = (e as Error).message;
    }
    const listed = expected.map(([path, why]) => `${path} ${why}`).join('; ');
    expect(message.startsWith(`Invalid offers: offer 9: ${listed}; conditions.all[0].fact`)).toBe(
      true,
    );
  });

  test('names every problem of the first five offers in the message, and counts the others', () => {
    const bad = Array.from({ length: 7 }, (_, i) =>
      offer({ offer_id: i + 1, warranty: -1, discount: 0 }),
    );
    expect(() => compileOffers(bad)).toThrow(
      'Invalid offers: offer 1: warranty must be at least 0; discount must be greater than 0 | offer 2: ',
    );
    expect(() => compileOffers(bad)).toThrow(
      /\| offer 5: [^|]+ \(and 2 more offer\(s\) with problems\)$/,
    );
  });

  test('refuses something that is not an array with a TypeError', () => {
    expect(() => compileOffers({} as unknown as unknown[])).toThrow(
      new TypeError('offers must be an array, got an object'),
    );
    expect(() => compileOffers('x' as unknown as unknown[])).toThrow(
      new TypeError('offers must be an array, got the string "x"'),
    );
  });

  test('rejects an unknown option, naming the nearest known one', () => {
    expect(() => compileOffers([offer()], { operator: undefined } as never)).toThrow(
      new TypeError(
        "compileOffers options: unknown option 'operator'; did you mean 'operators'? (known: operators, scale)",
      ),
    );
  });
});

describe('compileOffers and unknown fields', () => {
  test('refuses a misspelt field, naming the nearest known one, with every other problem', () => {
    expect(issues([offer({ offer_id: 1, max_cashbak: 1, discount: 0 } as never)])).toEqual([
      '1 discount: must be greater than 0',
      "1 max_cashbak: is not an offer field; did you mean 'max_cashback'? (put data of your own in metadata)",
    ]);
  });

  test('refuses unknown fields of budget and customer_cap, and a cap with neither amount nor count', () => {
    expect(
      issues([
        offer({ offer_id: 1, budget: { amount: 10, perid: 'day' } } as never),
        offer({ offer_id: 2, customer_cap: { period: 'day' } } as never),
      ]),
    ).toEqual([
      "1 budget.perid: is not a field of budget; did you mean 'period'?",
      '2 customer_cap: must have an amount, a count or both',
    ]);
  });

  test('keeps metadata as loaded and never reads it', () => {
    const metadata = { campaign: 'spring', tags: ['a', 1, null, { deep: true }] };
    const set = compileOfferSet([offer({ metadata })]);
    expect(set.compiled[0]?.offer.metadata).toEqual(metadata);
  });

  test('refuses metadata that is not an object of JSON values', () => {
    expect(
      issues([
        offer({ offer_id: 1, metadata: ['a'] } as never),
        offer({ offer_id: 2, metadata: { n: Number.NaN } }),
        offer({ offer_id: 3, metadata: { d: new Date(0) } }),
      ]),
    ).toEqual([
      '1 metadata: must be an object',
      '2 metadata: must hold JSON values only (strings, finite numbers, booleans, null, lists, objects)',
      '3 metadata: must hold JSON values only (strings, finite numbers, booleans, null, lists, objects)',
    ]);
  });
});

describe('compileOffers and the caller’s JSON', () => {
  test('reports a frozen copy: mutating the input later changes nothing', () => {
    const input = offer({
      age: ['18-25'],
      conditions: { fact: 'transaction.hour', operator: 'lessThan', value: 10 },
    });
    const set = compileOfferSet([input]);
    (input.age as string[]).push('65+');
    (input.conditions as { value: number }).value = 99;
    expect(set.compiled[0]?.offer.age).toEqual(['18-25']);
    expect(set.compiled[0]?.offer.conditions).toEqual({
      fact: 'transaction.hour',
      operator: 'lessThan',
      value: 10,
    });
    expect(Object.isFrozen(set.compiled[0]?.offer)).toBe(true);
  });
});
