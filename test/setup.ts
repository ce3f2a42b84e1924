/**
 * Global fast-check settings for every test file (vitest `setupFiles`).
 *
 * CI pins the seed (`FC_SEED`, set by `.ci/run`) so a red run replays exactly. A failing
 * `fc.assert` throws fast-check's default report, which starts with the seed and the path of the
 * shrunk counterexample:
 *
 *   Property failed after 3 tests
 *   { seed: 20261121, path: "2:0", endOnFailure: true }
 *
 * Replay it with the same seed:  FC_SEED=<seed> npx vitest run <file>
 * Or pass `{ seed, path, endOnFailure: true }` (as printed) to that one `fc.assert` to run only the
 * counterexample. Without FC_SEED every property draws its own seed and still prints it.
 *
 * `FC_NUM_RUNS` sets the default number of runs of properties that do not set their own.
 *
 * No custom `reporter` here: fast-check's default report is what prints the seed and path.
 */
import fc from 'fast-check';
import { beforeEach } from 'vitest';

function intFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) {
    throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}`);
  }
  return value;
}

const seed = intFromEnv('FC_SEED');
const numRuns = intFromEnv('FC_NUM_RUNS');
if (numRuns !== undefined && numRuns < 1) {
  throw new Error(`FC_NUM_RUNS must be at least 1, got ${numRuns}`);
}

fc.configureGlobal({
  ...(seed === undefined ? {} : { seed }),
  ...(numRuns === undefined ? {} : { numRuns }),
  // Shrink to the smallest counterexample; the printed path then replays straight to it.
  endOnFailure: false,
  // Keep the predicate's error as `cause` (the default): vitest then prints its diff.
  includeErrorInReport: false,
});

if (seed !== undefined) {
  // The report names the seed; this adds the command that replays the whole file with it.
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(() => {
      console.error(
        `[fast-check] seed pinned by FC_SEED=${seed}; replay: FC_SEED=${seed} npx vitest run ${task.file.name}`,
      );
    });
  });
}
