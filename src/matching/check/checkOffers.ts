import { parseDay } from '../../model/day.js';
import { assertKnownKeys } from '../../model/knownKeys.js';
import { CORE_OPTION_KEYS, type CoreOptions, resolveCoreOptions } from '../../model/options.js';
import { describeValue } from '../../rules/_internals/describe.js';
import { compileOfferSet, OfferValidationError } from '../compileOffers.js';
import type { CompiledOffer } from '../offer.js';
import { activationUnseen } from './activationUnseen.js';
import { alwaysLoses } from './alwaysLoses.js';
import { budgetBelowPayment } from './budgetBelowPayment.js';
import type { CheckContext, CheckedOffer, OfferCheck } from './CheckContext.js';
import { capUnreachable } from './capUnreachable.js';
import { conditionNeverTrue } from './conditionNeverTrue.js';
import { duplicateOfferId } from './duplicateOfferId.js';
import { eligibleBelowMinimum } from './eligibleBelowMinimum.js';
import { expired } from './expired.js';
import { fixedCoversPurchase } from './fixedCoversPurchase.js';
import { inactive } from './inactive.js';
import { invalidOffer } from './invalidOffer.js';
import { merchantNameVariants } from './merchantNameVariants.js';
import type { FindingLevel, OfferFinding } from './OfferFinding.js';
import { overlap } from './overlap.js';
import { scopeUnmatched } from './scopeUnmatched.js';
import { tierUnreachable } from './tierUnreachable.js';
import { zeroFunding } from './zeroFunding.js';
import { zeroMaxCashback } from './zeroMaxCashback.js';

/** Options of {@link checkOffers}: the core options offers load with, and `today`. @public */
export interface CheckOffersOptions extends CoreOptions {
  /**
   * The day, `YYYY-MM-DD`, before which a `valid_to` makes an offer `expired`.
   * @defaultValue none: the `expired` rule does not run
   */
  readonly today?: string;
  /**
   * Transactions (the partner API's shape, as in a transactions file) that each scoped offer's
   * scope is matched against: a scope none of them is in is `scope_unmatched`.
   * @defaultValue none: the `scope_unmatched` rule does not run
   */
  readonly sample?: readonly unknown[];
}

/** What {@link checkOffers} found. @public */
export interface OfferCheckReport {
  /** Every finding: errors first, then warnings, then information, each by offer position. */
  readonly findings: readonly OfferFinding[];
  /** How many findings of each level. */
  readonly counts: Readonly<Record<FindingLevel, number>>;
}

const RULES: readonly OfferCheck[] = [
  invalidOffer,
  duplicateOfferId,
  inactive,
  expired,
  activationUnseen,
  zeroMaxCashback,
  zeroFunding,
  budgetBelowPayment,
  capUnreachable,
  tierUnreachable,
  fixedCoversPurchase,
  eligibleBelowMinimum,
  scopeUnmatched,
  conditionNeverTrue,
  alwaysLoses,
  merchantNameVariants,
  overlap,
];

const LEVELS: readonly FindingLevel[] = ['error', 'warning', 'info'];
const OPTION_KEYS: readonly string[] = [...CORE_OPTION_KEYS, 'today', 'sample'];

function load(raw: unknown, index: number, options: CoreOptions): CheckedOffer {
  try {
    const [compiled] = compileOfferSet([raw], {
      operators: options.operators,
      scale: options.scale,
    }).compiled;
    return { index, raw, compiled, issues: undefined };
  } catch (error) {
    if (!(error instanceof OfferValidationError)) throw error;
    return { index, raw, compiled: undefined, issues: error.issues };
  }
}

/**
 * Valid offers by each merchant key they certainly pay at: a merchant-bound offer's, and each name
 * a scoped offer lists and does not exclude (a merchant id or category code says nothing of the
 * name). Each list by ascending `offer_id`.
 */
function groupByMerchant(loaded: readonly CheckedOffer[]): CheckContext['byMerchant'] {
  const byMerchant = new Map<string, (CheckedOffer & { compiled: CompiledOffer })[]>();
  for (const offer of loaded) {
    const c = offer.compiled;
    if (c === undefined) continue;
    const scope = c.scope;
    const keys =
      scope === undefined
        ? [c.merchantKey as string]
        : [...scope.merchants].filter((k) => !scope.exclude.has(k));
    for (const key of keys) {
      const list = byMerchant.get(key);
      if (list === undefined) byMerchant.set(key, [{ ...offer, compiled: c }]);
      else list.push({ ...offer, compiled: c });
    }
  }
  for (const list of byMerchant.values()) {
    list.sort((a, b) => a.compiled.offerId - b.compiled.offerId);
  }
  return byMerchant;
}

/**
 * Checks an offers file for what it means, not only its syntax: offers that are invalid, that
 * can never pay, that always lose to another, whose budgets and caps cannot act as meant, whose
 * merchant names collide, and which overlap (docs/testing.md, `cashback check`). Pure: nothing is
 * loaded anywhere.
 * @param offers - offers in their JSON shape, as in an offers file
 * @param options - the core options offers would load with (`operators`, `scale`, …) and `today`
 * @returns every finding, and how many of each level
 * @throws TypeError when `offers` is not an array or `options` has a key it does not know;
 *   RangeError for a `today` that is not a date `YYYY-MM-DD`, or a bad core option
 * @example
 * ```ts
 * const { findings, counts } = checkOffers(offers, { today: '2025-06-01' });
 * if (counts.error > 0) console.log(findings[0]?.message);
 * ```
 * @public
 */
export function checkOffers(
  offers: readonly unknown[],
  options: CheckOffersOptions = {},
): OfferCheckReport {
  assertKnownKeys(options, OPTION_KEYS, 'checkOffers options');
  if (!Array.isArray(offers)) {
    throw new TypeError(`offers must be an array, got ${describeValue(offers)}`);
  }
  const resolved = resolveCoreOptions(options);
  const today = options.today === undefined ? undefined : parseDay(options.today);
  if (options.today !== undefined && today === undefined) {
    throw new RangeError(`today must be a date YYYY-MM-DD, got ${describeValue(options.today)}`);
  }
  if (options.sample !== undefined && !Array.isArray(options.sample)) {
    throw new TypeError(`sample must be an array, got ${describeValue(options.sample)}`);
  }
  const loaded = offers.map((raw, index) => load(raw, index, resolved));
  const ctx: CheckContext = {
    offers: loaded,
    byMerchant: groupByMerchant(loaded),
    options: resolved,
    today,
    sample: options.sample,
  };
  const findings = RULES.flatMap((rule) => rule(ctx)).sort(
    (a, b) =>
      LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) ||
      (a.offers[0]?.index ?? 0) - (b.offers[0]?.index ?? 0),
  );
  const counts = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.level] += 1;
  return { findings, counts };
}
