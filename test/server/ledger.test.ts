/**
 * The units ledger on a real SQLite store: holds count against the balance, a charge reaches the
 * store only when committed, commits made together are written together, a failed write is
 * written later, and units spent meanwhile by another process are taken as far as they go. Every
 * expected balance is worked out by hand from the units below.
 */
import { setTimeout } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/server/plugins/ledger.js';
import { openSqliteStore } from '../../src/server/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/server/store/store.js';

const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

async function storeWith(units: number): Promise<Store & { writes: () => number; failNext: (n: number) => void }> {
  const real = await openSqliteStore({ file: ':memory:' });
  stores.push(real);
  await real.upsertKeys([{ id: 'k', key: 'ledger-test-key', units }]);
  let writes = 0;
  let failing = 0;
  return {
    ...real,
    charge: async (keyId, n) => {
      writes++;
      if (failing > 0) {
        failing--;
        throw new Error('store down');
      }
      return real.charge(keyId, n);
    },
    writes: () => writes,
    failNext: (n) => void (failing = n),
  };
}

const held = async (ledger: Ledger, units: number) => {
  const result = await ledger.hold('k', units);
  if (!result.ok) throw new Error(`refused with ${result.remaining} left`);
  return result.hold;
};

describe('holds', () => {
  it('count against the balance until released', async () => {
    const ledger = new Ledger(await storeWith(100));
    const a = await held(ledger, 45);
    await held(ledger, 45);
    // 100 - 45 - 45 = 10 left for a third call.
    expect(await ledger.hold('k', 45)).toEqual({ ok: false, remaining: 10 });
    ledger.release(a);
    expect((await ledger.hold('k', 45)).ok).toBe(true);
  });

  it('are decided on the store\'s balance when the one seen does not cover them (units added meanwhile count)', async () => {
    const store = await storeWith(10);
    const ledger = new Ledger(store);
    expect(await ledger.hold('k', 45)).toEqual({ ok: false, remaining: 10 });
    // Units given by hand (a negative charge adds them): the balance is now 100.
    await store.charge('k', -90);
    expect((await ledger.hold('k', 45)).ok).toBe(true);
  });

  it('refuse a key the store does not know with 0 left', async () => {
    const ledger = new Ledger(await storeWith(100));
    expect(await ledger.hold('nobody', 1)).toEqual({ ok: false, remaining: 0 });
  });
});

describe('charges', () => {
  it('give back what the call held beyond its price, and say what is left', async () => {
    const ledger = new Ledger(await storeWith(1_000));
    const hold = await held(ledger, 450); // links, limit 10: 10 lines at 45
    // Three lines answered: 135 units; 1,000 - 135 = 865 left.
    expect(ledger.charge(hold, 135)).toEqual({ hold: { keyId: 'k', units: 135, charged: true }, remaining: 865 });
    expect(() => ledger.charge(hold, 451)).toThrow(RangeError);
  });

  it('say the balance after every charge so far, not after other calls\' holds', async () => {
    const ledger = new Ledger(await storeWith(1_000));
    const [a, b, c] = [await held(ledger, 100), await held(ledger, 100), await held(ledger, 100)];
    expect(ledger.charge(a, 40).remaining).toBe(960);
    expect(ledger.charge(b, 40).remaining).toBe(920);
    // c still holds 100: 1,000 - 40 - 40 - 100 = 820 may be held by a new call.
    expect(await ledger.hold('k', 821)).toEqual({ ok: false, remaining: 820 });
    ledger.release(c);
    expect((await ledger.hold('k', 920)).ok).toBe(true);
  });

  it('reach the store only once committed, a moment after', async () => {
    const store = await storeWith(1_000);
    const ledger = new Ledger(store);
    const { hold } = ledger.charge(await held(ledger, 45), 45);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await store.balance('k')).toBe(1_000);
    ledger.commit(hold);
    expect(await store.balance('k')).toBe(1_000);
    await expect.poll(() => store.balance('k')).toBe(955);
  });

  it('released instead of committed never reach the store', async () => {
    const store = await storeWith(1_000);
    const ledger = new Ledger(store);
    ledger.release(ledger.charge(await held(ledger, 45), 45).hold);
    await ledger.flush();
    expect(await store.balance('k')).toBe(1_000);
    expect(store.writes()).toBe(0);
    expect((await ledger.hold('k', 1_000)).ok).toBe(true);
  });

  it('committed together are written together', async () => {
    const store = await storeWith(10_000);
    const ledger = new Ledger(store);
    const holds = await Promise.all(Array.from({ length: 50 }, () => held(ledger, 45)));
    for (const hold of holds) ledger.commit(ledger.charge(hold, 45).hold);
    await ledger.flush();
    // 50 × 45 = 2,250 in one write.
    expect(await store.balance('k')).toBe(7_750);
    expect(store.writes()).toBe(1);
  });

  it('committed while a write runs go in the next one', async () => {
    const store = await storeWith(10_000);
    const ledger = new Ledger(store);
    ledger.commit(ledger.charge(await held(ledger, 45), 45).hold);
    await new Promise((resolve) => setImmediate(resolve)); // the first write has started
    for (let i = 0; i < 10; i++) ledger.commit(ledger.charge(await held(ledger, 10), 10).hold);
    await ledger.flush();
    // 45 + 10 × 10 = 145, in two writes.
    expect(await store.balance('k')).toBe(9_855);
    expect(store.writes()).toBe(2);
  });
});

