/**
 * The charge book on the ledger of a real SQLite store: holds count against the balance, a charge
 * reaches the ledger only when committed, commits made together are written together, a failed write is
 * written later, and units spent meanwhile by another process are taken as far as they go. Every
 * expected balance is worked out by hand from the units below.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ChargeBook } from '../../../src/server/accounts/charge-book.js';
import { openSqliteStore } from '../../../src/server/store/engines/sqlite/sqlite-store.js';
import type { Ledger } from '../../../src/server/store/ledger.js';
import type { Store } from '../../../src/server/store/store.js';

const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

/** The ledger of a new SQLite store holding key `k` with `units`; its charges counted, and failing on demand. */
async function storeWith(units: number): Promise<Ledger & { writes: () => number; failNext: (n: number) => void }> {
  const real = await openSqliteStore({ file: ':memory:' });
  stores.push(real);
  await real.ledger.upsertKeys([{ id: 'k', key: 'ledger-test-key', units }]);
  let writes = 0;
  let failing = 0;
  return {
    ...real.ledger,
    charge: async (keyId, n) => {
      writes++;
      if (failing > 0) {
        failing--;
        throw new Error('store down');
      }
      return real.ledger.charge(keyId, n);
    },
    writes: () => writes,
    failNext: (n) => void (failing = n),
  };
}

/**
 * A gate a store step waits at: `enter()` is called by the step as it reaches the gate, which
 * resolves `entered` (the step is provably in flight); `open()` lets it through.
 */
function gated() {
  let open!: () => void;
  let enter!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const entered = new Promise<void>((resolve) => (enter = resolve));
  return { gate, open, entered, enter };
}

const held = async (book: ChargeBook, units: number) => {
  const result = await book.hold('k', units);
  if (!result.ok) throw new Error(`refused with ${result.remaining} left`);
  return result.hold;
};

describe('holds', () => {
  it('count against the balance until released', async () => {
    const book = new ChargeBook(await storeWith(100));
    const a = await held(book, 45);
    await held(book, 45);
    // 100 - 45 - 45 = 10 left for a third call.
    expect(await book.hold('k', 45)).toEqual({ ok: false, remaining: 10 });
    book.release(a);
    expect((await book.hold('k', 45)).ok).toBe(true);
  });

  it('are decided on the store\'s balance when the one seen does not cover them (units added meanwhile count)', async () => {
    const store = await storeWith(10);
    const book = new ChargeBook(store);
    expect(await book.hold('k', 45)).toEqual({ ok: false, remaining: 10 });
    // Units given by hand (a negative charge adds them): the balance is now 100.
    await store.charge('k', -90);
    expect((await book.hold('k', 45)).ok).toBe(true);
  });

  it('refuse a key the store does not know with 0 left', async () => {
    const book = new ChargeBook(await storeWith(100));
    expect(await book.hold('nobody', 1)).toEqual({ ok: false, remaining: 0 });
  });
});

