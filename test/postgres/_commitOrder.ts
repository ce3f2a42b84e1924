/**
 * The order in which units of work that stored transactions committed, on a PostgreSQL server
 * (docs/postgres.md, Budgets under load).
 *
 * A deferred constraint trigger on `cashback_transactions` draws a number from a sequence for
 * every stored row. Deferred, it runs at COMMIT, after every statement of the unit and while the
 * unit still holds every row lock it took: the budget's and caps' counters (`funding.hold`), the
 * customers (`transactions.insert`). Two units that share a lock therefore draw in the order they
 * took it, which is the order they committed; units that share none are independent and either
 * order gives the same decisions. A unit that paid nothing still stored its transactions, so it
 * is numbered too. A unit that rolled back (a batch decided again) keeps no number.
 */
import pg from 'pg';

/** Installs the trigger and its table in the database at `url` (after the migrations). */
export async function recordCommitOrder(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`
      CREATE SEQUENCE commit_order_seq;
      CREATE TABLE commit_order (
        partner text NOT NULL,
        transaction_id text NOT NULL,
        xid bigint NOT NULL,
        seq bigint NOT NULL
      );
      CREATE FUNCTION commit_order_note() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO commit_order VALUES
          (NEW.partner, NEW.transaction_id, txid_current(), nextval('commit_order_seq'));
        RETURN NULL;
      END $$;
      CREATE CONSTRAINT TRIGGER commit_order AFTER INSERT ON cashback_transactions
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION commit_order_note();
    `);
  } finally {
    await c.end();
  }
}

/** One committed unit of work: its stored transactions as `[partner, transaction_id]`. */
export interface CommittedUnit {
  readonly rows: readonly (readonly [string, string])[];
}

/**
 * The committed units, in commit order (each by its first number); rows in the order drawn.
 * @param c - a client of the database
 * @returns the units
 */
export async function committedUnits(c: pg.Client): Promise<CommittedUnit[]> {
  const { rows } = await c.query<{ partner: string; transaction_id: string; xid: string }>(
    `SELECT partner, transaction_id, xid FROM commit_order
      ORDER BY min(seq) OVER (PARTITION BY xid), seq`,
  );
  const units: { xid: string; rows: [string, string][] }[] = [];
  for (const r of rows) {
    const last = units.at(-1);
    if (last?.xid === r.xid) last.rows.push([r.partner, r.transaction_id]);
    else units.push({ xid: r.xid, rows: [[r.partner, r.transaction_id]] });
  }
  return units;
}
