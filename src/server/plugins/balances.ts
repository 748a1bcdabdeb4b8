/**
 * The keys' balances as this process last saw them, for admission: a call whose worst-case price
 * the balance cannot cover is refused before any query runs. The store stays the ledger: a balance
 * seen here only lets a call in without a read; a refusal is always decided on the store's own
 * balance, read then (units added meanwhile, by another process or by hand, count). A balance seen
 * here can be too high when another process shares the store and charged the key: the call is
 * then admitted, and its charge, which is atomic in the store, refuses it with 402 as before.
 *
 * @module
 * @internal
 */
import type { Store } from '../store/store.js';

/** Balances as last seen, by key id. @internal */
export class Balances {
  readonly #seen = new Map<string, number>();
  constructor(private readonly store: Pick<Store, 'balance'>) {}

  /** The key's balance: as last seen when that covers `units`, else read from the store now. */
  async covering(keyId: string, units: number): Promise<number> {
    const seen = this.#seen.get(keyId);
    if (seen !== undefined && seen >= units) return seen;
    const stored = (await this.store.balance(keyId)) ?? 0;
    this.#seen.set(keyId, stored);
    return stored;
  }

  /** Records a balance the store reported (after a charge or a refund). */
  saw(keyId: string, remaining: number): void {
    this.#seen.set(keyId, remaining);
  }
}
