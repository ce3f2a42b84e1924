import type {
  CustomerInput,
  HistoryTransactionInput,
  OfferInput,
  TransactionInput,
} from '../../model/schemas.js';
import type {
  CustomerJson,
  HistoryTransactionJson,
  OfferJson,
  TransactionJson,
} from '../shapes.js';

type Assignable<T extends U, U> = [T, U];

/**
 * Compile-time proof that every shape of `shapes.ts` is accepted by the zod input type of record:
 * a schema change that rejects one fails the typecheck here.
 */
export type ShapeChecks = [
  Assignable<OfferJson, OfferInput>,
  Assignable<CustomerJson, CustomerInput>,
  Assignable<TransactionJson, TransactionInput>,
  Assignable<HistoryTransactionJson, HistoryTransactionInput>,
];
