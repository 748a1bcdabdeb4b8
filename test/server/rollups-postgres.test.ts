/** The rollup differential suite on PostgreSQL (a fresh database on the test server). */
import { inject } from 'vitest';
import { loadServerDeps } from '../../src/server/deps.js';
import { createSqlStore } from '../../src/server/store/sql/sql-store.js';
import { openPostgresStore } from '../../src/server/store/postgres/postgres-store.js';
import { freshPostgresDatabase } from './postgres-database.js';
import { rollupSuite } from './rollup-suite.js';

rollupSuite('PostgreSQL', async () => {
  const { tldts } = await loadServerDeps();
  const store = await openPostgresStore({ url: await freshPostgresDatabase(inject('postgresUrl'), 'rollups'), parser: tldts });
  return { rollups: store, links: createSqlStore(store.connection, { parser: tldts, rollups: false }), close: () => store.close() };
});
