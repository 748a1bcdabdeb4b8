/**
 * The store, the units ledger and the accounts over it as decorations of the Fastify instance
 * (`fastify.store`, `fastify.ledger`, `fastify.accounts`), as `@fastify/postgres` decorates
 * `fastify.pg`: the guard and the routes read them there. The plugin's own `onClose` writes the
 * charges not written yet, then closes the ledger and the store, in that order, whatever other
 * `onClose` hooks the instance has.
 *
 * @module
 * @internal
 */
import { serverPlugin } from '../deps.js';
import { localAccounts, type Accounts } from '../accounts/accounts.js';
import type { Ledger } from '../store/ledger.js';
import type { Store } from '../store/store.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The store the operations answer from. @internal */
    store: Store;
    /** The units ledger: API keys and balances. @internal */
    ledger: Ledger;
    /** The keys' limits and units over the ledger (the primary's, in a worker of `serve --workers`). @internal */
    accounts: Accounts;
  }
}

/** The name of {@link storePlugin}, for the `dependencies` of plugins that read its decorations. @internal */
export const STORE_PLUGIN = 'backlink-query-store';

/** Options of {@link storePlugin}. @internal */
export interface StorePluginOptions {
  readonly store: Store;
  readonly ledger: Ledger;
  /** The keys' limits and units (default: this process's own, in memory over the ledger). */
  readonly accounts?: Accounts;
  /** Real time in milliseconds, for the per-key rate limit of the default accounts. */
  readonly wallClock: () => number;
  /** Close the ledger and the store when the instance closes (default true). */
  readonly close?: boolean;
}

/**
 * Decorates the instance with the store, the ledger and the accounts, and closes them with it.
 *
 * @example
 * ```ts
 * await fastify.register(storePlugin, { store, ledger: store.ledger, wallClock: Date.now });
 * fastify.ledger.balance('me');
 * ```
 * @internal
 */
export const storePlugin = serverPlugin<StorePluginOptions>(
  async (fastify, options) => {
    const { store, ledger } = options;
    const accounts =
      options.accounts ??
      localAccounts(ledger, options.wallClock, {
        onLost: (keyId, units) => fastify.log.warn({ key_id: keyId, units }, 'units lost: another process spent them first'),
        onWriteError: (error) => fastify.log.error({ err: error }, 'charges not written yet; retrying'),
      });
    fastify.decorate('store', store);
    fastify.decorate('ledger', ledger);
    fastify.decorate('accounts', accounts);
    // Runs after the HTTP server has closed (every call answered): the last charges first, then
    // the ledger (unless it is the store's own, which the store closes), then the store.
    fastify.addHook('onClose', async () => {
      await accounts.flush();
      if (options.close === false) return;
      if (ledger !== store.ledger) await ledger.close();
      await store.close();
    });
  },
  { name: STORE_PLUGIN },
);
