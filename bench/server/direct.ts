/**
 * The direct side of the overhead ratio: each call's store work run in this process, without
 * HTTP. The query goes through the server's own validation once (so the parameters are exactly
 * the route's), then the operation's answer function (`ANSWERS`, the store calls the route makes:
 * `store.grouped('links', ...)`, `store.overview(...)`, two `store.summary` calls for comparison, ...)
 * runs sequentially; the median time is kept. Authentication, rate limits, per-request validation,
 * the charge and serialization are what the server adds on top.
 */
import { performance } from 'node:perf_hooks';
import { clockAt } from '../../src/server/clock.js';
import type { DomainParser } from '../../src/server/deps.js';
import { ANSWERS } from '../../src/server/routes/operation-answers.js';
import { StoreUnavailableError } from '../../src/server/store/connection.js';
import type { Store } from '../../src/server/store/store.js';
import { validateRequest } from '../../src/server/validation/validate-request.js';
import type { BenchCall } from './calls.js';
import { quantile } from './load.js';

/** The direct timing of one call. */
export interface DirectResult {
  /** Median milliseconds (NaN when the store refused the call). */
  readonly p50: number;
  readonly runs: number;
  /** The store's refusal (`StoreUnavailableError`: a timeout, an overloaded server), when it refused. */
  readonly refused?: string;
}

/**
 * Times one call directly: a warm-up (20 runs or half a second, whichever ends first, at least
 * 3 runs), then sequential runs for `seconds` (at least 20 runs).
 */
export async function measureDirect(store: Store, parser: DomainParser, call: BenchCall, options: { now: Date; seconds: number }): Promise<DirectResult> {
  const ctx = { store, parser, clock: clockAt(options.now) };
  const validated = validateRequest(call.operation, call.query, { now: options.now });
  if (!validated.ok) throw new Error(`${call.name}: the server's validation refuses the benchmark's query: ${JSON.stringify(validated.body)}`);
  const run = () => ANSWERS[call.operation](validated.params, ctx);
  // A call past the store's time bound is what the server answers with a 503: recorded, not fatal.
  let refused: string | undefined;
  const answer = async () => {
    try {
      await run();
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      refused = error.message;
    }
  };
  const warm = performance.now();
  for (let i = 0; refused === undefined && i < 20 && (i < 3 || performance.now() - warm < 500); i++) await answer();
  const times: number[] = [];
  const started = performance.now();
  while (refused === undefined && (times.length < 20 || (performance.now() - started < options.seconds * 1000 && times.length < 100_000))) {
    const t = performance.now();
    await answer();
    times.push(performance.now() - t);
  }
  if (refused !== undefined) return { p50: Number.NaN, runs: times.length, refused };
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), runs: times.length };
}