describe('writes', () => {
  it('that fail are made again later, and the units stay taken meanwhile', async () => {
    const store = await storeWith(100);
    const errors: unknown[] = [];
    // The retry's timer is far off: flush() below stands in for it.
    const ledger = new Ledger(store, { retryMs: 60_000, onWriteError: (error) => errors.push(error) });
    store.failNext(1);
    ledger.commit(ledger.charge(await held(ledger, 45), 45).hold);
    await expect.poll(() => errors.length).toBe(1);
    expect(await store.balance('k')).toBe(100);
    // 100 - 45 = 55 available while the charge waits to be written.
    expect(await ledger.hold('k', 56)).toEqual({ ok: false, remaining: 55 });
    await ledger.flush();
    expect(await store.balance('k')).toBe(55);
    expect(store.writes()).toBe(2);
  });

  it('take what is left when another process spent the units meanwhile, and report the rest', async () => {
    const store = await storeWith(100);
    const lost: [string, number][] = [];
    const ledger = new Ledger(store, { onLost: (keyId, units) => lost.push([keyId, units]) });
    const hold = await held(ledger, 90);
    await store.charge('k', 70); // another server on the same database: 30 left
    ledger.commit(ledger.charge(hold, 90).hold);
    await ledger.flush();
    expect(await store.balance('k')).toBe(0);
    expect(lost).toEqual([['k', 60]]);
    expect(await ledger.hold('k', 1)).toEqual({ ok: false, remaining: 0 });
  });

  it('are given up after three tries when closing on a store that keeps failing', async () => {
    const store = await storeWith(100);
    const ledger = new Ledger(store, { retryMs: 60_000 });
    store.failNext(100);
    ledger.commit(ledger.charge(await held(ledger, 45), 45).hold);
    await ledger.flush();
    expect(await store.balance('k')).toBe(100);
    // The first write (scheduled at commit) and three more.
    expect(store.writes()).toBeLessThanOrEqual(4);
  });
});

describe('reads', () => {
  it('that each overlap a write never put back a balance older than what the writes reported', async () => {
    const real = await storeWith(1_000);
    let ledger!: Ledger;
    let overlapping = 0;
    // Each read of the balance takes its value, then lets one more call charge 10 and that charge
    // be written, before it answers: every read overlaps a write.
    const store: Pick<Store, 'balance' | 'charge'> = {
      charge: (keyId, units) => real.charge(keyId, units),
      balance: async (keyId) => {
        const value = await real.balance(keyId);
        if (overlapping > 0) {
          overlapping--;
          ledger.commit(ledger.charge(await held(ledger, 10), 10).hold);
          await ledger.flush();
        }
        return value;
      },
    };
    ledger = new Ledger(store);
    ledger.commit(ledger.charge(await held(ledger, 10), 10).hold);
    await ledger.flush();
    overlapping = 3;
    // 1,000 - 10, then three more charges of 10 while the balance was being read: 960.
    expect(await ledger.balance('k')).toBe(960);
    expect(ledger.charge(await held(ledger, 10), 10).remaining).toBe(950);
  });

  it('made during a write that began as the one waited for ended, and answered after it, are made again', async () => {
    const real = await storeWith(1_000);
    let ledger!: Ledger;
    // Each write waits for its own gate; the test opens them.
    const gates: Array<() => void> = [];
    const opened = [0, 1].map((i) => new Promise<void>((resolve) => (gates[i] = resolve)));
    let writes = 0;
    const store: Pick<Store, 'balance' | 'charge'> = {
      charge: async (keyId, units) => {
        await opened[writes++];
        return real.charge(keyId, units);
      },
      // A read takes its value at once, and answers once every write that runs has ended.
      balance: async (keyId) => {
        const value = await real.balance(keyId);
        await ledger.flush();
        return value;
      },
    };
    ledger = new Ledger(store);
    await ledger.hold('k', 0); // the balance, read once: 1,000
    ledger.commit(ledger.charge(await held(ledger, 10), 10).hold);
    await setTimeout(10); // the first write runs, waiting for its gate
    ledger.commit(ledger.charge(await held(ledger, 20), 20).hold); // for the next write
    const balance = ledger.balance('k'); // waits for the first write
    gates[0]!(); // the first write ends and the second begins, waiting for its gate
    await setTimeout(10);
    gates[1]!();
    // 1,000 - 10 - 20, whether the read was made during the second write (and again after it) or after it.
    expect(await balance).toBe(970);
  });
});
