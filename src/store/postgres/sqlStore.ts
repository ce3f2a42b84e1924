import type { Store, StoreSession } from '../Store.js';
import { deliveries } from './deliveries.js';
import { isRetryable, storeError } from './errors.js';
import { repositories } from './repositories.js';
import type { SqlClient, SqlDriver } from './sql.js';

/** How many times a unit of work (or a call on the store) runs at most after a deadlock. */
const ATTEMPTS = 5;

/** A short, growing, jittered pause before running a unit again after a deadlock. */
const pause = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, attempt * (5 + Math.random() * 20)));

/**
 * One unit of work's connection, guarded: it records the first statement that failed (the
 * PostgreSQL transaction is then aborted), refuses statements after that and after the unit
 * ended, and turns a lost connection into `StoreUnavailableError`.
 */
class UnitConnection implements SqlClient {
  /** The first failure: what the driver threw, and what the session threw for it. */
  failure: { readonly cause: unknown; readonly error: unknown } | undefined;
  ended = false;

  constructor(private readonly client: SqlClient) {}

  private check(): void {
    if (this.ended) {
      throw new Error('This unit of work has ended; its session can no longer be used');
    }
    if (this.failure !== undefined) {
      throw new Error(
        'A statement of this unit of work failed before: the unit keeps nothing and can only end',
        { cause: this.failure.error },
      );
    }
  }

  private async run<T>(call: () => Promise<T>): Promise<T> {
    this.check();
    try {
      return await call();
    } catch (e) {
      const error = storeError(e);
      this.failure = { cause: e, error };
      throw error;
    }
  }

  query(text: string, params?: readonly unknown[]) {
    return this.run(() => this.client.query(text, params));
  }

  exec(script: string) {
    return this.run(() => this.client.exec(script));
  }
}

/** A call on the store itself: one statement, run again after a deadlock, errors described. */
function autocommit(driver: SqlDriver): SqlClient {
  const retrying = async <T>(call: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (e) {
        if (isRetryable(e) && attempt < ATTEMPTS) {
          await pause(attempt);
          continue;
        }
        throw storeError(e);
      }
    }
  };
  return {
    query: (text, params) => retrying(() => driver.query(text, params)),
    exec: (script) => retrying(() => driver.exec(script)),
  };
}

/**
 * A `Store` over a SQL driver whose schema is current: the same SQL for a PostgreSQL server and
 * for PGlite. Units of work are database transactions at READ COMMITTED, run again (at most five
 * times in all) after a deadlock or a serialization failure; a lost connection rejects with
 * `StoreUnavailableError`.
 * @param driver - the database
 * @returns the store
 */
export function sqlStore(driver: SqlDriver): Store {
  const transaction = async <T>(fn: (session: StoreSession) => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      let unit: UnitConnection | undefined;
      let thrownByFn: unknown;
      let fnThrew = false;
      // Set once `fn` resolved with every statement successful: what fails after it is COMMIT.
      let committing = false;
      try {
        return await driver.transaction(async (client) => {
          unit = new UnitConnection(client);
          try {
            let result: T;
            try {
              result = await fn(repositories(unit, true));
            } catch (e) {
              fnThrew = true;
              thrownByFn = e;
              throw e;
            }
            // `fn` caught a failed statement and resolved: PostgreSQL has aborted the
            // transaction, so COMMIT would roll back; reject rather than report it kept.
            if (unit.failure !== undefined) throw unit.failure.error;
            committing = true;
            return result;
          } finally {
            unit.ended = true;
          }
        });
      } catch (e) {
        const cause = unit?.failure?.cause ?? e;
        if (isRetryable(cause) && attempt < ATTEMPTS) {
          await pause(attempt);
          continue;
        }
        // The very error `fn` threw, unwrapped; anything else (BEGIN, COMMIT, a connection that
        // could not be had) described. A connection lost during COMMIT leaves the outcome
        // unknown (the server may have committed before the answer was lost): the message says so.
        throw fnThrew && thrownByFn === e ? e : storeError(e, committing);
      }
    }
  };

  const session = repositories(autocommit(driver), false);
  return {
    ...session,
    // A recount is several statements, and an upsert of offers checks its revisions after its
    // statement; storing and changing payments take the partner's confirmation lock before their
    // statement, and a take may open days before it reads one: on the store itself, a unit of
    // its own keeps each atomic.
    payments: {
      ...session.payments,
      insert: (partner, list) => transaction((s) => s.payments.insert(partner, list)),
      adjust: (partner, list) => transaction((s) => s.payments.adjust(partner, list)),
    },
    confirmations: { take: (query) => transaction((s) => s.confirmations.take(query)) },
    funding: {
      ...session.funding,
      recount: (query) => transaction((s) => s.funding.recount(query)),
    },
    offers: {
      ...session.offers,
      upsert: (revisions) => transaction((s) => s.offers.upsert(revisions)),
    },
    deliveries: deliveries(autocommit(driver)),
    transaction,
    close: () => driver.close(),
  };
}
