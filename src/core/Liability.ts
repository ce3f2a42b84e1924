import { type Cashback, cashbackDecimal } from '../matching/cashback.js';
import { isBefore, type WallClock } from '../model/dateTime.js';
import { parseDay } from '../model/day.js';
import { ExactMoney, type MoneyValue } from '../model/money.js';

/** How many payments, or clawbacks, and what they add up to. @public */
export interface LiabilityFigure {
  /** How many. */
  readonly count: number;
  /** What they add up to, an exact decimal string with `scale` places. */
  readonly cashback: string;
}

/**
 * A replay's cashback as of an instant (docs/replay.md, Liability): the program's liability on
 * that day, as a finance team reads it.
 * @public
 */
export interface LiabilitySummary {
  /**
   * The instant, wall-clock in the replay's zone (`YYYY-MM-DDTHH:mm:ss.SSS`): the option `asOf`,
   * else the latest date-time of the input; `null` for an input without one.
   */
  readonly asOf: string | null;
  /** Payments whose payment day has not begun as of `asOf`, with their cashback then. */
  readonly pending: LiabilityFigure;
  /** Payments whose payment day has begun, with their final cashback. */
  readonly confirmed: LiabilityFigure;
  /** Payments that returns brought to 0, with the cashback they were decided with. */
  readonly cancelled: LiabilityFigure;
  /** Clawbacks of late returns, with what they take back. */
  readonly clawedBack: LiabilityFigure;
}

type Decimal = InstanceType<typeof ExactMoney>;

/** What the payments due on one day add up to. */
interface Day {
  /** The day number. */
  readonly day: number;
  count: number;
  /** Their cashback as decided, in units of the scale while they are safe integers. */
  units: number;
  /** The rest of their cashback: what spilled out of `units`, less what adjustments took. */
  cashback: Decimal;
  cancelled: number;
  cancelledCashback: Decimal;
}

/** An instant as the book compares it. */
type Instant = Pick<WallClock, 'seconds' | 'nanos' | 'text' | 'day'>;

/**
 * Gathers a replay's payments, adjustments and clawbacks by payment day, so that its liability
 * as of an instant (pending, confirmed, cancelled, clawed back) is known at any point without
 * keeping a record per payment: memory grows with the days, not the payments. Returns that
 * arrived after an `asOf` given up front are left out; the latest date-time seen stands in for
 * an `asOf` not given.
 */
export class Liability {
  /** By payment day, as the payments give it: one lookup per payment, no parse. */
  private readonly days = new Map<string, Day>();
  private clawbacks = 0;
  private clawedBack: Decimal = new ExactMoney(0);
  private latest: Instant | undefined;

  /**
   * @param scale - decimal places of cashback
   * @param asOf - the instant, when the replay was given one
   */
  constructor(
    private readonly scale: number,
    private readonly asOf: WallClock | undefined,
  ) {}

  /** Notes a date-time of the input (a transaction's, a return's arrival). */
  saw(when: Instant): void {
    const l = this.latest;
    if (l === undefined || isBefore(l.seconds, l.nanos, when as WallClock)) this.latest = when;
  }

  /** Counts a payment as decided. */
  paid(paymentDate: string, cashback: Cashback): void {
    const day = this.day(paymentDate);
    day.count++;
    const units = day.units + cashback.units;
    if (Number.isSafeInteger(units)) day.units = units;
    else day.cashback = day.cashback.plus(cashbackDecimal(cashback, this.scale));
  }

  /**
   * Counts an adjustment that arrived at `arrival`: what it took, and a cancellation with the
   * cashback the payment was decided with when it brought it to 0.
   */
  adjusted(
    arrival: WallClock,
    paymentDate: string,
    change: { previous: string; cashback: string; decided: string },
  ): void {
    if (this.after(arrival)) return;
    const day = this.day(paymentDate);
    day.cashback = day.cashback.minus(change.previous).plus(change.cashback);
    if (new ExactMoney(change.cashback).isZero()) {
      day.cancelled++;
      day.cancelledCashback = day.cancelledCashback.plus(change.decided);
    }
  }

  /** Counts a clawback that arrived at `arrival`. */
  clawedBackBy(arrival: WallClock, amount: string): void {
    if (this.after(arrival)) return;
    this.clawbacks++;
    this.clawedBack = this.clawedBack.plus(amount);
  }

  /** The liability as of `asOf`, or of the latest date-time seen. */
  build(): LiabilitySummary {
    const at = this.asOf ?? this.latest;
    const figures = { pending: [0, new ExactMoney(0)], confirmed: [0, new ExactMoney(0)] } as {
      pending: [number, Decimal];
      confirmed: [number, Decimal];
    };
    let cancelled = 0;
    let cancelledCashback: Decimal = new ExactMoney(0);
    const unit = ExactMoney.pow(10, this.scale);
    for (const d of this.days.values()) {
      const f = at === undefined || at.day < d.day ? figures.pending : figures.confirmed;
      f[0] += d.count - d.cancelled;
      f[1] = f[1].plus(d.cashback).plus(new ExactMoney(d.units).div(unit));
      cancelled += d.cancelled;
      cancelledCashback = cancelledCashback.plus(d.cancelledCashback);
    }
    const figure = (count: number, sum: MoneyValue): LiabilityFigure => ({
      count,
      cashback: sum.toFixed(this.scale),
    });
    return {
      asOf: at?.text ?? null,
      pending: figure(...figures.pending),
      confirmed: figure(...figures.confirmed),
      cancelled: figure(cancelled, cancelledCashback),
      clawedBack: figure(this.clawbacks, this.clawedBack),
    };
  }

  /** Whether a return arrived after the `asOf` given up front. */
  private after(arrival: WallClock): boolean {
    const at = this.asOf;
    return at !== undefined && isBefore(at.seconds, at.nanos, arrival);
  }

  private day(paymentDate: string): Day {
    let d = this.days.get(paymentDate);
    if (d === undefined) {
      d = {
        day: parseDay(paymentDate) ?? Number.NaN,
        count: 0,
        units: 0,
        cashback: new ExactMoney(0),
        cancelled: 0,
        cancelledCashback: new ExactMoney(0),
      };
      this.days.set(paymentDate, d);
    }
    return d;
  }
}
