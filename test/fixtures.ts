/** Small builders for example tests: each returns a valid item, overridable field by field. */

export function offer(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    offer_id: 1,
    name: 'Coffee 5%',
    merchant_name: 'Coffee House',
    merchant_logo: 'https://example.com/coffee.png',
    warranty: 14,
    age: [],
    gender: [],
    category_name: 'Food',
    discount: 5,
    valid_from: '2025-01-01',
    valid_to: '2025-12-31',
    ...over,
  };
}

export function customer(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    customer_id: 'c1',
    birthday: '1990-05-15',
    gender: 'F',
    location: { country: 'FR', city: 'Paris' },
    ...over,
  };
}

export function tx(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    transaction_id: 't1',
    description: 'coffee',
    customer_id: 'c1',
    date: '2025-06-02T09:15:00.000',
    amount: 10,
    merchant: { id: 'm1', name: 'Coffee House', category_code: '5812' },
    location: { country: 'FR', city: 'Paris' },
    ...over,
  };
}

export function history(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    transaction_id: 'h1',
    customer_id: 'c1',
    date: '2025-05-01T12:00:00.000',
    amount: 20,
    merchant: { name: 'Coffee House' },
    ...over,
  };
}
