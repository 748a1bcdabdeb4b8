/**
 * Builds the server on the fixture dataset (a fresh in-memory SQLite database per call), as
 * fastify/demo's `build(t)` does.
 */
import type { FastifyInstance } from 'fastify';
import { createServer, type ServerOptions } from '../../src/server/server.js';
import { openSqliteStore, type SqliteStore } from '../../src/server/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/server/store/store.js';
import * as fx from './fixture.js';

export const BASE = '/_api/apis/v4/backlinks/v1';
export const AUTH = { authorization: `Apikey ${fx.KEYS[0].key}` };

/** A store holding the fixture. */
export async function fixtureStore(): Promise<SqliteStore> {
  const store = await openSqliteStore();
  await loadFixture(store);
  return store;
}

/** Writes the fixture through a store's bulk writer (links in fixture order: ids 1, 2, ...). */
export async function loadFixture(store: Store): Promise<void> {
  const writer = await store.writer();
  await writer.domains(fx.domains);
  await writer.pages(fx.pages);
  await writer.links([...fx.exampleLinks, ...fx.rivalLinks, ...fx.otherLinks, ...fx.thirdLinks]);
  await writer.keywords(fx.keywordSnapshots);
  await writer.finish();
}

/** The server on a fresh fixture store; high rate limits unless given. */
export async function build(options: Partial<ServerOptions> = {}): Promise<{ app: FastifyInstance; store: SqliteStore }> {
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
