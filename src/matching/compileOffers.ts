import { parseDay } from '../model/day.js';
import type { FieldIssue } from '../model/errors.js';
import { assertKnownKeys, nearestKey } from '../model/knownKeys.js';
import { type ExactAmount, parseAmount } from '../model/money.js';
import { merchantKey, normaliseGender } from '../model/normalise.js';
import { zodIssues, zodMessage } from '../model/parseCustomer.js';
import {
  BudgetSchema,
  CustomerCapSchema,
  FixedRewardSchema,
  OfferSchema,
  PercentRewardSchema,
  ScopeSchema,
  TierSchema,
  TiersRewardSchema,
} from '../model/schemas.js';
import { wholeNumber } from '../model/wholeNumber.js';
import { describeValue } from '../rules/_internals/describe.js';
import { freezeLiteral } from '../rules/_internals/freezeLiteral.js';
import { ConditionError, compileCondition, type OperatorRegistry } from '../rules/index.js';
import { type AgeBand, parseAgeBand } from './ageBands.js';
import { historyKeysOf, type OfferIndexes } from './candidates.js';
import { compileReward, fixedScaleIssue } from './compileReward.js';
import type { CompiledOffer, FundingLimit, Offer } from './offer.js';
import { compileScope, scopeHistoryKey } from './scope.js';

/** One problem with one offer: the offer (its id, or `#<index>`), the field and the reason. @public */
export interface OfferIssue extends FieldIssue {
  /** `offer_id` of the offer, or `#<index>` when it has no usable id. */
  readonly offer: string;
}

/** Offers named in full in the message of an {@link OfferValidationError}; `issues` has them all. */
const OFFERS_IN_MESSAGE = 5;

/**
 * Every problem of each of the first offers with problems, offer by offer:
 * `offer 1: name must be a string; warranty must be at least 0 | offer #3: …`.
 */
function summarise(issues: readonly OfferIssue[]): string {
  const byOffer = new Map<string, string[]>();
  for (const i of issues) {
    const list = byOffer.get(i.offer) ?? [];
    list.push(i.path === '' ? i.message : `${i.path} ${i.message}`);
    byOffer.set(i.offer, list);
  }
  const shown = [...byOffer].slice(0, OFFERS_IN_MESSAGE);
  const text = shown
    .map(([offer, problems]) => `offer ${offer}: ${problems.join('; ')}`)
    .join(' | ');
  const more = byOffer.size - shown.length;
  return more > 0 ? `${text} (and ${more} more offer(s) with problems)` : text;
}

/**
 * Thrown when offers fail validation; nothing is loaded. Lists every problem found.
 * @public
 */
export class OfferValidationError extends Error {
  /** Every problem, naming the offer and the field. */
  readonly issues: readonly OfferIssue[];
  /** @param issues - the problems */
  constructor(issues: readonly OfferIssue[]) {
    super(`Invalid offers: ${summarise(issues)}`);
    this.name = 'OfferValidationError';
    this.issues = issues;
  }
}

/**
 * Offers compiled for matching, indexed by every key a transaction is found by (merchant key,
 * merchant id, category code): the cost of matching a transaction does not grow with the number
 * of offers (docs/concepts.md, Scopes). What `compileOffers` returns, for `decide`, `replay`,
 * `createReplay` and `explain` to take; what a caller reads of it is below, and its compiled
 * offers are the package's own (docs/decisions.md, Package).
 * @public
 */
export interface OfferSet {
  /** Every offer as loaded (`active` given), by ascending `offer_id`. */
  readonly offers: readonly Offer[];
  /**
   * Merchant keys with at least one merchant-bound offer that reads earlier purchases: keys
   * `DecideState.purchases` is asked for (with those of {@link OfferSet.historyKeysOf}).
   */
  readonly historyKeys: ReadonlySet<string>;
  /** Longest lookback of the offers that read earlier purchases, in days. */
  readonly maxLookbackDays: number;
  /**
   * The keys of the purchase lists (`DecideState.purchases`) a stored purchase at a merchant
   * joins: its merchant key when a merchant-bound offer there reads history, and the
   * `historyKey` of each scoped offer that reads history and holds the merchant
   * (docs/concepts.md, Scopes). A caller of `decide` that keeps purchases keeps each under these.
   * @param merchantKey - the purchase's merchant key (normalised name)
   * @param merchantId - its merchant's id (`''` when a history item had none)
   * @param categoryCode - its category code (`''` when a history item had none)
   * @returns the keys, distinct (empty when no offer reads a purchase there)
   */
  historyKeysOf(merchantKey: string, merchantId: string, categoryCode: string): readonly string[];
}

/**
 * An offer set as matching reads it: the offers compiled, and indexed by every key a transaction
 * is found by.
 */
