/**
 * An optional client-side limiter matching the service's account limits: at most `perSecond`
 * request starts in any one-second window and at most `concurrency` requests in flight.
 *
 * @module
 */
import type { Timing } from './retry.js';

/**
 * Limits of the client-side limiter.
 *
 * @example
 * ```ts
 * createClient({ apiKey, baseUrl, rateLimit: { perSecond: 5, concurrency: 2 } });
 * ```
 */
export interface RateLimit {
  /** Request starts per rolling second. Default 10. */
  readonly perSecond: number;
  /** Requests in flight at once. Default 10. */
  readonly concurrency: number;
}

/**
 * The service's limits per account: 10 requests per second, 10 at once.
 *
 * @example
 * ```ts
 * createClient({ apiKey, baseUrl, rateLimit: DEFAULT_RATE_LIMIT });
 * ```
 */
export const DEFAULT_RATE_LIMIT: RateLimit = Object.freeze({ perSecond: 10, concurrency: 10 });

/** Runs tasks within a {@link RateLimit}. @internal */
export class Limiter {
  private readonly starts: number[] = [];
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly limit: RateLimit,
    private readonly timing: Timing,
  ) {}

  /** Runs `task` once a slot is free; the slot is released when it settles. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  private async acquire(signal?: AbortSignal): Promise<void> {
    while (this.active >= this.limit.concurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.active++;
    for (;;) {
      const now = this.timing.now();
      while (this.starts.length > 0 && this.starts[0]! <= now - 1000) this.starts.shift();
      if (this.starts.length < this.limit.perSecond) {
        this.starts.push(now);
        return;
      }
      try {
        await this.timing.sleep(this.starts[0]! + 1000 - now, signal);
      } catch (error) {
        this.active--;
        this.waiting.shift()?.();
        throw error;
      }
    }
  }
}
