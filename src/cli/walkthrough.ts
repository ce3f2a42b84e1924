/** First line of the printed walk-through. */
const WALKTHROUGH_START = '# ---- walk-through: paste into bash (needs curl and node) ----';

/** Last line of the printed walk-through. */
const WALKTHROUGH_END = '# ---- end of walk-through ----';

/** What the walk-through is written for. */
export interface WalkthroughOptions {
  /** The server's base address, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  /** The partner's application id. */
  readonly applicationId: string;
  /** The partner's application key (the demo partner's: it is made for this run). */
  readonly applicationKey: string;
  /** Token lifetime in seconds, for the comment on step 1. */
  readonly tokenTtl: number;
}

/** A word of bash in single quotes. */
const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * Merchant ids and category codes (MCC) of the walk-through's merchants: offers at one merchant
 * match its name, Green Market is in the groceries offer's category (5411).
 */
const MERCHANTS: Readonly<Record<string, { readonly id: string; readonly mcc: string }>> = {
  'Coffee House': { id: 'm-94', mcc: '5814' },
  FastFuel: { id: 'm-31', mcc: '5541' },
  'Green Grocer': { id: 'm-52', mcc: '5999' },
  'Green Market': { id: 'm-77', mcc: '5411' },
  'Trail Outfitters': { id: 'm-12', mcc: '5941' },
  'Maison Home': { id: 'm-45', mcc: '5712' },
};

/** A receiver that prints every delivery's id and body (port 9000 on 127.0.0.1). */
const RECEIVER =
  'require("http").createServer((q,s)=>{let b="";q.on("data",c=>b+=c).on("end",()=>{console.log(q.headers["webhook-id"],b);s.end()})}).listen(9000,"127.0.0.1")';

/** A new webhook secret: `whsec_` and the base64 of 24 random bytes. */
const NEW_SECRET = '"whsec_"+require("crypto").randomBytes(24).toString("base64")';

/** A partners file of the walk-through's partner with a webhook to {@link RECEIVER}. */
const PARTNERS_FILE =
  '"[{\\"application_id\\":\\"$APP_ID\\",\\"application_key\\":\\"$APP_KEY\\",\\"webhook_url\\":\\"http://127.0.0.1:9000/\\",\\"webhook_secret\\":\\"$SECRET\\"}]"';

const place = (city: string) => `"location":{"country":"FR","city":"${city}"}`;

/** A transaction of the walk-through, as one line of JSON; `channel` when it has one. */
function transaction(
  id: string,
  customer: string,
  date: string,
  amount: string,
  merchant: string,
  city: string,
  channel?: 'online' | 'in_store',
): string {
  const { id: merchantId, mcc } = MERCHANTS[merchant] ?? { id: 'm-1', mcc: '5999' };
  const paid = channel === undefined ? '' : `,"channel":"${channel}"`;
  return `{"transaction_id":"${id}","description":"card purchase","customer_id":"${customer}","date":"${date}","amount":${amount},"merchant":{"id":"${merchantId}","name":"${merchant}","category_code":"${mcc}"},${place(city)}${paid}}`;
}

/**
 * A copy-paste bash walk-through of every endpoint for one partner: get a token into `$TOKEN`,
 * register customers, upload history, submit transactions (under the sample offers of
 * docs/examples/offers.json, five earn cashback: a discount at one merchant, a returning
 * customer's, a grocer's by category, a fixed reward online and tiers at a merchant list; one
 * earns nothing), list payments (query string, headers, the status filter), report returns, list
 * clawbacks, show a payment's history, list active offers. Each `curl` prints the JSON answer on
 * its own line. It tells what happens with the server's clock of today: the sample data is dated
 * 2025, so every payment is confirmed, and the return dated before its payment day arrives once
 * that day has begun: it is clawed back (a return that arrives in time lowers the payment, which
 * the walk-through says but cannot show); the other return comes on its payment day and leaves
 * the cashback standing.
 * @param options - base address, credentials, token lifetime
 * @returns the walk-through, from {@link WALKTHROUGH_START} to {@link WALKTHROUGH_END}, ending in a newline
 */