describe('charges', () => {
  it('give back what the call held beyond its price, and say what is left', async () => {
    const book = new ChargeBook(await storeWith(1_000));
    const hold = await held(book, 450); // links, limit 10: 10 lines at 45
    // Three lines answered: 135 units; 1,000 - 135 = 865 left.
    expect(book.charge(hold, 135)).toEqual({ hold: { keyId: 'k', units: 135, charged: true }, remaining: 865 });
    expect(() => book.charge(hold, 451)).toThrow(new RangeError('A call charged 451 units but held 450.'));
  });

  it('are made once per hold, and only a charge is committed', async () => {
    const book = new ChargeBook(await storeWith(1_000));
    const hold = await held(book, 100);
    expect(() => book.commit(hold)).toThrow(new RangeError('Only a charge is committed.'));
    const { hold: charged } = book.charge(hold, 40);
    expect(() => book.charge(charged, 40)).toThrow(new RangeError('A call charged 40 units but held 40 as its charge.'));
    // The one charge of 40 stands: 1,000 - 40 = 960 may still be held, not 961.
    expect(await book.hold('k', 961)).toEqual({ ok: false, remaining: 960 });
  });

  it('of one unit are written, and every key of a write is written', async () => {
    const store = await storeWith(100);
    await store.upsertKeys([{ id: 'j', key: 'ledger-test-key-j', units: 50 }]);
    const book = new ChargeBook(store);
    book.commit(book.charge(await held(book, 1), 1).hold);
    await book.flush();
    // One unit alone: 100 - 1 = 99, in one write.
    expect([await store.balance('k'), store.writes()]).toEqual([99, 1]);
    const j = await book.hold('j', 7);
    if (!j.ok) throw new Error('j refused');
    book.commit(book.charge(await held(book, 1), 1).hold);
    book.commit(book.charge(j.hold, 7).hold);
    await book.flush();
    // k: 99 - 1 = 98; j: 50 - 7 = 43, in one write of two statements.
    expect([await store.balance('k'), await store.balance('j'), store.writes()]).toEqual([98, 43, 3]);
  });

  it('say the balance after every charge so far, not after other calls\' holds', async () => {
    const book = new ChargeBook(await storeWith(1_000));
    const [a, b, c] = [await held(book, 100), await held(book, 100), await held(book, 100)];
    expect(book.charge(a, 40).remaining).toBe(960);
    expect(book.charge(b, 40).remaining).toBe(920);
    // c still holds 100: 1,000 - 40 - 40 - 100 = 820 may be held by a new call.
    expect(await book.hold('k', 821)).toEqual({ ok: false, remaining: 820 });
    book.release(c);
    expect((await book.hold('k', 920)).ok).toBe(true);
  });

  it('reach the store only once committed, a moment after', async () => {
    const store = await storeWith(1_000);
    const book = new ChargeBook(store);
    const { hold } = book.charge(await held(book, 45), 45);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await store.balance('k')).toBe(1_000);
    book.commit(hold);
    expect(await store.balance('k')).toBe(1_000);
    await expect.poll(() => store.balance('k')).toBe(955);
  });

  it('released instead of committed never reach the store', async () => {
    const store = await storeWith(1_000);
    const book = new ChargeBook(store);
    book.release(book.charge(await held(book, 45), 45).hold);
    await book.flush();
    expect(await store.balance('k')).toBe(1_000);
    expect(store.writes()).toBe(0);
    expect((await book.hold('k', 1_000)).ok).toBe(true);
  });

  it('committed together are written together', async () => {
    const store = await storeWith(10_000);
    const book = new ChargeBook(store);
    const holds = await Promise.all(Array.from({ length: 50 }, () => held(book, 45)));
    for (const hold of holds) book.commit(book.charge(hold, 45).hold);
    await book.flush();
    // 50 × 45 = 2,250 in one write.
    expect(await store.balance('k')).toBe(7_750);
    expect(store.writes()).toBe(1);
    // The book holds what the write reported: 7,750, not one unit more, with no read of the store.
    expect(await book.hold('k', 7_751)).toEqual({ ok: false, remaining: 7_750 });
    expect((await book.hold('k', 7_750)).ok).toBe(true);
  });

  it('committed while a write runs go in the next one', async () => {
    const store = await storeWith(10_000);
    const book = new ChargeBook(store);
    book.commit(book.charge(await held(book, 45), 45).hold);
    await expect.poll(() => store.writes()).toBe(1); // the first write has started
    for (let i = 0; i < 10; i++) book.commit(book.charge(await held(book, 10), 10).hold);
    await book.flush();
    // 45 + 10 × 10 = 145, in two writes.
    expect(await store.balance('k')).toBe(9_855);
    expect(store.writes()).toBe(2);
  });

  it('committed while a write runs reach the store when it ends, with no flush', async () => {
    const real = await storeWith(10_000);
    const { gate, open, entered, enter } = gated();
    // The first write waits for the gate: the second charge is committed while it runs.
    const store: Pick<Ledger, 'balance' | 'charge'> = {
      charge: async (keyId, units) => (enter(), await gate, real.charge(keyId, units)),
      balance: (keyId) => real.balance(keyId),
    };
    const book = new ChargeBook(store);
    book.commit(book.charge(await held(book, 45), 45).hold);
    await entered; // the first write runs, waiting for its gate
    book.commit(book.charge(await held(book, 10), 10).hold);
    open();
    // 10,000 - 45 - 10, in two writes.
    await expect.poll(() => real.balance('k')).toBe(9_945);
    expect(real.writes()).toBe(2);
  });
});

