/**
 * How many generated cases the differential suite runs, and fast-check's run parameters.
 *
 * - `npm test`: {@link DEFAULT_CASES} filters per engine, spread over the operations.
 * - `FUZZ_RUNS=100000 npx vitest run test/differential`: that many per engine. A smaller number
 *   is for a quick local look only: with `CI` set it is refused, so CI never checks fewer than
 *   {@link MIN_CHECKED} filters per engine.
 * - `FC_SEED=<seed>` (and `FC_PATH=<path>` from fast-check's report) replays a failure.
 * - Without `FUZZ_RUNS` the seed is fixed ({@link DEFAULT_SEED}); with it, fresh each run.
 *
 * @internal
 * @module
 */
import type fc from 'fast-check';

/** Filters per engine in a plain `npm test`. @internal */
export const DEFAULT_CASES = 2_400;
/** Filters checked against one generated dataset. @internal */
export const FILTERS_PER_DATASET = 20;

/** The floor: at least this many filters per engine actually run there in `npm test` and in CI. @internal */
export const MIN_CHECKED = 2_000;

/** Whether the run is CI's (`CI=true`, as `.ci/run` is run). */
const inCi = (): boolean => process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';

/** The requested number of cases per engine. @internal */
export function casesPerEngine(): number {
  const raw = process.env.FUZZ_RUNS;
  if (raw === undefined || raw === '') return DEFAULT_CASES;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`FUZZ_RUNS must be a positive integer, got ${raw}`);
  if (n < MIN_CHECKED && inCi()) throw new Error(`FUZZ_RUNS=${raw} would check fewer than ${MIN_CHECKED} filters per engine; CI does not lower the differential floor.`);
  return n;
}

/**
 * How many filters the suite must have run on the engine (refusals the docs promise do not
 * count): the floor, or a smaller local `FUZZ_RUNS` outside CI. @internal
 */
export function floorOf(requested: number): number {
  return Math.max(Math.min(requested, MIN_CHECKED), inCi() ? MIN_CHECKED : 1);
}

/**
 * The seed of `npm test`: fixed, so every run checks the same cases and a red run is never a
 * matter of luck. A fuzz run (`FUZZ_RUNS` set) takes a fresh seed, which fast-check prints on failure.
 *
 * @internal
 */
export const DEFAULT_SEED = 20_261_122;

function seedOf(): number | undefined {
  const raw = process.env.FC_SEED;
  if (raw !== undefined && raw !== '') {
    const seed = Number(raw);
    if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer, got ${raw}`);
    return seed;
  }
  return process.env.FUZZ_RUNS ? undefined : DEFAULT_SEED;
}

/** fast-check parameters for one property that should check `cases` filters. @internal */
export function assertParameters(cases: number): fc.Parameters<unknown> {
  const seed = seedOf();
  const path = process.env.FC_PATH;
  return {
    numRuns: Math.max(1, Math.ceil(cases / FILTERS_PER_DATASET)),
    ...(seed !== undefined ? { seed } : {}),
    ...(path ? { path } : {}),
    // Shrinking re-runs the engines for every step; keep it bounded so a failure reports in time.
    interruptAfterTimeLimit: 30 * 60_000,
    markInterruptAsFailure: true,
  };
}

/** A test timeout large enough for `cases` filters on the slowest engine (with shrinking). @internal */
export function timeoutFor(cases: number): number {
  return Math.max(120_000, cases * 20);
}
