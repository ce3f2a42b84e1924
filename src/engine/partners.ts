/**
 * One partner (a bank): its application id, and where its webhooks go. The application id is the
 * tenant key of everything the partner stores.
 * @public
 */
export interface PartnerSettings {
  /** Application id: the partner's tenant key and the `sub` of its tokens. */
  readonly application_id: string;
  /**
   * The application key's hash (`hashApplicationKey` in `cashback-engine/http`); a partner
   * without one cannot obtain tokens from the HTTP API.
   */
  readonly application_key_hash?: string;
  /** Where webhook events are delivered; without it the partner gets no `offer.updated` events. */
  readonly webhook_url?: string;
  /** Secret that signs the partner's webhook deliveries. */
  readonly webhook_secret?: string;
}

/**
 * Where the engine finds partners and their webhook settings. The engine itself accepts any
 * application id as a tenant key; it asks the registry only which partners have webhooks.
 * @public
 */
export interface PartnerRegistry {
  /** Every partner, in a stable order. */
  list(): Promise<readonly PartnerSettings[]>;
  /** The partner with this application id, if registered. */
  get(applicationId: string): Promise<PartnerSettings | undefined>;
}

/**
 * A partner registry held in memory, from a fixed list.
 * @param partners - the partners; application ids must be distinct non-empty strings
 * @returns the registry
 * @throws TypeError when an application id is empty or given twice
 * @example
 * ```ts
 * const partners = createMemoryPartners([
 *   { application_id: 'bank-a', webhook_url: 'https://bank-a.example/hooks', webhook_secret: 'whsec_…' },
 * ]);
 * ```
 * @public
 */
export function createMemoryPartners(partners: readonly PartnerSettings[] = []): PartnerRegistry {
  const byId = new Map<string, PartnerSettings>();
  for (const p of partners) {
    const id = p?.application_id;
    if (typeof id !== 'string' || id.length === 0) {
      throw new TypeError('Every partner needs a non-empty string application_id');
    }
    if (byId.has(id)) throw new TypeError(`Partner '${id}' is given twice`);
    byId.set(id, Object.freeze({ ...p }));
  }
  const list = Object.freeze([...byId.values()]);
  return {
    list: async () => list,
    get: async (id) => byId.get(id),
  };
}
