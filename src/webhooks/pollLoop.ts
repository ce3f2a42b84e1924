/** The background loop of a dispatcher's `start()` and `stop()`. */
export interface PollLoop {
  /** Starts the loop; does nothing while it runs. */
  start(): void;
  /** Ends it: no new round; resolves once the round in flight has finished. */
  stop(): Promise<void>;
}

/**
 * A loop that runs rounds back to back while they do work, and waits `pollMs` after a round
 * that did none (or failed: `onError` gets the error and the next round tries again).
 * @param round - one round; given `halt`, true once `stop()` was called; returns the work done
 * @param pollMs - the wait after an idle round, in milliseconds
 * @param onError - told of a round that failed
 * @returns the loop, not started
 */
export function pollLoop(
  round: (halt: () => boolean) => Promise<number>,
  pollMs: number,
  onError: ((error: unknown) => void) | undefined,
): PollLoop {
  let stopping = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  const run = async (): Promise<void> => {
    while (!stopping) {
      let made = 0;
      try {
        made = await round(() => stopping);
      } catch (e) {
        onError?.(e);
      }
      if (stopping) break;
      if (made > 0) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  };
  return {
    start: () => {
      if (loop !== undefined) return;
      stopping = false;
      loop = run();
    },
    stop: async () => {
      stopping = true;
      wake?.();
      await loop;
      loop = undefined;
    },
  };
}
