export {
  type CheckOffersOptions,
  checkOffers,
  type OfferCheckReport,
} from './checkOffers.js';
export type {
  OfferCheckRule,
  OfferFinding,
} from './OfferFinding.js';
