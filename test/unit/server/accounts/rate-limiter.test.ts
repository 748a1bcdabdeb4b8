/**
 * The per-key limits of docs/server.md ("Limits"): a rate over a sliding one-second window and a
 * number of calls at once, each key on its own. The clock is stepped by hand, so every boundary is
 * an exact millisecond: a call made 1,000 ms ago has left the window, one made 999 ms ago has not.
 * The outcomes below are worked out by hand from those rules.
 */
import { describe, expect, it } from 'vitest';
import { RateLimiter, type Admission } from '../../../../src/server/accounts/rate-limiter.js';

/** A limiter on a clock the test sets. */
function limiter() {
  let now = 0;
  const limits = new RateLimiter(() => now);
  return { limits, at: (ms: number) => void (now = ms) };
}

/** What an admission says, without its release function. */
const outcome = (admission: Admission) => (admission.ok ? 'ok' : { reason: admission.reason, retryAfterSeconds: admission.retryAfterSeconds });

describe('the rate: a sliding one-second window', () => {
  it('admits 3 per second, and one more each time the oldest call is 1,000 ms old, not 999', () => {
    const { limits, at } = limiter();
    const rate3 = { perSecond: 3, concurrent: 100 };
    const acquire = (ms: number) => (at(ms), outcome(limits.acquire('k', rate3)));
    expect([acquire(0), acquire(300), acquire(600)]).toEqual(['ok', 'ok', 'ok']);
    // The fourth in the second that began at 0: the call made at 0 leaves the window at 1,000,
    // so Retry-After is 1 (seconds, rounded up).
    expect(acquire(999)).toEqual({ reason: 'rate', retryAfterSeconds: 1 });
    expect(acquire(1000)).toBe('ok');
    // Now 300, 600 and 1,000 are in the window: the next place is at 1,300.
    expect(acquire(1000)).toEqual({ reason: 'rate', retryAfterSeconds: 1 });
    expect(acquire(1299)).toEqual({ reason: 'rate', retryAfterSeconds: 1 });
    expect(acquire(1300)).toBe('ok');
    // A second with no call: three again.
    expect([acquire(5000), acquire(5000), acquire(5000), acquire(5000)]).toEqual(['ok', 'ok', 'ok', { reason: 'rate', retryAfterSeconds: 1 }]);
  });

  it('does not spend the rate on a call refused for concurrency', () => {
    const { limits } = limiter();
    const limit = { perSecond: 2, concurrent: 1 };
    const first = limits.acquire('k', limit);
    expect(outcome(first)).toBe('ok');
    // Two refused while the one slot is taken: neither counts against the two per second.
    expect(outcome(limits.acquire('k', limit))).toEqual({ reason: 'concurrency', retryAfterSeconds: 1 });
    expect(outcome(limits.acquire('k', limit))).toEqual({ reason: 'concurrency', retryAfterSeconds: 1 });
    if (first.ok) first.release();
    const second = limits.acquire('k', limit);
    expect(outcome(second)).toBe('ok');
    if (second.ok) second.release();
    // The third admitted in the second would be past 2 per second.
    expect(outcome(limits.acquire('k', limit))).toEqual({ reason: 'rate', retryAfterSeconds: 1 });
  });
});

describe('calls at once', () => {
  it('admits exactly `concurrent` calls, and one more for each call released, once', () => {
    const { limits } = limiter();
    const two = { perSecond: 100, concurrent: 2 };
    const a = limits.acquire('k', two);
    const b = limits.acquire('k', two);
    expect([outcome(a), outcome(b)]).toEqual(['ok', 'ok']);
    expect(outcome(limits.acquire('k', two))).toEqual({ reason: 'concurrency', retryAfterSeconds: 1 });
    if (a.ok) a.release();
    if (a.ok) a.release(); // a second release gives nothing more back
    expect(outcome(limits.acquire('k', two))).toBe('ok');
    expect(outcome(limits.acquire('k', two))).toEqual({ reason: 'concurrency', retryAfterSeconds: 1 });
  });
});

describe('each key on its own', () => {
  it("neither key's calls nor its releases count for another key", () => {
    const { limits } = limiter();
    const one = { perSecond: 1, concurrent: 1 };
    const busy = limits.acquire('busy', one);
    expect(outcome(busy)).toBe('ok');
    // 'busy' has spent its second and holds its slot; 'free' has spent nothing.
    const free = limits.acquire('free', one);
    expect(outcome(free)).toBe('ok');
    if (free.ok) free.release();
    expect(outcome(limits.acquire('busy', { perSecond: 100, concurrent: 1 }))).toEqual({ reason: 'concurrency', retryAfterSeconds: 1 });
    expect(outcome(limits.acquire('busy', one))).toEqual({ reason: 'rate', retryAfterSeconds: 1 });
  });
});
