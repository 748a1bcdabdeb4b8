/**
 * The server on the fixture, as a process of its own, for the fault tests (`startFixtureServer` in
 * load-kit.ts): opens the store the JSON config in argv[2] names (a SQLite file or a PostgreSQL
 * URL, with the time bounds to test), loads the fixture into it when it is empty, listens on a
 * free port of 127.0.0.1, prints `listening on URL`, and closes gracefully on SIGTERM.
 */
import { loadServerDeps } from '../../../src/server/deps.js';
import { startServer } from '../../../src/server/server.js';
import type { Store } from '../../../src/server/store/store.js';
import * as fx from '../support/fixture.js';
import { LOAD_KEY, type FixtureServerConfig } from './load-kit.js';

const config = JSON.parse(process.argv[2] ?? '{}') as FixtureServerConfig;
const { tldts } = await loadServerDeps();
let store: Store;
if (config.engine === 'postgres') {
  const { openPostgresStore } = await import('../../../src/server/store/engines/postgres/postgres-store.js');
  const { url, engine: _, ...bounds } = config;
  store = await openPostgresStore({ url, parser: tldts, ...bounds });
} else {
  const { openSqliteStore } = await import('../../../src/server/store/engines/sqlite/sqlite-store.js');
  const { file, engine: _, ...bounds } = config;
  store = await openSqliteStore({ file, ...bounds });
}
if (!(await store.hasLinks())) await fx.loadFixture(store);
const server = await startServer({
  store,
  keys: [...fx.KEYS, LOAD_KEY],
  now: () => fx.NOW,
  port: 0,
  host: '127.0.0.1',
  signals: true,
  onClosed: () => process.stderr.write('fixture server closed\n'),
});
process.stdout.write(`listening on ${server.url}\n`);
