export type { Cashback } from './cashback.js';
export * from './check/index.js';
export {
  type CompileOffersOptions,
  compileOffers,
  type OfferIssue,
  type OfferSet,
  OfferValidationError,
} from './compileOffers.js';
export type { CandidateExplanation, FundingExplanation } from './explainOffer.js';
export type { Spent, SpentLookup } from './funding.js';
export { type FundingPeriodDays, fundingPeriod } from './fundingPeriod.js';
export type { Purchase } from './history.js';
export type { EligibilityCheck } from './match.js';
export type { FundingPeriod } from './offer.js';