export function walkthrough(options: WalkthroughOptions): string {
  const json = "-H 'content-type: application/json'";
  const post = (path: string) =>
    `curl -sS -w '\\n' -X POST "$BASE${path}" -H "Token: $TOKEN" ${json}`;
  const readToken =
    'const b=JSON.parse(require("fs").readFileSync(0,"utf8"));if(!b.Token){console.error(JSON.stringify(b));process.exit(1)}console.log(b.Token)';
  return `${[
    WALKTHROUGH_START,
    `BASE=${quote(options.url)}`,
    `APP_ID=${quote(options.applicationId)}`,
    `APP_KEY=${quote(options.applicationKey)}`,
    '',
    `# 1. Get a token (valid ${options.tokenTtl} s) into $TOKEN; node picks "Token" out of the answer.`,
    'TOKEN=$(curl -sS "$BASE/get-token" -H "applicationId: $APP_ID" -H "applicationKey: $APP_KEY" \\',
    `  | node -e '${readToken}')`,
    'echo "TOKEN=$TOKEN"',
    '',
    '# 2. Register two customers (again later: they are updated, not added twice).',
    `${post('/customers/')} -d '[`,
    `  {"customer_id":"c-001","birthday":"1995-04-12","gender":"F",${place('Paris')}},`,
    `  {"customer_id":"c-002","birthday":"1980-11-30","gender":"M",${place('Lyon')}}]'`,
    '',
    "# 3. Upload purchase history: c-002 bought fuel in May, so FastFuel's offer for returning",
    '#    customers pays c-002 in step 4.',
    `${post('/transactions-history')} -d '[`,
    `  ${transaction('h-001', 'c-002', '2025-05-20T18:00:00.000', '45.10', 'FastFuel', 'Lyon')}]'`,
    '',
    '# 4. Submit transactions. Under the sample offers (docs/examples/offers.json) five earn',
    '#    cashback ("payments"): t-001 a discount at Coffee House, t-002 a returning customer\'s at',
    '#    FastFuel, t-004 3% at any grocer (its category code, MCC 5411), t-005 a fixed 10 for',
    '#    spending 75 online, t-006 tiers at the home stores (1% up to 20, 5% up to 100, 10% above:',
    '#    0.20 + 4.00 + 5.00). t-003 earns nothing, and "errors" says why.',
    `${post('/transactions')} -d '[`,
    `  ${transaction('t-001', 'c-001', '2025-06-02T09:15:00.000', '4.20', 'Coffee House', 'Paris')},`,
    `  ${transaction('t-002', 'c-002', '2025-06-10T18:30:00.000', '52.80', 'FastFuel', 'Lyon')},`,
    `  ${transaction('t-003', 'c-001', '2025-06-11T10:00:00.000', '30.00', 'Green Grocer', 'Paris')},`,
    `  ${transaction('t-004', 'c-001', '2025-06-12T17:40:00.000', '42.00', 'Green Market', 'Paris')},`,
    `  ${transaction('t-005', 'c-002', '2025-06-13T21:05:00.000', '89.90', 'Trail Outfitters', 'Lyon', 'online')},`,
    `  ${transaction('t-006', 'c-001', '2025-06-14T11:20:00.000', '150.00', 'Maison Home', 'Paris')}]'`,
    '',
    '# 5. List the payments whose payment day is in a range, inputs in the query string ...',
    `curl -sS -w '\\n' "$BASE/cashback-payments?date_from=2025-06-01&date_to=2025-12-31&current_page=1&page_size=10" -H "Token: $TOKEN"`,
    '#    ... or the same inputs as headers. Each payment has a status by the server clock: the',
    '#    sample data is from 2025, so every payment day has begun and all are "confirmed"',
    '#    (final: the bank pays them; within a minute the server writes their cashback.confirmed).',
    `curl -sS -w '\\n' "$BASE/cashback-payments" -H "Token: $TOKEN" -H 'date_from: 2025-06-01' -H 'date_to: 2025-12-31' -H 'current_page: 1' -H 'page_size: 10'`,
    '#    status=pending lists those whose payment day is still ahead: none here.',
    `curl -sS -w '\\n' "$BASE/cashback-payments?date_from=2025-06-01&date_to=2025-12-31&status=pending" -H "Token: $TOKEN"`,
    '',
    '# 6. Report returns. Half of t-001 came back on 2025-06-05, before its payment day',
    '#    (2025-06-16), but the return arrives now, once that payment is confirmed: the payment',
    '#    stays 0.34, and the bank claws back from c-001 what the return would have taken, 0.17',
    '#    (the 2.10 kept earns 0.17 of the 0.34): "clawbacks". A return that arrives before the',
    '#    payment day lowers the payment instead ("adjustments"). t-002 came back on its payment',
    '#    day (2025-06-10): its cashback stands ("errors").',
    `${post('/returns')} -d '[`,
    '  {"return_id":"r-001","transaction_id":"t-001","date":"2025-06-05T17:00:00.000","amount":2.10},',
    '  {"return_id":"r-002","transaction_id":"t-002","date":"2025-06-10T19:00:00.000"}]\'',
    '',
    '# 7. List the clawbacks whose return day is in a range (paged as payments are).',
    `curl -sS -w '\\n' "$BASE/clawbacks?date_from=2025-06-01&date_to=2025-06-30" -H "Token: $TOKEN"`,
    '',
    "# 8. A payment's history: as decided (cashback, offer, revision), then each adjustment and",
    '#    clawback in order.',
    `curl -sS -w '\\n' "$BASE/payments/t-001/history" -H "Token: $TOKEN"`,
    '',
    '# 9. Offers active today: the sample offers run to 2035. Offers 8 and 10 have a "scope" (a',
    '#    category, a list of merchants) instead of a "merchant_name", offers 9 and 10 a "reward".',
    `curl -sS -w '\\n' "$BASE/active-offers" -H "Token: $TOKEN"`,
    '',
    '# 10. Webhooks (docs/webhooks.md). The demo partner has none. To watch deliveries, run a',
    '#    receiver that prints what it gets, write a partners file whose webhook_url points at it,',
    '#    stop this server (Ctrl-C) and start it again with that file (http on 127.0.0.1 needs',
    '#    --allow-local-webhooks). The receiver prints one offer.updated per offer loaded; steps 1',
    '#    to 4 pasted again make it print a cashback.created with the event_id of step 4, then',
    '#    within a minute a cashback.confirmed of its five payments; step 6 a cashback.clawed_back:',
    `#      node -e ${quote(RECEIVER)} &`,
    `#      SECRET=$(node -p ${quote(NEW_SECRET)})`,
    `#      echo ${PARTNERS_FILE} > partners.json`,
    '#      npm start -- --memory --partners partners.json --allow-local-webhooks',
    '',
    '# The whole API, as OpenAPI 3.1: curl -sS "$BASE/openapi.json"',
    WALKTHROUGH_END,
  ].join('\n')}\n`;
}
