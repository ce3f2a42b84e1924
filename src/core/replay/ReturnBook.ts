import { cashbackDecimal } from '../../matching/cashback.js';
import type { CompiledOfferSet } from '../../matching/compileOffers.js';
import type { CompiledOffer } from '../../matching/offer.js';
import type { WallClock } from '../../model/dateTime.js';
import { type ExactAmount, ExactMoney } from '../../model/money.js';
import type { ResolvedOptions } from '../../model/options.js';
import type { ParsedReturn } from '../../model/parseReturn.js';
import type { ParsedTransaction, ParseResult } from '../../model/parseTransaction.js';
import type { FundingLedger } from '../FundingLedger.js';
import type { Outcome } from '../outcome.js';
import { decideReturns } from '../returns/decideReturns.js';
import type { ReturnDecision } from '../returns/ReturnOutcome.js';
import type { ReturnableTransaction, ReturnState } from '../returns/ReturnState.js';

/** A stored transaction as returns read it: only what `decideReturns` needs. */
interface Kept {
  readonly customerId: string;
  readonly when: WallClock;
  readonly amount: ExactAmount;
  returned: string;
  payment:
    | {
        readonly offer: CompiledOffer;
        cashback: string;
        readonly paymentDate: string;
        clawedBack: string;
        /** The cashback it was decided with. */
        readonly decided: string;
        /** Whether a return found it confirmed: it then stays so (docs/replay.md, Late returns). */
        confirmed: boolean;
      }
    | undefined;
}

/**
 * What a replay keeps for returns (docs/replay.md, Returns): per stored transaction its customer,
 * date-time, amount, returned sum and payment, and the stored return ids. Returns are decided by
 * `decideReturns`, the engine's own decision, against this state.
 */
export class ReturnBook {
  private readonly kept = new Map<string, Kept>();
  private readonly returnIds = new Set<string>();
  private readonly byOffer: ReadonlyMap<number, CompiledOffer>;
  private readonly state: ReturnState;

  /**
   * @param offers - the compiled offers, to find the one that paid each payment
   * @param options - the resolved options
   * @param counters - the replay's budgets and caps, given back what returns take
   */
  constructor(
    offers: CompiledOfferSet,
    options: ResolvedOptions,
    private readonly counters?: FundingLedger,
  ) {
    this.byOffer = new Map(offers.compiled.map((o) => [o.offerId, o]));
    this.state = {
      options,
      hasReturn: (id) => this.returnIds.has(id),
      transaction: (id) => this.returnable(id),
    };
  }

  /** How many transactions are kept. */
  get size(): number {
    return this.kept.size;
  }

  /**
   * Keeps stored transactions and the payments among their outcomes.
   * @param accepted - the transactions stored, in order
   * @param outcomes - outcomes of the same chunk (payments name their transaction)
   */
  store(accepted: readonly ParsedTransaction[], outcomes: readonly Outcome[] = []): void {
    for (const tx of accepted) {
      const { customerId, when, amount } = tx;
      this.kept.set(tx.transactionId, {
        customerId,
        when,
        amount,
        returned: '0',
        payment: undefined,
      });
    }
    const scale = this.state.options.scale;
    for (const o of outcomes) {
      if (!o.ok) continue;
      const k = this.kept.get(o.payment.transaction_id);
      const offer = this.byOffer.get(o.payment.offer_id);
      if (k === undefined || offer === undefined) continue;
      const cashback = cashbackDecimal(o.cashback, scale).toFixed();
      k.payment = {
        offer,
        cashback,
        paymentDate: o.payment.payment_date,
        clawedBack: '0',
        decided: cashback,
        confirmed: false,
      };
    }
  }

  /**
   * Decides a chunk of parsed returns and records what they store and change.
   * @param items - the returns, parsed
   * @returns the decision: one outcome per return, in order, and the returns stored
   */
  decide(items: readonly ParseResult<ParsedReturn>[]): ReturnDecision {
    const d = decideReturns(items, this.state);
    for (const r of d.accepted) {
      this.returnIds.add(r.returnId);
      const k = this.kept.get(r.transactionId) as Kept;
      k.returned = new ExactMoney(k.returned).plus(r.amount).toFixed();
    }
    d.outcomes.forEach((o, i) => {
      const item = items[i];
      const late = o.ok ? o.kind === 'clawback' : o.error.code === 'late_return';
      if (!late || item?.ok !== true) return;
      const payment = this.kept.get(item.value.transactionId)?.payment;
      if (payment === undefined) return;
      // A replay's returns are decided in their given order, which may not be their arrival's: a
      // payment a return found paid out stays so for the returns decided after it.
      payment.confirmed = true;
      // No budget or cap gets anything back: the money was paid out (docs/concepts.md).
      if (o.ok && o.kind === 'clawback') {
        payment.clawedBack = new ExactMoney(payment.clawedBack).plus(o.amount).toFixed();
      }
    });
    for (const c of d.changes) {
      const k = this.kept.get(c.transactionId);
      const payment = k?.payment;
      if (k === undefined || payment === undefined) continue;
      payment.cashback = c.cashback;
      if (payment.offer.funded) {
        this.counters?.giveBack(payment.offer, k.customerId, k.when.day, c.previous, c.cashback);
      }
    }
    return d;
  }

  /** The cashback a kept transaction's payment was decided with, if it has one. */
  decided(transactionId: string): string | undefined {
    return this.kept.get(transactionId)?.payment?.decided;
  }

  private returnable(transactionId: string): ReturnableTransaction | undefined {
    const k = this.kept.get(transactionId);
    if (k === undefined) return undefined;
    return {
      transactionId,
      customerId: k.customerId,
      when: k.when,
      amount: k.amount,
      returned: k.returned,
      // In a replay every offer is revision 1 (docs/replay.md, Returns).
      payment: k.payment === undefined ? undefined : { ...k.payment, offerRevision: 1 },
    };
  }
}
