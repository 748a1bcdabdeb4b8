/**
 * A migration that adds a rollup table to a database already holding data fills it with what a
 * refresh would have written: the migration's SQL (grouping `r_ref_domains` joined to `domains`)
 * and `rollupRows` (one JavaScript pass over the links) are two implementations, and must agree.
 * On the store this run is for (SQLite, or PostgreSQL in the `server-postgres` project).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { loadServerDeps } from '../../src/server/deps.js';
import { seedSample } from '../../src/server/sample/generate.js';
import { raw } from '../../src/server/store/sql/fragment.js';
import { loadFixture, STORE_KIND, type TestStore } from './helpers.js';
import * as fx from './fixture.js';
import { freshPostgresDatabase } from './postgres-database.js';

const dir = mkdtempSync(join(tmpdir(), 'bq-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Opens the database at `location` (migrating it), on this run's store. */
async function open(location: string): Promise<TestStore> {
  const { tldts } = await loadServerDeps();
  if (STORE_KIND === 'postgres') {
    const { openPostgresStore } = await import('../../src/server/store/postgres/postgres-store.js');
    return openPostgresStore({ url: location, parser: tldts });
  }
  const { openSqliteStore } = await import('../../src/server/store/sqlite/sqlite-store.js');
  return openSqliteStore({ file: location, readers: 1, parser: tldts });
}

const profile = (store: TestStore) => store.connection.all(raw('SELECT tkey, domain_score, domains_count FROM r_score_profile ORDER BY tkey, domain_score'));

it('adding r_score_profile to a database with rollups fills it as a refresh would', async () => {
  const location = STORE_KIND === 'postgres' ? await freshPostgresDatabase(inject('postgresUrl'), 'migrations') : join(dir, 'v3.db');
  const { tldts } = await loadServerDeps();
  const store = await open(location);
  await seedSample(store, tldts, { links: 3_000, seed: 5, now: new Date('2026-06-15T00:00:00Z') });
  await loadFixture(store);
  // A referring domain with no row in `domains` counts at score 0.
  const writer = await store.writer();
  await writer.links([{ ...fx.exampleLinks[0]!, source_url: 'https://never-listed.test/page', source_domain: 'never-listed.test', target_url: 'https://only-one-link.test/' }]);
  await writer.finish();
  const refreshed = await profile(store);
  expect(refreshed.length).toBeGreaterThan(100); // something to compare
  expect(refreshed).toContainEqual({ tkey: 'd:only-one-link.test', domain_score: 0, domains_count: 1 });
  // Back to the schema before the table existed.
  await store.connection.transaction([
    raw('DROP TABLE r_score_profile'),
    raw(STORE_KIND === 'postgres' ? 'DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)' : 'PRAGMA user_version = 3'),
  ]);
  await store.close();

  const migrated = await open(location);
  try {
    expect(await profile(migrated)).toEqual(refreshed);
  } finally {
    await migrated.close();
  }
});