export interface CompiledOfferSet extends OfferSet, OfferIndexes {
  /** Every offer compiled, by ascending `offer_id`. */
  readonly compiled: readonly CompiledOffer[];
  /**
   * Offers by merchant key: those with that `merchant_name`, and scoped offers that list the name
   * in `scope.merchants`; each list by ascending `offer_id`.
   */
  readonly byMerchant: ReadonlyMap<string, readonly CompiledOffer[]>;
  /** Scoped offers by each id of their `scope.merchant_ids`, each list by ascending `offer_id`. */
  readonly byMerchantId: ReadonlyMap<string, readonly CompiledOffer[]>;
  /** Scoped offers by each code of their `scope.mcc`, each list by ascending `offer_id`. */
  readonly byCategory: ReadonlyMap<string, readonly CompiledOffer[]>;
  /** The scoped offers that read earlier purchases, by ascending `offer_id`. */
  readonly scopedHistory: readonly CompiledOffer[];
}

/**
 * Whether `value` is an offer set `compileOffers` made (an array is not: it is offers to compile).
 * @param value - what a caller passed as an offer set
 * @returns whether it is one, its compiled offers included
 */
export function isCompiledOfferSet(value: unknown): value is CompiledOfferSet {
  const set = value as Partial<CompiledOfferSet> | null;
  return (
    typeof set === 'object' &&
    set !== null &&
    Array.isArray(set.offers) &&
    Array.isArray(set.compiled) &&
    typeof set.byMerchant?.get === 'function' &&
    typeof set.byMerchantId?.get === 'function' &&
    typeof set.byCategory?.get === 'function' &&
    typeof set.historyKeys?.has === 'function' &&
    typeof set.historyKeysOf === 'function' &&
    typeof set.maxLookbackDays === 'number'
  );
}

/**
 * The compiled offers of an offer set a caller passed.
 * @param set - an offer set from `compileOffers`
 * @param what - its name in the error, e.g. `state.offers`
 * @returns the set as matching reads it
 * @throws TypeError when it is not a set `compileOffers` made
 */
export function compiledOfferSet(set: unknown, what: string): CompiledOfferSet {
  if (isCompiledOfferSet(set)) return set;
  throw new TypeError(`${what} must be an OfferSet from compileOffers, got ${describeValue(set)}`);
}

/** Options of {@link compileOffers}. @public */
export interface CompileOffersOptions {
  /** Operators that conditions may use besides the built-in ones. */
  readonly operators?: OperatorRegistry;
  /**
   * Decimal places of cashback: a fixed reward may have at most as many.
   * @defaultValue `2`
   */
  readonly scale?: number;
}

/** The bands of readable labels of an `age` list; the schema reports a list or label of another type. */
function readAgeBands(age: unknown, add: (path: string, message: string) => void): AgeBand[] {
  const bands: AgeBand[] = [];
  if (!Array.isArray(age)) return bands;
  age.forEach((label: unknown, i) => {
    if (typeof label !== 'string') return;
    const band = parseAgeBand(label);
    if (band === undefined) add(`age.${i}`, `'${label}' is not an age label A-B or A+`);
    else bands.push(band);
  });
  return bands;
}

/** The compiled `conditions`, when present and well-formed; their issues otherwise. */
function readCondition(
  conditions: unknown,
  options: CompileOffersOptions,
  add: (path: string, message: string) => void,
): CompiledOffer['condition'] {
  if (conditions === undefined) return undefined;
  try {
    return compileCondition(conditions, { operators: options.operators, path: 'conditions' });
  } catch (e) {
    if (!(e instanceof ConditionError)) throw e;
    for (const i of e.issues) add(i.path, i.message);
    return undefined;
  }
}

/** Every field an offer may have; `metadata` is where an operator's own fields go. */
const OFFER_FIELDS: readonly string[] = Object.keys(OfferSchema.shape);

/** The fields of the objects inside an offer, whose unknown fields are refused too. */
const NESTED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  budget: Object.keys(BudgetSchema.shape),
  customer_cap: Object.keys(CustomerCapSchema.shape),
  scope: Object.keys(ScopeSchema.shape),
};

/** The fields of each reward type; a reward of no known type is read against all of them. */
const REWARD_FIELDS: Readonly<Record<string, readonly string[]>> = {
  percent: Object.keys(PercentRewardSchema.shape),
  fixed: Object.keys(FixedRewardSchema.shape),
  tiers: Object.keys(TiersRewardSchema.shape),
};
const ANY_REWARD_FIELDS = [...new Set(Object.values(REWARD_FIELDS).flat())];
const TIER_FIELDS: readonly string[] = Object.keys(TierSchema.shape);

