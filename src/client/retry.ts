/**
 * The retry policy as data, and the pure functions that apply it: which failures are retried,
 * how long to wait (`Retry-After` when the service says, else capped exponential backoff with full
 * jitter). The clock, sleep and random source are injectable so tests run without waiting.
 *
 * @module
 */

/**
 * When and how often a failed attempt is tried again.
 *
 * @example
 * ```ts
 * const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, limit: 5, retryOnTimeout: true };
 * ```
 */
export interface RetryPolicy {
  /** Retries after the first attempt (0 turns retrying off). Default 2. */
  readonly limit: number;
  /** Statuses retried. Default 408, 429, 500-599. */
  readonly statusCodes: readonly number[];
  /** Retry network failures (reset, refused, body cut short). Default true. */
  readonly retryOnNetworkError: boolean;
  /** Retry attempts that hit the timeout. Default false: a slow service rarely gets faster. */
  readonly retryOnTimeout: boolean;
  /** First backoff step in ms. Default 300. */
  readonly baseDelay: number;
  /** Largest backoff in ms. Default 10,000. */
  readonly maxDelay: number;
  /** A `Retry-After` longer than this (ms) is not waited for: the error is thrown. Default 60,000. */
  readonly maxRetryAfter: number;
}

/**
 * The default policy.
 *
 * @example
 * ```ts
 * createClient({ apiKey, baseUrl, retry: { ...DEFAULT_RETRY_POLICY, limit: 5 } });
 * ```
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  limit: 2,
  statusCodes: Object.freeze([408, 429, ...Array.from({ length: 100 }, (_, i) => 500 + i)]),
  retryOnNetworkError: true,
  retryOnTimeout: false,
  baseDelay: 300,
  maxDelay: 10_000,
  maxRetryAfter: 60_000,
});

/**
 * Time, waiting and chance, injectable for tests.
 *
 * @example
 * ```ts
 * createClient({ apiKey, baseUrl, timing: { sleep: async () => {}, random: () => 0.5 } });
 * ```
 */
export interface Timing {
  /** Milliseconds since the epoch. Default `Date.now`. */
  readonly now: () => number;
  /** Waits `ms` (rejecting when `signal` aborts). Default a `setTimeout` promise. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1). Default `Math.random`. */
  readonly random: () => number;
}

/**
 * A `setTimeout` sleep that stops early (rejecting with the signal's reason) when `signal` aborts.
 *
 * @example
 * ```ts
 * await sleep(100);
 * ```
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The real clock. @internal */
export const REAL_TIMING: Timing = Object.freeze({ now: () => Date.now(), sleep, random: () => Math.random() });

/**
 * Completes a partial policy with the defaults; `false` turns retrying off.
 *
 * @example
 * ```ts
 * resolveRetryPolicy({ limit: 5 }).statusCodes; // [408, 429, 500, ...]
 * ```
 */
export function resolveRetryPolicy(retry: Partial<RetryPolicy> | number | false | undefined): RetryPolicy {
  if (retry === false) return { ...DEFAULT_RETRY_POLICY, limit: 0 };
  if (typeof retry === 'number') return { ...DEFAULT_RETRY_POLICY, limit: retry };
  return { ...DEFAULT_RETRY_POLICY, ...retry };
}

/**
 * Milliseconds a `Retry-After` header asks for (delay-seconds or an HTTP date), or `undefined`.
 *
 * @example
 * ```ts
 * parseRetryAfter('2', Date.now()); // 2000
 * parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', now); // ms until then, at least 0
 * ```
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The backoff before retry number `retry` (1-based): full jitter over a capped exponential step.
 *
 * @example
 * ```ts
 * backoffDelay(DEFAULT_RETRY_POLICY, 1, () => 0.5); // 150 (half of 300)
 * ```
 */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number): number {
  const step = Math.min(policy.maxDelay, policy.baseDelay * 2 ** (retry - 1));
  return Math.floor(random() * step);
}

/** Why an attempt failed, as far as retrying cares. @internal */
export type AttemptFailure =
  | { readonly kind: 'status'; readonly status: number; readonly retryable: boolean | undefined; readonly retryAfter: number | undefined }
  | { readonly kind: 'network' }
  | { readonly kind: 'timeout' };

/**
 * The wait before the next attempt, or `undefined` when the failure is final. The body's
 * `retryable` flag, when present, wins over the status list.
 *
 * @internal
 */
export function retryDelay(policy: RetryPolicy, failure: AttemptFailure, retry: number, random: () => number): number | undefined {
  if (retry > policy.limit) return undefined;
  if (failure.kind === 'network') return policy.retryOnNetworkError ? backoffDelay(policy, retry, random) : undefined;
  if (failure.kind === 'timeout') return policy.retryOnTimeout ? backoffDelay(policy, retry, random) : undefined;
  const retryable = failure.retryable ?? policy.statusCodes.includes(failure.status);
  if (!retryable) return undefined;
  if (failure.retryAfter !== undefined) return failure.retryAfter <= policy.maxRetryAfter ? failure.retryAfter : undefined;
  return backoffDelay(policy, retry, random);
}
