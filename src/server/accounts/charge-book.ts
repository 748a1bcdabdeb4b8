/**
 * The charge book of a server process: what each call may cost is held before its work, what it
 * costs is charged in memory when its answer is ready, and written to the units ledger (the
 * store's `Ledger`, `../store/ledger.ts`) once the answer has been handed to the connection, in
 * batches (group commit).
 *
 * The durability rule (docs/server.md, "Units"): a call is never charged in the ledger unless its
 * answer was written; an answer's charge reaches the ledger within one write after it (a
 * write starts as soon as the one before it ends, carrying every charge committed meanwhile, one
 * conditional `UPDATE` per key). A process killed outright loses at most the charges of those
 * last answers, in the clients' favour; closing the server writes every charge first.
 *
 * Balances: the ledger stays the truth. A key's balance is read once, then kept as the ledger last
 * reported it (after each write of its charges); what this process has held or charged but not yet
 * written is taken off it. A call that does not fit is decided on a fresh read (units added by
 * hand, or spent by another process sharing the ledger, count). Another process's charges can make
 * a write find less than it carries: the key is then charged what is left (at most down to 0) and
 * the difference is reported as lost units (`onLost`), never a negative balance.
 *
 * @module
 * @internal
 */
import type { Ledger } from '../store/ledger.js';

/** What a call holds on its key's balance, from admission to its charge's write. @internal */
export interface Hold {
  readonly keyId: string;
  /** Units held: the most the call can cost, then (after {@link ChargeBook.charge}) what it costs. */
  readonly units: number;
  /** Whether the units are the call's charge (else the most it can cost). */
  readonly charged: boolean;
}

interface KeyState {
  /** The balance as the ledger last reported it (undefined: not read yet). */
  stored: number | undefined;
  /** Units held by calls of this process that are not charged yet (the most each can cost). */
  held: number;
  /** Units charged by calls of this process and not yet written (committed ones included). */
  charged: number;
  /** Charges committed (their answers written) and not yet in a write. */
  committed: number;
}

/** Options of {@link ChargeBook}. @internal */
export interface ChargeBookOptions {
  /** Told when a write found less than it carried (another process spent the key's units meanwhile). */
  readonly onLost?: (keyId: string, units: number) => void;
  /** Told when a write failed (the ledger is unreachable); its charges are written with the next one. */
  readonly onWriteError?: (error: unknown) => void;
  /** How long to wait before writing again after a failed write (default 1,000 ms). */
  readonly retryMs?: number;
}

/** The holds and charges of one server process, over the units ledger. @internal */
export class ChargeBook {
  readonly #store: Pick<Ledger, 'balance' | 'charge'>;
  readonly #options: ChargeBookOptions;
  readonly #keys = new Map<string, KeyState>();
  /** The write running now, if any. */
  #writing: Promise<void> | undefined;
  /** A write is set for the next turn of the event loop. */
  #scheduled = false;
  #retry: NodeJS.Timeout | undefined;
  /** Writes started so far. */
  #writes = 0;

  constructor(ledger: Pick<Ledger, 'balance' | 'charge'>, options: ChargeBookOptions = {}) {
    this.#store = ledger;
    this.#options = options;
  }

