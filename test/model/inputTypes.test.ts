/**
 * The input types of src/model/schemas.ts are written out (so that the API names no zod schema);
 * these assertions hold each one equal to its schema's input. They are checked by the compiler
 * (`npm run typecheck`): a schema changed without its type, or the other way round, fails there.
 */
import { describe, expectTypeOf, test } from 'vitest';
import type { z } from 'zod';
import type {
  Channel,
  ChannelSchema,
  CustomerInput,
  CustomerSchema,
  HistoryTransactionInput,
  HistoryTransactionSchema,
  Location,
  LocationSchema,
  Merchant,
  MerchantSchema,
  OfferInput,
  OfferSchema,
  RewardInput,
  RewardSchema,
  ScopeInput,
  ScopeSchema,
  TransactionInput,
  TransactionSchema,
} from '../../src/model/schemas.js';

describe('the input types', () => {
  test('are the inputs of their schemas', () => {
    expectTypeOf<Location>().toEqualTypeOf<z.input<typeof LocationSchema>>();
    expectTypeOf<Merchant>().toEqualTypeOf<z.input<typeof MerchantSchema>>();
    expectTypeOf<CustomerInput>().toEqualTypeOf<z.input<typeof CustomerSchema>>();
    expectTypeOf<TransactionInput>().toEqualTypeOf<z.input<typeof TransactionSchema>>();
    expectTypeOf<HistoryTransactionInput>().toEqualTypeOf<
      z.input<typeof HistoryTransactionSchema>
    >();
    expectTypeOf<OfferInput>().toEqualTypeOf<z.input<typeof OfferSchema>>();
    expectTypeOf<RewardInput>().toEqualTypeOf<z.input<typeof RewardSchema>>();
    expectTypeOf<ScopeInput>().toEqualTypeOf<z.input<typeof ScopeSchema>>();
    expectTypeOf<Channel>().toEqualTypeOf<z.input<typeof ChannelSchema>>();
  });

  test('are what the schemas give back, for the location and the merchant', () => {
    expectTypeOf<Location>().toEqualTypeOf<z.output<typeof LocationSchema>>();
    expectTypeOf<Merchant>().toEqualTypeOf<z.output<typeof MerchantSchema>>();
  });
});
