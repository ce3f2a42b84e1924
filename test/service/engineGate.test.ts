/**
 * The gate a service (`startService`, `cashback serve`) puts in front of its engine: shutdown closes the store only once the
 * engine calls in flight have ended, and refuses the calls that come after.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/entry.js';
import { gateEngine } from '../../src/service/engineGate.js';
import { StoreUnavailableError } from '../../src/store/entry.js';

const customer = (id: string) => ({
  customer_id: id,
  birthday: '1990-01-01',
  gender: 'F',
  location: { country: 'FR', city: 'Paris' },
});

describe('gateEngine', () => {
  it('resolves close() only after the calls in flight have ended, then refuses new calls with StoreUnavailableError', async () => {
    const gate = gateEngine(createEngine());
    const events: string[] = [];
    const calls = Array.from({ length: 3 }, (_, i) =>
      gate.engine
        .upsertCustomers('bank-a', [customer(`c-${i}`)])
        .then(() => events.push(`call ${i} ended`)),
    );
    expect(gate.inFlight()).toBe(3);
    await gate.close().then(() => events.push('closed'));
    expect(events).toEqual(['call 0 ended', 'call 1 ended', 'call 2 ended', 'closed']);
    expect(gate.inFlight()).toBe(0);
    await Promise.all(calls);
    await expect(gate.engine.upsertCustomers('bank-a', [customer('late')])).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    expect(gate.inFlight()).toBe(0);
  });

  it('counts a call that fails, and passes on what is not a method', async () => {
    const engine = createEngine();
    const gate = gateEngine(engine);
    expect(gate.engine.options).toBe(engine.options);
    expect(gate.engine.store).toBe(engine.store);
    await expect(
      gate.engine.listPayments('bank-a', { date_from: 'nope', date_to: 'nope' }),
    ).rejects.toThrow();
    expect(gate.inFlight()).toBe(0);
    await gate.close();
  });
});