  /**
   * Holds `units` of the key's balance for a call, or returns the balance that cannot cover them
   * (decided on the ledger's balance read now).
   */
  async hold(keyId: string, units: number): Promise<{ readonly ok: true; readonly hold: Hold } | { readonly ok: false; readonly remaining: number }> {
    const state = this.#state(keyId);
    if (state.stored === undefined || this.#available(state) < units) await this.#read(keyId, state);
    const available = this.#available(state);
    if (available < units) return { ok: false, remaining: available };
    state.held += units;
    return { ok: true, hold: { keyId, units, charged: false } };
  }

  /**
   * A key's balance as this process sees it: read from the ledger now (after the write running now,
   * if any), less the charges this process has not written yet.
   */
  async balance(keyId: string): Promise<number> {
    const state = this.#state(keyId);
    await this.#read(keyId, state);
    return (state.stored ?? 0) - state.charged;
  }

  /**
   * Turns a hold into a charge of `units` (at most the units held); returns the balance after it
   * and every charge before it, as this process sees it (other calls' holds not taken off).
   */
  charge(hold: Hold, units: number): { readonly hold: Hold; readonly remaining: number } {
    if (hold.charged || units > hold.units) throw new RangeError(`A call charged ${units} units but held ${hold.units}${hold.charged ? ' as its charge' : ''}.`);
    const state = this.#state(hold.keyId);
    state.held -= hold.units;
    state.charged += units;
    return { hold: { keyId: hold.keyId, units, charged: true }, remaining: (state.stored ?? 0) - state.charged };
  }

  /** Gives a hold or an unwritten charge back: the call failed, or its answer was not written. */
  release(hold: Hold): void {
    const state = this.#state(hold.keyId);
    if (hold.charged) state.charged -= hold.units;
    else state.held -= hold.units;
  }

  /** The call's answer was written: its charge goes to the ledger with the next write. */
  commit(hold: Hold): void {
    if (!hold.charged) throw new RangeError('Only a charge is committed.');
    if (hold.units === 0) return this.release(hold);
    this.#state(hold.keyId).committed += hold.units;
    this.#schedule();
  }

  /**
   * Writes every committed charge, and returns once no write runs: the one running now, and the
   * one it starts when it ends (with the charges committed meanwhile), are waited for. A ledger
   * that keeps failing is tried three times; what is still unwritten then is lost, in the clients'
   * favour.
   */
  async flush(): Promise<void> {
    for (let attempt = 0; attempt < 3; ) {
      if (this.#writing) {
        await this.#writing;
        continue;
      }
      if (!this.#pending()) break;
      clearTimeout(this.#retry);
      await this.#write();
      attempt++;
    }
    clearTimeout(this.#retry);
  }

  /**
   * Reads the key's balance from the ledger, between writes: a write running meanwhile may or may
   * not be in what the read returns, so the read is made again (up to three times). A read that
   * overlapped a write never replaces a balance that write reported (newer than the read, and
   * matched with the charges it took off); only a key with no balance yet keeps it, and the next
   * write's result corrects it.
   *
   * A write may already run when the read starts, even right after waiting for one: a write that
   * ends starts the next at once when charges were committed meanwhile. Such a read overlapped that
   * write as well, even when it is answered after the write ended.
   */
  async #read(keyId: string, state: KeyState): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.#writing;
      const writes = this.#writes;
      const between = this.#writing === undefined;
      const stored = (await this.#store.balance(keyId)) ?? 0;
      if (between && writes === this.#writes) {
        state.stored = stored;
        return;
      }
      if (attempt === 2) state.stored ??= stored;
    }
  }

  #state(keyId: string): KeyState {
    let state = this.#keys.get(keyId);
    if (!state) this.#keys.set(keyId, (state = { stored: undefined, held: 0, charged: 0, committed: 0 }));
    return state;
  }

  #available(state: KeyState): number {
    return (state.stored ?? 0) - state.held - state.charged;
  }

  #pending(): boolean {
    for (const state of this.#keys.values()) if (state.committed > 0) return true;
    return false;
  }

  #schedule(): void {
    // A running write starts the next when it ends, with every charge committed meanwhile.
    if (this.#scheduled || this.#writing) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#write();
    });
  }

  #write(): Promise<void> {
    if (this.#writing) return this.#writing;
    if (!this.#pending()) return Promise.resolve();
    clearTimeout(this.#retry);
    this.#writes++;
    const batch = [...this.#keys].filter(([, state]) => state.committed > 0).map(([keyId, state]) => [keyId, state, state.committed] as const);
    for (const [, state, units] of batch) state.committed -= units;
    const written = (async () => {
      let failed = false;
      for (const [keyId, state, units] of batch) {
        try {
          await this.#writeKey(keyId, state, units);
        } catch (error) {
          // Written with the next write; the units stay taken off the balance meanwhile.
          state.committed += units;
          failed = true;
          this.#options.onWriteError?.(error);
        }
      }
      return failed;
    })();
    this.#writing = written.then((failed) => {
      this.#writing = undefined;
      if (failed) this.#retry = setTimeout(() => void this.#write(), this.#options.retryMs ?? 1_000).unref();
      else if (this.#pending()) void this.#write();
    });
    return this.#writing;
  }

  async #writeKey(keyId: string, state: KeyState, units: number): Promise<void> {
    const result = await this.#store.charge(keyId, units);
    if (result.ok) {
      state.stored = result.remaining;
      state.charged -= units;
      return;
    }
    // Another process spent the units meanwhile: take what is left, report the rest.
    const left = Math.min(result.remaining, units);
    const last = left > 0 ? await this.#store.charge(keyId, left) : { ok: true as const, remaining: 0 };
    state.stored = last.remaining;
    state.charged -= units;
    this.#options.onLost?.(keyId, units - (last.ok ? left : 0));
  }
}
