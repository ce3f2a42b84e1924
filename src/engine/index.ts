export { type CashbackEngine, createEngine, type EngineOptions } from './createEngine.js';
export { createMemoryPartners, type PartnerRegistry, type PartnerSettings } from './partners.js';
export {
  type AddActivationsResult,
  type AddHistoryResult,
  type AddReturnsResult,
  type AddTransactionsResult,
  type CashbackPaymentRecord,
  type ClawbacksPage,
  type ClawbacksQuery,
  type ConfirmDueResult,
  type ErrorMap,
  InvalidRequestError,
  type OfferRevisionInfo,
  type PaymentHistory,
  type PaymentHistoryEntry,
  type PaymentsPage,
  type PaymentsQuery,
  type SeedOffer,
  type SeedPayment,
  type SeedReward,
  type UpsertCustomersResult,
  type UpsertOffersResult,
} from './results.js';
