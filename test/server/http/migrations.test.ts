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
import { loadServerDeps } from '../../../src/server/deps.js';
import { seedSample } from '../../../src/server/sample/generate.js';
import { raw } from '../../../src/server/store/fragment.js';
import { loadFixture, STORE_KIND, type TestStore } from '../support/helpers.js';
import * as fx from '../support/fixture.js';
import { freshPostgresDatabase } from '../support/postgres-database.js';

const dir = mkdtempSync(join(tmpdir(), 'bq-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Opens the database at `location` (migrating it), on this run's store. */
async function open(location: string): Promise<TestStore> {
  const { tldts } = await loadServerDeps();
  if (STORE_KIND === 'postgres') {
    const { openPostgresStore } = await import('../../../src/server/store/engines/postgres/postgres-store.js');
    return openPostgresStore({ url: location, parser: tldts });
  }
  const { openSqliteStore } = await import('../../../src/server/store/engines/sqlite/sqlite-store.js');
  return openSqliteStore({ file: location, readers: 1, parser: tldts });
}

/** The migration that adds `r_score_profile`, and the one that writes domains' and pages' data into the rollups. */
const SCORE_PROFILE_VERSION = STORE_KIND === 'postgres' ? 3 : 4;
const JOINED_VERSION = SCORE_PROFILE_VERSION + 1;

/** Statements that set the recorded schema version (on SQLite, also undoing the later `store_meta` migration). */
const schemaVersion = (version: number) =>
  STORE_KIND === 'postgres'
    ? [raw(`DELETE FROM schema_migrations WHERE version > ${version}`)]
    : [raw('DROP TABLE IF EXISTS store_meta'), raw(`PRAGMA user_version = ${version}`)];

/**
 * Statements that take the schema back to before the joined-rollups migration: its columns and
 * table dropped, and `r_pages.target_url` (the least URL linked at the page) written back by hand.
 */
function undoJoinedRollups() {
  return [
    raw('DROP TABLE r_first_seen'),
    ...['ip_address', 'country', 'domain_score'].map((column) => raw(`ALTER TABLE r_ref_domains DROP COLUMN ${column}`)),
    ...['source_url', 'source_title', 'response_code', 'external_links_count', 'internal_links_count'].map((column) => raw(`ALTER TABLE r_pages DROP COLUMN ${column}`)),
    raw(`ALTER TABLE r_pages ADD COLUMN target_url ${STORE_KIND === 'postgres' ? 'TEXT COLLATE "C"' : 'TEXT'} NOT NULL DEFAULT ''`),
    raw('UPDATE r_pages SET target_url = (SELECT min(l.target_url) FROM links l WHERE l.target_host = r_pages.host AND l.target_path = r_pages.path)'),
  ];
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
  // Back to the schema before the table existed (and before the later migration).
  await store.connection.transaction([...undoJoinedRollups(), raw('DROP TABLE r_score_profile'), ...schemaVersion(SCORE_PROFILE_VERSION - 1)]);
  await store.close();

  const migrated = await open(location);
  try {
    expect(await profile(migrated)).toEqual(refreshed);
  } finally {
    await migrated.close();
  }
});

const joined = async (store: TestStore) => ({
  refDomains: await store.connection.all(raw('SELECT tkey, source_domain, ip_address, country, domain_score FROM r_ref_domains ORDER BY tkey, source_domain')),
  pages: await store.connection.all(
    raw('SELECT tkey, page_key, source_url, source_title, response_code, external_links_count, internal_links_count FROM r_pages ORDER BY tkey, page_key'),
  ),
  firstSeen: await store.connection.all(raw('SELECT tkey, day, links_count FROM r_first_seen ORDER BY tkey, day')),
});

it('writing domains\' and pages\' data into a database with rollups, and links first seen per day, fills them as a refresh would', async () => {
  const location = STORE_KIND === 'postgres' ? await freshPostgresDatabase(inject('postgresUrl'), 'migrations') : join(dir, 'v4.db');
  const { tldts } = await loadServerDeps();
  const store = await open(location);
  await seedSample(store, tldts, { links: 3_000, seed: 6, now: new Date('2026-06-15T00:00:00Z') });
  await loadFixture(store);
  const writer = await store.writer();
  await writer.links([{ ...fx.exampleLinks[0]!, source_url: 'https://never-listed.test/page', source_domain: 'never-listed.test' }]);
  await writer.finish();
  const refreshed = await joined(store);
  // Something to compare: known and unknown referring domains, pages with and without their own row.
  expect(refreshed.refDomains.some((row) => (row as { country: string }).country !== '')).toBe(true);
  expect(refreshed.refDomains.some((row) => (row as { country: string }).country === '')).toBe(true);
  expect(refreshed.pages.some((row) => (row as { source_title: string }).source_title !== '')).toBe(true);
  expect(refreshed.firstSeen.length).toBeGreaterThan(1000);
  await store.connection.transaction([...undoJoinedRollups(), ...schemaVersion(JOINED_VERSION - 1)]);
  await store.close();

  const migrated = await open(location);
  try {
    expect(await joined(migrated)).toEqual(refreshed);
  } finally {
    await migrated.close();
  }
});
