/**
 * The units ledger apart from the data, on the run's store: the store's own ledger (`store.ledger`,
 * in the same database) stores keys and charges as docs/server.md's "Units" says, and closing it
 * leaves the store open; a server given a ledger of its own charges there, not in the store, and
 * closes it after the last charge; a store with no ledger and none given is refused.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createServer } from '../../../src/server/server.js';
import type { Ledger } from '../../../src/server/store/ledger.js';
import { openLedgerAt } from '../../../src/server/store/open.js';
import type { Store } from '../../../src/server/store/store.js';
import { KEYS, NOW } from '../support/fixture.js';
import { AUTH, BASE, fixtureStore } from '../support/helpers.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

describe("the store's own ledger", () => {
  it('grants units to new keys, keeps a known key\'s balance and takes its new key, and charges only what the balance covers', async () => {
    const store = await fixtureStore();
    try {
      const { ledger } = store;
      await ledger.upsertKeys([{ id: 'a', key: 'first-key-aaaa', units: 50 }]);
      expect(await ledger.charge('a', 30)).toEqual({ ok: true, remaining: 20 });
      expect(await ledger.charge('a', 21)).toEqual({ ok: false, remaining: 20 });
      // Stored again with a new key and other units: the balance stays, the key changes.
      await ledger.upsertKeys([{ id: 'a', key: 'second-key-aaaa', units: 1_000 }, { id: 'b', key: 'first-key-bbbb', units: 7 }]);
      expect(await ledger.apiKeys()).toEqual([
        { id: 'a', keyHash: sha256('second-key-aaaa'), units: 20 },
        { id: 'b', keyHash: sha256('first-key-bbbb'), units: 7 },
      ]);
      expect(await ledger.balance('nobody')).toBeUndefined();
      expect(await ledger.charge('nobody', 1)).toEqual({ ok: false, remaining: 0 });
      await expect(ledger.ping()).resolves.toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('closes without closing the store (the store closes the database)', async () => {
    const store = await fixtureStore();
    try {
      await store.ledger.close();
      expect(await store.hasLinks()).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe('a server given a ledger of its own', () => {
  it('stores the keys and charges there, not in the store, and closes it after the last charge, then the store', async () => {
    const store = await fixtureStore();
    const own = await openLedgerAt({ kind: 'sqlite', file: ':memory:' });
    const closed: string[] = [];
    const ledger: Ledger = { ...own, close: async () => (closed.push(`ledger at ${await own.balance('tester')}`), own.close()) };
    const served: Store = { ...store, close: async () => (closed.push('store'), store.close()) };
    const app = await createServer({ store: served, ledger, keys: KEYS, now: () => NOW });
    // The instance's decorations, as the routes read them.
    expect([app.store, app.ledger]).toEqual([served, ledger]);
    const response = await app.inject({ url: `${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`, headers: AUTH });
    expect([response.statusCode, response.headers['x-units-charged']]).toEqual([200, '45']);
    // The store's own ledger was not used: it holds no key.
    expect(await store.ledger.apiKeys()).toEqual([]);
    await app.close();
    // 1,000,000 granted, 45 charged (the catalogue's price of overview: 45 units a request).
    expect(closed).toEqual(['ledger at 999955', 'store']);
  });

  it('is required when the store has none: createServer rejects with a TypeError', async () => {
    const store = await fixtureStore();
    try {
      // As a store written in JavaScript before stores had a ledger would be.
      const withoutLedger = { ...store, ledger: undefined } as unknown as Store;
      await expect(createServer({ store: withoutLedger, keys: KEYS })).rejects.toThrow(
        new TypeError('createServer: no ledger: the store has none (store.ledger); pass one as the ledger option.'),
      );
    } finally {
      await store.close();
    }
  });
});
