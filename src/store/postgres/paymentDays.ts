// How many payments above 0 each partner has per payment day (docs/postgres.md, Listings): what
// a listing's `total` sums. The statements that store and cancel payments move the counts in a
// data-modifying `WITH`, so a unit reads its own counts and keeps or undoes them with its payments.

/**
 * Adds to the payment-day counts the rows of `changes`, a subquery of `(payment_date, n)` for
 * partner `$1` (`n` payments above 0 more, or fewer when negative), in day order: units that move
 * the same days lock their rows in one order, and hold them until they commit.
 * @param changes - the subquery of days and counts
 * @returns the statement, for a `WITH`
 */
export function countPaymentDays(changes: string): string {
  return `INSERT INTO cashback_payment_days AS d (partner, payment_date, count)
    SELECT $1, c.payment_date, c.n FROM (${changes}) AS c WHERE c.n <> 0 ORDER BY c.payment_date
    ON CONFLICT (partner, payment_date) DO UPDATE SET count = d.count + EXCLUDED.count`;
}
