import type { Purchase } from '../matching/history.js';

/**
 * Purchase lists by customer, then by merchant key: what `DecideState.purchases` reads, held in
 * memory (by a replay and by `explain`).
 *
 * Two nested maps rather than one map keyed by `customerId + separator + merchantKey`: a lookup
 * then hashes the two strings the transaction already carries (V8 keeps a string's hash in it,
 * and both were just hashed by the customer and offer lookups) instead of building, flattening
 * and hashing a new key string on every call (docs/decisions.md, figures in docs/benchmarks.md).
 */
export class PurchaseLists {
  private readonly byCustomer = new Map<string, Map<string, Purchase[]>>();

  /** The list of a customer at a merchant, if any. */
  get(customerId: string, merchantKey: string): Purchase[] | undefined {
    return this.byCustomer.get(customerId)?.get(merchantKey);
  }

  /** Replaces (or creates) the list of a customer at a merchant. */
  set(customerId: string, merchantKey: string, list: Purchase[]): void {
    let byMerchant = this.byCustomer.get(customerId);
    if (byMerchant === undefined) {
      byMerchant = new Map();
      this.byCustomer.set(customerId, byMerchant);
    }
    byMerchant.set(merchantKey, list);
  }

  /** The list of a customer at a merchant, created empty when absent. */
  listFor(customerId: string, merchantKey: string): Purchase[] {
    const list = this.get(customerId, merchantKey);
    if (list !== undefined) return list;
    const created: Purchase[] = [];
    this.set(customerId, merchantKey, created);
    return created;
  }
}
