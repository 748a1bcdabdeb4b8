/**
 * A server's accounts: the per-key limits (rate, calls at once) and the holds and charges on the
 * units ledger, behind one asynchronous interface, so that the processes of `serve --workers N`
 * can share the primary's (`../worker-accounts.ts`) while a single process keeps them in memory
 * ({@link localAccounts}).
 *
 * @module
 * @internal
 */
import type { Ledger } from '../store/ledger.js';
import { ChargeBook, type ChargeBookOptions, type Hold } from './charge-book.js';
import { RateLimiter, type RateLimits } from './rate-limiter.js';

/** A call admitted under its key's limits: `release` when its work has ended. @internal */
export type Admission = { readonly ok: true; release(): void } | { readonly ok: false; readonly retryAfterSeconds: number; readonly reason: 'rate' | 'concurrency' };

/** What a hold came to. @internal */
export type Held = { readonly ok: true; readonly hold: Hold } | { readonly ok: false; readonly remaining: number };

/** A charge made in memory, and the balance after it. @internal */
export interface Charged {
  readonly hold: Hold;
  readonly remaining: number;
}

/** Limits and units of every key, for one server or for all the processes of one. @internal */
export interface Accounts {
  /** Admits a call of the key under `limits`, or says when to retry. */
  admit(keyId: string, limits: RateLimits): Promise<Admission>;
  /** Holds the most a call can cost (see `ChargeBook.hold`). */
  hold(keyId: string, units: number): Promise<Held>;
  /** Turns a hold into the call's charge (see `ChargeBook.charge`). */
  charge(hold: Hold, units: number): Promise<Charged>;
  /** Gives a hold or an unwritten charge back. */
  release(hold: Hold): void;
  /** The answer was written: the charge goes to the ledger. */
  commit(hold: Hold): void;
  /** The key's balance less what is charged and not yet written. */
  balance(keyId: string): Promise<number>;
  /** Writes every charge (the server is closing). */
  flush(): Promise<void>;
}

/**
 * The accounts of one process: a {@link RateLimiter} on `wallClock` and a `ChargeBook` over the units ledger.
 *
 * @example
 * ```ts
 * const accounts = localAccounts(store.ledger, Date.now);
 * const admission = await accounts.admit('demo', DEFAULT_RATE_LIMITS);
 * ```
 */
export function localAccounts(ledger: Pick<Ledger, 'balance' | 'charge'>, wallClock: () => number, options: ChargeBookOptions = {}): Accounts {
  const limiter = new RateLimiter(wallClock);
  const book = new ChargeBook(ledger, options);
  return {
    admit: async (keyId, limits) => limiter.acquire(keyId, limits),
    hold: (keyId, units) => book.hold(keyId, units),
    charge: async (hold, units) => book.charge(hold, units),
    release: (hold) => book.release(hold),
    commit: (hold) => book.commit(hold),
    balance: (keyId) => book.balance(keyId),
    flush: () => book.flush(),
  };
}
