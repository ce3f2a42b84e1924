import type { CashbackEngine } from '../engine/createEngine.js';
import type { ConfirmDueResult } from '../engine/results.js';
import { assertKnownKeys } from '../model/knownKeys.js';

/**
 * How a service confirms due payments (docs/http.md, "The service's lifecycle"): it calls
 * `engine.confirmDue()` once it listens, then again `intervalMs` after each call has ended.
 * @public
 */
export interface ConfirmDueOptions {
  /**
   * Milliseconds from the end of one `confirmDue()` call to the start of the next, a whole number
   * from 1 to 2147483647; `false`: the service never calls it (call `engine.confirmDue()`
   * yourself, or leave confirming to another instance on the same store).
   * @defaultValue `60_000`
   */
  readonly intervalMs?: number | false;
  /**
   * Called after a call that confirmed payments (one that found none calls nothing).
   * @defaultValue none
   */
  readonly onConfirmed?: (result: ConfirmDueResult) => void;
  /**
   * Called when a call fails (the store unreachable, say); the service keeps running and the
   * next call comes `intervalMs` later.
   * @defaultValue a line on stderr
   */
  readonly onError?: (error: unknown) => void;
}

/** {@link ConfirmDueOptions} checked, with defaults. */
export interface ResolvedConfirmDue {
  readonly intervalMs: number | false;
  readonly onConfirmed: ((result: ConfirmDueResult) => void) | undefined;
  readonly onError: (error: unknown) => void;
}

/** `confirmDue()`'s interval when none is given: `cashback serve` confirms at least once a minute. */
const DEFAULT_INTERVAL_MS = 60_000;

/** The longest delay Node's timers take; a longer one fires at once. */
const MAX_INTERVAL_MS = 2_147_483_647;

/** What a failed call writes when no `onError` is given. */
function errorLine(intervalMs: number): (error: unknown) => void {
  return (error) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`confirmDue failed: ${message}; trying again in ${intervalMs} ms\n`);
  };
}

/**
 * Checks the `confirmDue` option of `startService`.
 * @param options - the option as given
 * @returns the checked option with defaults
 * @throws TypeError naming the bad key or value
 */
export function resolveConfirmDue(options: ConfirmDueOptions | undefined): ResolvedConfirmDue {
  const name = 'startService options: confirmDue';
  const given: unknown = options === undefined ? {} : options;
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    throw new TypeError(`${name} must be an object`);
  }
  const checked = given as ConfirmDueOptions;
  assertKnownKeys(checked, ['intervalMs', 'onConfirmed', 'onError'], `${name} options`);
  const intervalMs = checked.intervalMs ?? DEFAULT_INTERVAL_MS;
  if (
    intervalMs !== false &&
    !(Number.isInteger(intervalMs) && intervalMs >= 1 && intervalMs <= MAX_INTERVAL_MS)
  ) {
    throw new TypeError(
      `${name}.intervalMs must be a whole number of milliseconds from 1 to ${MAX_INTERVAL_MS}, or false, got ${String(intervalMs)}`,
    );
  }
  for (const key of ['onConfirmed', 'onError'] as const) {
    if (checked[key] !== undefined && typeof checked[key] !== 'function') {
      throw new TypeError(`${name}.${key} must be a function`);
    }
  }
  return {
    intervalMs,
    onConfirmed: checked.onConfirmed,
    onError: checked.onError ?? errorLine(intervalMs === false ? DEFAULT_INTERVAL_MS : intervalMs),
  };
}

/** A running confirmation timer. */
export interface ConfirmTimer {
  /**
   * Stops it: no call starts from now on (the timer is cleared at once), and the promise resolves
   * once the call in flight, if any, has ended.
   */
  stop(): Promise<void>;
}

/**
 * Starts calling `engine.confirmDue()`: once now, then `intervalMs` after each call has ended, so
 * that calls never overlap. A call that fails goes to `onError` and the timer goes on; nothing it
 * does rejects or throws out of the timer, so a store that is down never ends the process. The
 * timer does not keep the process alive on its own.
 * @param engine - the engine whose due payments are confirmed
 * @param options - the checked options; with `intervalMs` false nothing is started
 * @returns the timer
 */
export function startConfirmTimer(
  engine: Pick<CashbackEngine, 'confirmDue'>,
  options: ResolvedConfirmDue,
): ConfirmTimer {
  const { intervalMs, onConfirmed, onError } = options;
  if (intervalMs === false) return { stop: () => Promise.resolve() };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;

  // A callback that throws is reported as a failure; one that throws again is written to stderr.
  const report = (error: unknown) => {
    try {
      onError(error);
    } catch (again) {
      process.stderr.write(`confirmDue: onError threw: ${String(again)}\n`);
    }
  };
  const confirm = async () => {
    let result: ConfirmDueResult;
    try {
      result = await engine.confirmDue();
    } catch (error) {
      report(error);
      return;
    }
    try {
      if (result.payments > 0) onConfirmed?.(result);
    } catch (error) {
      report(error);
    }
  };
  const tick = () => {
    timer = undefined;
    inFlight = confirm().finally(() => {
      inFlight = undefined;
      if (stopped) return;
      timer = setTimeout(tick, intervalMs);
      timer.unref();
    });
  };
  tick();
  return {
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      return inFlight ?? Promise.resolve();
    },
  };
}
