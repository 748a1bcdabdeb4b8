/** The rollup differential suite on PostgreSQL (a fresh database on the test server). */
import { inject } from 'vitest';
import { loadServerDeps } from '../../../../../src/server/deps.js';
import { createSqlStore } from '../../../../../src/server/store/engines/sql-engine.js';
import { openPostgresStore } from '../../../../../src/server/store/engines/postgres/postgres-store.js';
import { freshPostgresDatabase } from '../../../support/postgres-database.js';
import { rollupSuite } from '../../loads/rollup-suite.js';

rollupSuite('PostgreSQL', async () => {
  const { tldts } = await loadServerDeps();
  const store = await openPostgresStore({ url: await freshPostgresDatabase(inject('postgresUrl'), 'rollups'), parser: tldts });
  return { rollups: store, links: createSqlStore(store.connection, { parser: tldts, rollups: false }), close: () => store.close() };
  // 15 generated cases per operation and target (not SQLite's 25): the lowering is the same SQL
  // store's, and PostgreSQL's own differential suites cover its dialect; ROLLUP_RUNS=25 runs them all.
}, { runs: 15 });