describe('flush', () => {
  it('waits for the write that the write running starts when it ends (charges committed meanwhile)', async () => {
    const real = await storeWith(10_000);
    // Each write waits for its own gate; `written` lists the writes that have reached the store.
    const writes = [gated(), gated()];
    const written: number[] = [];
    let started = 0;
    const store: Pick<Ledger, 'balance' | 'charge'> = {
      charge: async (keyId, units) => {
        const { enter, gate } = writes[started++]!;
        enter();
        await gate;
        const result = await real.charge(keyId, units);
        written.push(units);
        return result;
      },
      balance: (keyId) => real.balance(keyId),
    };
    const book = new ChargeBook(store);
    book.commit(book.charge(await held(book, 45), 45).hold);
    await writes[0]!.entered; // the first write runs
    book.commit(book.charge(await held(book, 10), 10).hold);
    let flushed = false;
    const flushing = book.flush().then(() => (flushed = true));
    writes[0]!.open();
    await writes[1]!.entered; // the first write ended and started the second, with the 10
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([flushed, written]).toEqual([false, [45]]);
    writes[1]!.open();
    await flushing;
    // Every charge is in the store once flush() is done: 10,000 - 45 - 10.
    expect(written).toEqual([45, 10]);
    expect(await real.balance('k')).toBe(9_945);
  });
});

describe('writes', () => {
  it('that fail are made again later, and the units stay taken meanwhile', async () => {
    const store = await storeWith(100);
    const errors: unknown[] = [];
    // The retry's timer is far off: flush() below stands in for it.
    const book = new ChargeBook(store, { retryMs: 60_000, onWriteError: (error) => errors.push(error) });
    store.failNext(1);
    book.commit(book.charge(await held(book, 45), 45).hold);
    await expect.poll(() => errors.length).toBe(1);
    expect(await store.balance('k')).toBe(100);
    // 100 - 45 = 55 available while the charge waits to be written.
    expect(await book.hold('k', 56)).toEqual({ ok: false, remaining: 55 });
    // The balance as this process sees it: the store's 100 less the unwritten 45.
    expect(await book.balance('k')).toBe(55);
    await book.flush();
    expect(await store.balance('k')).toBe(55);
    expect(store.writes()).toBe(2);
  });

  it('that fail are made again after the retry delay, with no flush', async () => {
    const store = await storeWith(100);
    const book = new ChargeBook(store, { retryMs: 5 });
    store.failNext(1);
    book.commit(book.charge(await held(book, 45), 45).hold);
    await expect.poll(() => store.balance('k')).toBe(55);
    expect(store.writes()).toBe(2);
  });

  it('of several keys go on past one that fails, and that one is written later', async () => {
    const store = await storeWith(100);
    await store.upsertKeys([{ id: 'j', key: 'ledger-test-key-j', units: 50 }]);
    const book = new ChargeBook(store, { retryMs: 60_000 });
    const jHold = await book.hold('j', 7);
    if (!jHold.ok) throw new Error('j refused');
    const k = await held(book, 45);
    store.failNext(1); // the write's first statement: j's (the book met j first)
    book.commit(book.charge(k, 45).hold);
    book.commit(book.charge(jHold.hold, 7).hold);
    await expect.poll(() => store.writes()).toBe(2);
    await book.flush();
    // j: 50 - 7 = 43 (written by the flush); k: 100 - 45 = 55 (written by the first write).
    expect([await store.balance('k'), await store.balance('j')]).toEqual([55, 43]);
    expect(store.writes()).toBe(3);
  });

  it('on close are tried three times: a store failing the first write and two of the close\'s still gets the charge', async () => {
    const store = await storeWith(100);
    const errors: unknown[] = [];
    const book = new ChargeBook(store, { retryMs: 60_000, onWriteError: (error) => errors.push(error) });
    store.failNext(3);
    book.commit(book.charge(await held(book, 45), 45).hold);
    await expect.poll(() => errors.length).toBe(1);
    await book.flush();
    // Writes 2 and 3 fail, the close's third try (write 4) carries the 45.
    expect(await store.balance('k')).toBe(55);
    expect(store.writes()).toBe(4);
  });

  it('take what is left when another process spent the units meanwhile, and report the rest', async () => {
    const store = await storeWith(100);
    const lost: [string, number][] = [];
    const book = new ChargeBook(store, { onLost: (keyId, units) => lost.push([keyId, units]) });
    const hold = await held(book, 90);
    await store.charge('k', 70); // another server on the same database: 30 left
    book.commit(book.charge(hold, 90).hold);
    await book.flush();
    expect(await store.balance('k')).toBe(0);
    expect(lost).toEqual([['k', 60]]);
    expect(await book.hold('k', 1)).toEqual({ ok: false, remaining: 0 });
  });

  it('are given up after three tries when closing on a store that keeps failing', async () => {
    const store = await storeWith(100);
    const book = new ChargeBook(store, { retryMs: 60_000 });
    store.failNext(100);
    book.commit(book.charge(await held(book, 45), 45).hold);
    await book.flush();
    expect(await store.balance('k')).toBe(100);
    // The first write (scheduled at commit) and three more.
    expect(store.writes()).toBeLessThanOrEqual(4);
  });
});

