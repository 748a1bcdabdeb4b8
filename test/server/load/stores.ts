/**
 * The stores a load test runs on, each opened empty: the embedded store and SQLite as files in
 * the folder `dir()` gives (so queries run on the worker threads as in production), PostgreSQL as a fresh database
 * of the test server.
 */
import { join } from 'node:path';
import { inject } from 'vitest';
import { loadServerDeps } from '../../../src/server/deps.js';
import { openSqliteStore } from '../../../src/server/store/engines/sqlite/sqlite-store.js';
import type { Store } from '../../../src/server/store/store.js';
import { freshPostgresDatabase } from '../support/postgres-database.js';

/** Openers of the three stores, their files and database named after `name`. */
export function loadStores(dir: () => string, name: string): Readonly<Record<string, () => Promise<Store>>> {
  return {
    embedded: async () => {
      const { openEmbeddedStore } = await import('../../../src/server/store/engines/embedded/embedded-store.js');
      return openEmbeddedStore({ file: join(dir(), `${name}-embedded.db`) });
    },
    sqlite: () => openSqliteStore({ file: join(dir(), `${name}.db`) }),
    postgres: async () => {
      const { openPostgresStore } = await import('../../../src/server/store/engines/postgres/postgres-store.js');
      const { tldts } = await loadServerDeps();
      return openPostgresStore({ url: await freshPostgresDatabase(inject('postgresUrl'), name), parser: tldts });
    },
  };
}
