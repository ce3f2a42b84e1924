import { StorageFullError } from '../errors.js';
import type { OfferRevision } from '../records.js';
import { requirePartner } from '../requirePartner.js';
import { MemoryFunding } from './MemoryFunding.js';
import { PartnerData } from './PartnerData.js';

/** Everything a memory store holds, and the count of records its bound applies to. */
export class MemoryData {
  /** Every revision of every offer, oldest first: the last is the current one. */
  readonly offers = new Map<number, OfferRevision[]>();
  revision = 0;
  readonly partners = new Map<string, PartnerData>();
  readonly eventIds = new Set<string>();
  /** Budgets (shared by every partner) and caps (per partner) spent, per day. */
  readonly funding = new MemoryFunding();
  /**
   * Records held: offer revisions, customers, activations, transactions, payments, their history
   * entries, returns, outbox events and funding counters (one per offer, customer and day).
   */
  records = 0;

  /** @param maxRecords - the bound on `records` */
  constructor(readonly maxRecords: number) {}

  partner(partner: string): PartnerData | undefined {
    return this.partners.get(requirePartner(partner));
  }

  partnerForWrite(partner: string): PartnerData {
    let data = this.partners.get(requirePartner(partner));
    if (data === undefined) {
      data = new PartnerData();
      this.partners.set(partner, data);
    }
    return data;
  }

  /**
   * Whether `atMost` more records surely fit: when they do not, the caller counts exactly how many
   * its write adds and calls `reserve` with that.
   */
  fits(atMost: number): boolean {
    return this.records + atMost <= this.maxRecords;
  }

  /** Throws `StorageFullError` unless `more` records fit under the bound; writes nothing. */
  reserve(more: number): void {
    if (this.fits(more)) return;
    throw new StorageFullError(
      `The memory store is full: it holds ${this.records} of at most ${this.maxRecords} records ` +
        `(maxRecords), and this call would add ${more}; nothing of it was stored`,
    );
  }
}
