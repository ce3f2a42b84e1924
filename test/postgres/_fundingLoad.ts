/**
 * The load of the budgets-under-load proof (fundingServe.test.ts): offers with a budget, a
 * per-customer cap and none, the customers of each partner, and batches of transactions that
 * every partner sends at once to every process.
 */
import Decimal from 'decimal.js';

/** The offers; their ids name them in the checks. */
export const BUDGETED = 1;
export const FALLBACK = 2;
export const CAPPED = 3;
export const UNFUNDED = 4;

/** The budget, shared by every partner, and the cap, per partner, customer and ISO week. */
export const BUDGET = '1000.00';
export const CAP = { amount: '20.00', count: 4 } as const;

const offer = (id: number, merchant: string, discount: number, extra: object) => ({
  offer_id: id,
  name: `${merchant} ${discount}%`,
  merchant_name: merchant,
  warranty: 0,
  discount,
  valid_from: '2025-01-01',
  valid_to: '2025-12-31',
  ...extra,
});

/**
 * 10% at Budget Mart until its budget runs out, then 2% (selection compares the amounts as
 * paid); 10% at Capped Cafe within the cap; 5% at Free Shop.
 */
export const OFFERS = [
  offer(BUDGETED, 'Budget Mart', 10, { budget: { amount: Number(BUDGET) } }),
  offer(FALLBACK, 'Budget Mart', 2, {}),
  offer(CAPPED, 'Capped Cafe', 10, {
    customer_cap: { amount: Number(CAP.amount), count: CAP.count, period: 'week' },
  }),
  offer(UNFUNDED, 'Free Shop', 5, {}),
];

/** Customers of each partner (the same ids in both: caps are per partner). */
const SHOPPERS = 40;
/** The few customers whose Capped Cafe purchases race for their caps. */
const RACERS = 4;

const location = { country: 'FR', city: 'Paris' };
const customer = (id: string) => ({
  customer_id: id,
  birthday: '1990-05-17',
  gender: 'F',
  location,
});

/** Every partner's customers. */
export const CUSTOMERS = [
  ...Array.from({ length: SHOPPERS }, (_, i) => customer(`c-${i}`)),
  ...Array.from({ length: RACERS }, (_, i) => customer(`r-${i}`)),
];

/** A transaction as sent. */
export interface SentTransaction {
  readonly transaction_id: string;
  readonly customer_id: string;
  readonly date: string;
  readonly amount: string;
  readonly merchant: { readonly id: string; readonly name: string; readonly category_code: string };
  readonly [field: string]: unknown;
}

/** A deterministic source of numbers (mulberry32). */
function numbers(seed: number): (below: number) => number {
  let a = seed >>> 0;
  return (below) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % below) as number;
  };
}

const money = (cents: number) => new Decimal(cents).div(100).toFixed(2);
const two = (n: number) => String(n).padStart(2, '0');

/**
 * One partner's batches: half at Budget Mart (5.00 to 25.00, to customers `c-*`), a fifth at
 * Capped Cafe (to the racers: `r-0` and `r-1` small, so the count binds first, `r-2` and `r-3`
 * large, so the amount does), the rest at Free Shop; dated 2025-07-07 to 2025-07-16, two ISO weeks.
 * @param partner - the partner, which starts every transaction id
 * @param batches - how many batches
 * @param size - transactions per batch
 * @param seed - the seed of the amounts, customers and dates
 * @returns the batches
 */
export function partnerBatches(
  partner: string,
  batches: number,
  size: number,
  seed: number,
): SentTransaction[][] {
  const n = numbers(seed);
  return Array.from({ length: batches }, (_, b) =>
    Array.from({ length: size }, (_, i): SentTransaction => {
      const kind = n(10);
      const [name, customerId, cents] =
        kind < 5
          ? ['Budget Mart', `c-${n(SHOPPERS)}`, 500 + n(2001)]
          : kind < 7
            ? ((r: number) => ['Capped Cafe', `r-${r}`, r < 2 ? 500 + n(1001) : 6000 + n(6001)])(
                n(RACERS),
              )
            : ['Free Shop', `c-${n(SHOPPERS)}`, 100 + n(9901)];
      return {
        transaction_id: `${partner}-${b}-${i}`,
        description: '',
        customer_id: customerId as string,
        date: `2025-07-${two(7 + n(10))}T${two(n(24))}:${two(n(60))}:${two(n(60))}`,
        amount: money(cents as number),
        merchant: { id: 'm-1', name: name as string, category_code: '5411' },
        location,
      };
    }),
  );
}

/**
 * Warms every process up (connections of its pool, compiled code) with `clients` batches at
 * once of a customer nobody registered: decided and answered, but nothing is stored.
 * @param urls - the processes
 * @param token - a partner's token
 * @param clients - batches at once per process
 */
export async function warmUp(urls: readonly string[], token: string, clients: number) {
  const [batch] = partnerBatches('warm-up', 1, 100, 1);
  const body = JSON.stringify(batch?.map((t) => ({ ...t, customer_id: 'nobody' })));
  await Promise.all(
    urls.flatMap((url) =>
      Array.from({ length: clients }, async () => {
        const r = await fetch(`${url}/transactions`, {
          method: 'POST',
          headers: { Token: token, 'content-type': 'application/json' },
          body,
        });
        if (r.status !== 200) throw new Error(`warm-up answered ${r.status}: ${await r.text()}`);
      }),
    ),
  );
}

/** One answered batch. */
export interface Answered {
  readonly partner: string;
  readonly batch: number;
  readonly items: number;
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the answer's JSON, checked by the test
  readonly body: any;
  /** When it was sent and answered, ms since the load began. */
  readonly sentAt: number;
  readonly answeredAt: number;
}

/**
 * Sends every partner's batches at once: `clients` requests in flight per partner, batch `b`
 * to process `b mod urls.length`, each batch once.
 * @param urls - the processes
 * @param load - per partner, its token and batches
 * @param clients - requests in flight per partner
 * @returns every answer, in the order answered
 */
export async function sendLoad(
  urls: readonly string[],
  load: readonly { partner: string; token: string; batches: readonly SentTransaction[][] }[],
  clients: number,
): Promise<Answered[]> {
  const answered: Answered[] = [];
  const began = performance.now();
  const client = async (p: (typeof load)[number], next: { b: number }) => {
    for (let b = next.b++; b < p.batches.length; b = next.b++) {
      const sentAt = performance.now() - began;
      const r = await fetch(`${urls[b % urls.length]}/transactions`, {
        method: 'POST',
        headers: { Token: p.token, 'content-type': 'application/json' },
        body: JSON.stringify(p.batches[b]),
      });
      const text = await r.text();
      answered.push({
        partner: p.partner,
        batch: b,
        items: p.batches[b]?.length ?? 0,
        status: r.status,
        body: r.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
        sentAt,
        answeredAt: performance.now() - began,
      });
    }
  };
  await Promise.all(
    load.flatMap((p) => {
      const next = { b: 0 };
      return Array.from({ length: clients }, () => client(p, next));
    }),
  );
  return answered;
}
