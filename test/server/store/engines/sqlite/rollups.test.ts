/** The rollup differential suite on SQLite (in memory: queries on the calling thread). */
import { loadServerDeps } from '../../../../../src/server/deps.js';
import { createSqlStore } from '../../../../../src/server/store/engines/sql-engine.js';
import { openSqliteStore } from '../../../../../src/server/store/engines/sqlite/sqlite-store.js';
import { rollupSuite } from '../../loads/rollup-suite.js';

rollupSuite('SQLite', async () => {
  const { tldts } = await loadServerDeps();
  const store = await openSqliteStore();
  return { rollups: store, links: createSqlStore(store.connection, { parser: tldts, rollups: false }), close: () => store.close() };
});
