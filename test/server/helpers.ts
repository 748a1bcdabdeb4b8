/**
 * Builds the server on the fixture dataset, as fastify/demo's `build(t)` does, on the store the run
 * is for: SQLite by default (a fresh temporary database file, so queries run on the worker threads
 * as in production), PostgreSQL when `BQ_SERVER_STORE=postgres` (a fresh database on the test
 * server; the `server-postgres` vitest project sets it, so every server test runs on both).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, inject } from 'vitest';
import { loadServerDeps } from '../../src/server/deps.js';
import { createServer, type ServerOptions } from '../../src/server/server.js';
import type { SqlConnection } from '../../src/server/store/sql/connection.js';
import { openSqliteStore } from '../../src/server/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/server/store/store.js';
import * as fx from './fixture.js';
import { loadFixture } from './fixture.js';

export { loadFixture };
import { freshPostgresDatabase } from './postgres-database.js';

export const BASE = '/_api/apis/v4/backlinks/v1';
export const AUTH = { authorization: `Apikey ${fx.KEYS[0].key}` };

/** The store the server suite runs on in this run. */
export const STORE_KIND: 'sqlite' | 'postgres' = process.env['BQ_SERVER_STORE'] === 'postgres' ? 'postgres' : 'sqlite';

/** A store with the connection its queries run on (to break it on purpose in tests). */
export type TestStore = Store & { readonly connection: SqlConnection };

let dir: string | undefined;
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A new, empty store of this run's kind. */
export async function emptyStore(): Promise<TestStore> {
  if (STORE_KIND === 'postgres') {
    const { openPostgresStore } = await import('../../src/server/store/postgres/postgres-store.js');
    const { tldts } = await loadServerDeps();
    return openPostgresStore({ url: await freshPostgresDatabase(inject('postgresUrl'), 'server'), parser: tldts });
  }
  dir ??= mkdtempSync(join(tmpdir(), 'bq-server-store-'));
  return openSqliteStore({ file: join(dir, `${Math.random().toString(36).slice(2)}.db`), readers: 2 });
}

/** A store holding the fixture. */
export async function fixtureStore(): Promise<TestStore> {
  const store = await emptyStore();
  await loadFixture(store);
  return store;
}

/** The server on a fresh fixture store; high rate limits unless given. */
export async function build(options: Partial<ServerOptions> = {}): Promise<{ app: FastifyInstance; store: TestStore }> {
  const store = await fixtureStore();
  const app = await createServer({
    store,
    keys: fx.KEYS,
    now: () => fx.NOW,
    rateLimits: { perSecond: 1_000_000, concurrent: 1_000_000 },
    ...options,
  });
  return { app, store };
}

/** GET with the test key. */
export async function get(app: FastifyInstance, path: string, query: Record<string, string> = {}, headers: Record<string, string> = AUTH) {
  return app.inject({ method: 'GET', url: path.startsWith('/') ? path : `${BASE}/${path}`, query, headers });
}

/** A store whose calls can be held in flight: see {@link gatedFixtureStore}. */
export interface GatedStore {
  /** The real store underneath (its balance, its close). */
  readonly real: TestStore;
  /** The store to serve: the real one, with `method` waiting at the gate. */
  readonly store: Store;
  /** Resolves once a call has reached the gate: it is provably in flight. */
  readonly inside: Promise<void>;
  /** Opens the gate. */
  release(): void;
}

/**
 * The fixture store, whose `overview` or `grouped` waits at a gate the test opens, so a request can
 * be held in flight (shutdown, a client going away).
 *
 * @example
 * ```ts
 * const { store, inside, release } = await gatedFixtureStore('overview');
 * ```
 */
export async function gatedFixtureStore(method: 'overview' | 'grouped'): Promise<GatedStore> {
  const real = await fixtureStore();
  let entered!: () => void;
  let release!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  const store: Store =
    method === 'overview'
      ? { ...real, overview: async (target, clock) => (entered(), await gate, real.overview(target, clock)) }
      : { ...real, grouped: async (operation, query) => (entered(), await gate, real.grouped(operation, query)) };
  return { real, store, inside, release };
}
