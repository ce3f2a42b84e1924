import type { ReturnErrorCode } from '../../model/errors.js';
import { ExactMoney } from '../../model/money.js';
import type { ReturnOutcome } from '../returns/ReturnOutcome.js';
import type { ReturnsSummary } from '../SummaryBuilder.js';

type Decimal = InstanceType<typeof ExactMoney>;

/** Counts a replay's return outcomes, the cashback their adjustments take back and the clawbacks. */
export class ReturnTotals {
  private returns = 0;
  private adjusted = 0;
  private taken: Decimal = new ExactMoney(0);
  private clawbacks = 0;
  private clawedBack: Decimal = new ExactMoney(0);
  private readonly errors: Record<ReturnErrorCode, number> = {
    invalid_return: 0,
    duplicate_return: 0,
    transaction_not_found: 0,
    return_exceeds_amount: 0,
    not_paid: 0,
    after_warranty: 0,
    late_return: 0,
  };

  /** @param scale - decimals of cashback */
  constructor(private readonly scale: number) {}

  /** Counts one outcome. */
  add(o: ReturnOutcome): void {
    this.returns++;
    if (!o.ok) {
      this.errors[o.error.code]++;
      return;
    }
    if (o.kind === 'clawback') {
      this.clawbacks++;
      this.clawedBack = this.clawedBack.plus(o.amount);
      return;
    }
    this.adjusted++;
    this.taken = this.taken.plus(o.previous).minus(o.cashback);
  }

  /**
   * The summary so far.
   * @param totalCashback - cashback as decided
   * @returns the counts and the cashback net of adjustments
   */
  build(totalCashback: string): ReturnsSummary {
    return {
      returns: this.returns,
      adjusted: this.adjusted,
      errors: { ...this.errors },
      adjustedCashback: this.taken.toFixed(this.scale),
      netCashback: new ExactMoney(totalCashback).minus(this.taken).toFixed(this.scale),
      clawbacks: this.clawbacks,
      clawedBack: this.clawedBack.toFixed(this.scale),
    };
  }
}
