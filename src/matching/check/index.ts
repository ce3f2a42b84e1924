export {
  type CheckOffersOptions,
  checkOffers,
  type OfferCheckReport,
} from './checkOffers.js';
export type {
  FindingLevel,
  FindingOffer,
  OfferCheckRule,
  OfferFinding,
} from './OfferFinding.js';
