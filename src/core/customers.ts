import {
  duplicateCustomer as _duplicateCustomer,
  issuesMessage as _issuesMessage,
  type CustomerErrorCode,
  type ItemError,
} from '../model/errors.js';
import { type ParsedCustomer, parseCustomer } from '../model/parseCustomer.js';
import { requireArray } from './requireInput.js';

/** The result of screening one request's customers. @public */
export interface CustomerBatch {
  /** Valid customers whose id appears once in the request, in input order. */
  readonly accepted: readonly ParsedCustomer[];
  /** Rejected items: one entry per repeated id, one per other invalid item. */
  readonly errors: readonly ItemError<CustomerErrorCode>[];
}

function rawId(item: unknown): string | undefined {
  const raw = (item as { customer_id?: unknown } | null)?.customer_id;
  if (typeof raw !== 'string') return undefined;
  const id = raw.trim();
  return id.length > 0 && id.length <= 128 ? id : undefined;
}

/**
 * Screens one request's customers (`POST /customers`): every copy of an id that appears more
 * than once is rejected with a single `duplicate_customer` entry for that id (docs/concepts.md);
 * other invalid items are rejected with their reason.
 * @param items - customers as sent
 * @returns the customers to upsert and the rejections
 * @throws TypeError when `items` is not an array
 * @public
 */
export function screenCustomers(items: readonly unknown[]): CustomerBatch {
  requireArray(items, 'customers');
  const counts = new Map<string, number>();
  for (const item of items) {
    const id = rawId(item);
    if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const accepted: ParsedCustomer[] = [];
  const errors: ItemError<CustomerErrorCode>[] = [];
  const reported = new Set<string>();
  items.forEach((item, index) => {
    const id = rawId(item);
    if (id !== undefined && (counts.get(id) ?? 0) > 1) {
      if (!reported.has(id)) {
        reported.add(id);
        errors.push({ key: id, code: 'duplicate_customer', message: _duplicateCustomer(id) });
      }
      return;
    }
    const r = parseCustomer(item, index);
    if (r.ok) accepted.push(r.value);
    else
      errors.push({
        key: r.key,
        code: 'invalid_customer',
        message: _issuesMessage('customer', r.issues),
      });
  });
  return { accepted, errors };
}