/** One issue per key of `value` outside `known`, naming the nearest known one. */
function refuseUnknown(
  value: object,
  known: readonly string[],
  path: string,
  what: string,
  add: (path: string, message: string) => void,
): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const hint = nearestKey(key, known);
    add(
      `${path}.${key}`,
      `is not a field of ${what}${hint === undefined ? '' : `; did you mean '${hint}'?`}`,
    );
  }
}

/** The unknown fields of a reward (of its type's fields) and of its tiers. */
function readRewardFields(reward: object, add: (path: string, message: string) => void): void {
  const type = (reward as { type?: unknown }).type;
  const known = typeof type === 'string' ? REWARD_FIELDS[type] : undefined;
  refuseUnknown(
    reward,
    known ?? ANY_REWARD_FIELDS,
    'reward',
    known === undefined ? 'reward' : `a ${String(type)} reward`,
    add,
  );
  const tiers = (reward as { tiers?: unknown }).tiers;
  if (type !== 'tiers' || !Array.isArray(tiers)) return;
  tiers.forEach((tier: unknown, i) => {
    if (typeof tier === 'object' && tier !== null && !Array.isArray(tier)) {
      refuseUnknown(tier, TIER_FIELDS, `reward.tiers.${i}`, 'a tier', add);
    }
  });
}

/**
 * One issue per field the engine does not know, naming the nearest known one: a misspelt
 * `max_cashbak`, or a field of a later version, must not load and pay uncapped
 * (docs/decisions.md, Offers refuse unknown fields). The same for the fields of `budget`,
 * `customer_cap`, `scope`, `reward` (those of its type) and its tiers.
 */