describe('reads', () => {
  it('that each overlap a write never put back a balance older than what the writes reported', async () => {
    const real = await storeWith(1_000);
    let book!: ChargeBook;
    let overlapping = 0;
    // Each read of the balance takes its value, then lets one more call charge 10 and that charge
    // be written, before it answers: every read overlaps a write.
    const store: Pick<Ledger, 'balance' | 'charge'> = {
      charge: (keyId, units) => real.charge(keyId, units),
      balance: async (keyId) => {
        const value = await real.balance(keyId);
        if (overlapping > 0) {
          overlapping--;
          book.commit(book.charge(await held(book, 10), 10).hold);
          await book.flush();
        }
        return value;
      },
    };
    book = new ChargeBook(store);
    book.commit(book.charge(await held(book, 10), 10).hold);
    await book.flush();
    overlapping = 3;
    // 1,000 - 10, then three more charges of 10 while the balance was being read: 960.
    expect(await book.balance('k')).toBe(960);
    expect(book.charge(await held(book, 10), 10).remaining).toBe(950);
  });

  it('made to decide a call while a write runs wait for it: units added by hand meanwhile count', async () => {
    const real = await storeWith(100);
    const { gate, open, entered, enter } = gated();
    // Reads of the balance made while the write waits at its gate.
    let writing = false;
    let readsDuringWrite = 0;
    const store: Pick<Ledger, 'balance' | 'charge'> = {
      charge: async (keyId, units) => (enter(), (writing = true), await gate, (writing = false), real.charge(keyId, units)),
      balance: (keyId) => ((readsDuringWrite += writing ? 1 : 0), real.balance(keyId)),
    };
    const book = new ChargeBook(store);
    book.commit(book.charge(await held(book, 45), 45).hold);
    await entered; // the write runs, waiting for its gate
    await real.charge('k', -100); // units given by hand: 200 in the store
    // 100 - 45 = 55 seen: not enough for 100, so the store is asked, once the write has ended.
    const hold = book.hold('k', 100);
    open();
    expect((await hold).ok).toBe(true);
    expect(readsDuringWrite).toBe(0);
    await book.flush();
    // 200 - 45 = 155 in the store; 100 held: 55 may still be held.
    expect(await real.balance('k')).toBe(155);
    expect(await book.hold('k', 56)).toEqual({ ok: false, remaining: 55 });
  });

  it('made during a write that began as the one waited for ended, and answered after it, are made again', async () => {
    const real = await storeWith(1_000);
    let book!: ChargeBook;
    // Each write waits for its own gate; the test opens them.
    const writesGated = [gated(), gated()];
    let writes = 0;
    const store: Pick<Ledger, 'balance' | 'charge'> = {
      charge: async (keyId, units) => {
        const { enter, gate } = writesGated[writes++]!;
        enter();
        await gate;
        return real.charge(keyId, units);
      },
      // A read takes its value at once, and answers once every write that runs has ended.
      balance: async (keyId) => {
        const value = await real.balance(keyId);
        await book.flush();
        return value;
      },
    };
    book = new ChargeBook(store);
    await book.hold('k', 0); // the balance, read once: 1,000
    book.commit(book.charge(await held(book, 10), 10).hold);
    await writesGated[0]!.entered; // the first write runs, waiting for its gate
    book.commit(book.charge(await held(book, 20), 20).hold); // for the next write
    const balance = book.balance('k'); // waits for the first write
    writesGated[0]!.open(); // the first write ends and the second begins, waiting for its gate
    await writesGated[1]!.entered;
    writesGated[1]!.open();
    // 1,000 - 10 - 20, whether the read was made during the second write (and again after it) or after it.
    expect(await balance).toBe(970);
  });
});
