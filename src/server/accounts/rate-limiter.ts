/**
 * Per-key limits: requests per second (a sliding one-second window) and requests at once. In
 * memory, per server process (`serve --workers` keeps one in the primary: `../worker-accounts.ts`). The
 * clock is injectable so tests need no timing.
 *
 * Why not @fastify/rate-limit (considered for issue 23; the service interface leaves rate limits
 * open, docs/server.md "Limits" is the contract): it counts requests per key in a store of its own,
 * in a hook of its own, and the contract needs three things that store and hook cannot give.
 *
 * - One count per server across `serve --workers N` (test/server/workers.test.ts: "4 per second
 *   means 4 of 12 calls at once"). The accounts give it: the guard's admission is one of a call's
 *   three round trips to the primary. Its store is one per process (or Redis); a store of ours
 *   asking the primary would be this limiter again, behind a fourth round trip and a cluster
 *   message of its own.
 * - The rate and the concurrency limit decided together: a call refused for concurrency does not
 *   spend the rate (it is not counted), and an admitted call holds its slot until its work has
 *   ended, abandoned or not. Its store counts a call before anything else can refuse it and has no
 *   way to give a count back.
 * - The wall clock of `AppOptions.wallClock` (`app.ts`: a fixed data clock must not freeze the
 *   limit; test/server/http/guard.test.ts steps it by one second): its store reads `Date.now()`.
 *
 * Its fixed window would also let a key make twice its rate across a window's edge, where this
 * sliding window holds any second to the rate. The 429 (the envelope, `Retry-After`) is answered
 * by the guard (`guard.ts`).
 *
 * @module
 */

/** Limits of one key. */
export interface RateLimits {
  /** Requests per second (default 10). */
  readonly perSecond: number;
  /** Requests in progress at once (default 10). */
  readonly concurrent: number;
}

/**
 * The default limits: 10 per second and 10 at once.
 *
 * @example
 * ```ts
 * limiter.acquire('demo', DEFAULT_RATE_LIMITS);
 * ```
 */
export const DEFAULT_RATE_LIMITS: RateLimits = Object.freeze({ perSecond: 10, concurrent: 10 });

/** The outcome of {@link RateLimiter.acquire}. */
export type Admission = { readonly ok: true; readonly release: () => void } | { readonly ok: false; readonly retryAfterSeconds: number; readonly reason: 'rate' | 'concurrency' };

interface KeyState {
  readonly starts: number[];
  active: number;
}

/**
 * Admits or refuses requests per key.
 *
 * @example
 * ```ts
 * const limiter = new RateLimiter(() => Date.now());
 * const admission = limiter.acquire('demo', DEFAULT_RATE_LIMITS);
 * if (admission.ok) admission.release();
 * ```
 */
export class RateLimiter {
  readonly #now: () => number;
  readonly #keys = new Map<string, KeyState>();
  constructor(now: () => number) {
    this.#now = now;
  }

  /** Admits a request (call `release` when it ends) or says when to retry. */
  acquire(keyId: string, limits: RateLimits): Admission {
    const now = this.#now();
    let state = this.#keys.get(keyId);
    if (!state) {
      state = { starts: [], active: 0 };
      this.#keys.set(keyId, state);
    }
    while (state.starts.length > 0 && state.starts[0]! <= now - 1000) state.starts.shift();
    if (state.starts.length >= limits.perSecond) {
      const wait = state.starts[0]! + 1000 - now;
      return { ok: false, reason: 'rate', retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
    }
    if (state.active >= limits.concurrent) return { ok: false, reason: 'concurrency', retryAfterSeconds: 1 };
    state.starts.push(now);
    state.active++;
    let released = false;
    const current = state;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        current.active--;
      },
    };
  }
}
