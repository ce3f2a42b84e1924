import {
  type CustomerFacts,
  compileCondition,
  type FactContext,
  type HistoryFacts,
  type TransactionFacts,
} from '../../src/rules/index.js';

/** Overrides for one fact context, fact by fact. */
export interface ContextOverrides {
  readonly transaction?: Partial<TransactionFacts>;
  readonly customer?: Partial<CustomerFacts>;
  readonly history?: Partial<HistoryFacts>;
}

/** A coffee purchase in Paris by a 34-year-old from Lyon, with two earlier purchases. */
export function context(overrides: ContextOverrides = {}): FactContext {
  return {
    transaction: {
      transaction_id: 't-1',
      customer_id: 'c-1',
      description: 'Flat white',
      date: '2025-03-14T08:30:00.000',
      day: '2025-03-14',
      amount: 100,
      weekday: 5,
      hour: 8,
      merchant: { id: 'm-1', name: 'Coffee House', category_code: '5411' },
      location: { country: 'FR', city: 'Paris' },
      ...overrides.transaction,
    },
    customer: {
      customer_id: 'c-1',
      birthday: '1990-06-01',
      gender: 'female',
      age: 34,
      location: { country: 'FR', city: 'Lyon' },
      ...overrides.customer,
    },
    history: {
      merchant_purchases: 2,
      merchant_spend: 45.5,
      days_since_last_merchant_purchase: 3,
      ...overrides.history,
    },
  };
}

/** Whether `condition` holds for the context built from `overrides`. */
export function holds(condition: unknown, overrides: ContextOverrides = {}): boolean {
  return compileCondition(condition).evaluate(context(overrides));
}

/** A fact context whose `history` throws when read. */
export function contextWithoutHistory(): FactContext {
  const { transaction, customer } = context();
  return {
    transaction,
    customer,
    get history(): HistoryFacts {
      throw new Error('history was read');
    },
  };
}

/** Every leaf fact of the schema, dotted, with its type. */
export const LEAF_FACTS = [
  ['transaction.transaction_id', 'string'],
  ['transaction.customer_id', 'string'],
  ['transaction.description', 'string'],
  ['transaction.date', 'string'],
  ['transaction.day', 'string'],
  ['transaction.amount', 'number'],
  ['transaction.weekday', 'number'],
  ['transaction.hour', 'number'],
  ['transaction.merchant.id', 'string'],
  ['transaction.merchant.name', 'string'],
  ['transaction.merchant.category_code', 'string'],
  ['transaction.location.country', 'string'],
  ['transaction.location.city', 'string'],
  ['customer.customer_id', 'string'],
  ['customer.birthday', 'string'],
  ['customer.gender', 'string'],
  ['customer.age', 'number'],
  ['customer.location.country', 'string'],
  ['customer.location.city', 'string'],
  ['history.merchant_purchases', 'number'],
  ['history.merchant_spend', 'number'],
  ['history.days_since_last_merchant_purchase', 'number?'],
] as const;
