/**
 * The default retry schedule, in milliseconds: the delay before each attempt, the first at once,
 * then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h: about 28 h of waiting, 32 h with a slow
 * receiver and jitter (docs/webhooks.md).
 * @public
 */
export const DEFAULT_WEBHOOK_SCHEDULE: readonly number[] = Object.freeze([
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
]);

/** How far a delay is moved by jitter, either way: ±10 %. */
const JITTER = 0.1;

/** The longest `Retry-After` honoured: a day. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * The delay before attempt `next` (from 2) with jitter, or undefined after the last attempt.
 * @param schedule - the delays
 * @param next - the attempt to come
 * @param random - a number in [0, 1)
 */
export function delayBefore(
  schedule: readonly number[],
  next: number,
  random: () => number,
): number | undefined {
  const base = schedule[next - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/**
 * A `Retry-After` header in milliseconds from `now`: seconds, or an HTTP date; undefined when
 * absent or unreadable. At most a day.
 */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = at - now;
  }
  return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}

/**
 * Checks a schedule: at least one delay, each a whole number of milliseconds ≥ 0.
 * @throws TypeError naming the bad entry
 */
export function checkSchedule(schedule: unknown): readonly number[] {
  if (!Array.isArray(schedule) || schedule.length === 0) {
    throw new TypeError('schedule must be a non-empty array of delays in milliseconds');
  }
  for (const [i, d] of schedule.entries()) {
    if (!Number.isSafeInteger(d) || (d as number) < 0) {
      throw new TypeError(
        `schedule[${i}] must be a whole number of milliseconds ≥ 0, got ${String(d)}`,
      );
    }
  }
  return Object.freeze([...(schedule as number[])]);
}
