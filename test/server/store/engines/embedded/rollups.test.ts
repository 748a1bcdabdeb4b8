/**
 * The rollup differential suite on the embedded store (in memory: SQLite rows on the calling
 * thread, DuckDB columns): every answer from its rollups, column copies and precomputed
 * competitors equals the links grouped per call in SQLite.
 */
import { loadServerDeps } from '../../../../../src/server/deps.js';
import { openEmbeddedStore } from '../../../../../src/server/store/engines/embedded/embedded-store.js';
import { createSqlStore } from '../../../../../src/server/store/engines/sql-engine.js';
import { rollupSuite } from '../../loads/rollup-suite.js';

rollupSuite('embedded', async () => {
  const { tldts } = await loadServerDeps();
  // Refreshes in groups of about 700 links: the sample's 2,500 links make several groups, and its
  // largest domain one of its own.
  const store = await openEmbeddedStore({ groupLinks: 700 });
  return { rollups: store, links: createSqlStore(store.connection, { parser: tldts, rollups: false }), close: () => store.close() };
  // DuckDB answers the rollups side: 15 generated cases per operation and target (not 25) keep it
  // near 20 s; ROLLUP_RUNS=25 runs them all.
}, { timeoutMs: 600_000, runs: 15 });