function readUnknownFields(raw: object, add: (path: string, message: string) => void): void {
  for (const [field, value] of Object.entries(raw)) {
    if (!OFFER_FIELDS.includes(field)) {
      const hint = nearestKey(field, OFFER_FIELDS);
      add(
        field,
        `is not an offer field${hint === undefined ? '' : `; did you mean '${hint}'?`} ` +
          '(put data of your own in metadata)',
      );
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    if (field === 'reward') readRewardFields(value, add);
    const nested = NESTED_FIELDS[field];
    if (nested !== undefined) refuseUnknown(value, nested, field, field, add);
  }
}

const COMPILE_OFFERS_OPTION_KEYS: readonly (keyof CompileOffersOptions)[] = ['operators', 'scale'];

/** An amount the schema has already accepted. */
function validAmount(v: string | number | undefined): ExactAmount | undefined {
  return v === undefined ? undefined : (parseAmount(v) as ExactAmount);
}

function compileOne(
  input: unknown,
  key: string,
  issues: OfferIssue[],
  options: CompileOffersOptions,
): CompiledOffer | undefined {
  const before = issues.length;
  const add = (path: string, message: string) => issues.push({ offer: key, path, message });
  const r = OfferSchema.safeParse(input, { error: zodMessage });
  if (!r.success) for (const i of zodIssues(r.error.issues)) add(i.path, i.message);
  // What the schema cannot check runs on the fields as sent, whatever else is wrong with the
  // offer, so that one load reports every problem of it.
  const raw = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  if (!Array.isArray(raw)) readUnknownFields(raw, add);
  const fixedIssue = fixedScaleIssue(raw.reward, options.scale ?? 2);
  if (fixedIssue !== undefined) add('reward.amount', fixedIssue);
  const ageBands = readAgeBands(raw.age, add);
  const condition = readCondition(raw.conditions, options, add);
  if (!r.success || issues.length > before) return undefined;
  const o = r.data;
  const active = o.active ?? true;
  // A frozen deep copy: what the engine reports cannot change when the caller mutates its JSON.
  const offer: Offer = freezeLiteral({ ...o, active });
  const audience = o.audience ?? 'all';
  const lookbackDays = o.lookback_days ?? 365;
  const budget: FundingLimit | undefined =
    o.budget === undefined
      ? undefined
      : {
          amount: validAmount(o.budget.amount),
          count: undefined,
          period: o.budget.period ?? 'offer',
          onExhaust: o.budget.on_exhaust ?? 'partial',
        };
  const cap = o.customer_cap;
  const customerCap: FundingLimit | undefined =
    cap === undefined
      ? undefined
      : {
          amount: validAmount(cap.amount),
          count: cap.count,
          period: cap.period,
          onExhaust: 'partial',
        };
  const mKey = o.merchant_name === undefined ? undefined : merchantKey(o.merchant_name);
  const scope = o.scope === undefined ? undefined : compileScope(o.scope);
  return {
    offer,
    offerId: o.offer_id,
    merchantKey: mKey,
    scope,
    historyKey: scope === undefined ? (mKey as string) : scopeHistoryKey(scope),
    channels: o.channels === undefined ? undefined : [...new Set(o.channels)],
    active,
    validFrom: parseDay(o.valid_from) as number,
    validTo: parseDay(o.valid_to) as number,
    ageBands,
    genders: (o.gender ?? []).map(normaliseGender),
    reward: compileReward(o.discount, o.reward),
    warranty: o.warranty,
    minAmount: validAmount(o.min_amount),
    maxCashback: validAmount(o.max_cashback),
    audience,
    lookbackDays,
    condition,
    requiresActivation: o.requires_activation === true,
    budget,
    customerCap,
    funded: budget !== undefined || customerCap !== undefined,
    needsHistory: audience !== 'all' || condition?.usesHistory === true,
  };
}

/**
 * Validates and compiles offers for matching. All or nothing: if any offer is invalid, or two
 * share an `offer_id`, an {@link OfferValidationError} lists every problem and nothing is loaded.
 * @param offers - offers in their JSON shape, `active` and the extensions included (docs/concepts.md, Offers)
 * @param options - custom operators for conditions
 * @returns the compiled, indexed offer set
 * @throws OfferValidationError when any offer is invalid; TypeError when `offers` is not an array
 *   or `options` has an unknown key
 * @example
 * ```ts
 * const set = compileOffers([{ offer_id: 1, name: 'Coffee', merchant_name: 'Coffee House',
 *   warranty: 14, discount: 5, valid_from: '2025-01-01', valid_to: '2025-12-31' }]);
 * ```
 * @public
 */
export function compileOffers(
  offers: readonly unknown[],
  options: CompileOffersOptions = {},
): OfferSet {
  return compileOfferSet(offers, options);
}

/**
 * `compileOffers` for the package's own modules: the same set, typed as matching reads it.
 * @param offers - offers in their JSON shape
 * @param options - custom operators for conditions
 * @returns the compiled, indexed offer set
 * @throws as `compileOffers`
 */
export function compileOfferSet(
  offers: readonly unknown[],
  options: CompileOffersOptions = {},
): CompiledOfferSet {
  if (!Array.isArray(offers)) {
    throw new TypeError(`offers must be an array, got ${describeValue(offers)}`);
  }
  assertKnownKeys(options, COMPILE_OFFERS_OPTION_KEYS, 'compileOffers options');
  if (options.scale !== undefined) wholeNumber(options.scale, 'scale', { min: 0, max: 10 });
  const issues: OfferIssue[] = [];
  const compiled: CompiledOffer[] = [];
  const seen = new Set<number>();
  offers.forEach((input, index) => {
    const rawId = (input as { offer_id?: unknown } | null)?.offer_id;
    const key =
      typeof rawId === 'number' && Number.isSafeInteger(rawId) && rawId > 0
        ? String(rawId)
        : `#${index}`;
    const c = compileOne(input, key, issues, options);
    if (c === undefined) return;
    if (seen.has(c.offerId))
      issues.push({
        offer: key,
        path: 'offer_id',
        message: 'is used by another offer in the same load',
      });
    seen.add(c.offerId);
    compiled.push(c);
  });
  if (issues.length > 0) throw new OfferValidationError(issues);
  compiled.sort((a, b) => a.offerId - b.offerId);
  return indexOffers(compiled);
}

/** Adds an offer to the list of each of `keys` (its lists stay by ascending id: offers come so). */
function addTo(
  index: Map<string, CompiledOffer[]>,
  keys: Iterable<string>,
  offer: CompiledOffer,
): void {
  for (const key of keys) {
    const list = index.get(key);
    if (list === undefined) index.set(key, [offer]);
    else list.push(offer);
  }
}

/** The indexes of offers sorted by ascending `offer_id`. */
function indexOffers(compiled: readonly CompiledOffer[]): CompiledOfferSet {
  const byMerchant = new Map<string, CompiledOffer[]>();
  const byMerchantId = new Map<string, CompiledOffer[]>();
  const byCategory = new Map<string, CompiledOffer[]>();
  const historyKeys = new Set<string>();
  const scopedHistory: CompiledOffer[] = [];
  let maxLookbackDays = 0;
  for (const c of compiled) {
    const scope = c.scope;
    if (scope === undefined) addTo(byMerchant, [c.merchantKey as string], c);
    else {
      addTo(byMerchant, scope.merchants, c);
      addTo(byMerchantId, scope.merchantIds, c);
      addTo(byCategory, scope.mcc, c);
    }
    if (c.needsHistory) {
      if (scope === undefined) historyKeys.add(c.historyKey);
      else scopedHistory.push(c);
      if (c.lookbackDays > maxLookbackDays) maxLookbackDays = c.lookbackDays;
    }
  }
  const indexes = { byMerchant, byMerchantId, byCategory, historyKeys, scopedHistory };
  return {
    offers: compiled.map((c) => c.offer),
    compiled,
    ...indexes,
    maxLookbackDays,
    historyKeysOf: (key, id, code) => historyKeysOf(indexes, key, id, code),
  };
}
