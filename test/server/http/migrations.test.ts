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
  // A referring domain with no row in `domains` has no known score: not counted.
  const writer = await store.writer();
  await writer.links([{ ...fx.exampleLinks[0]!, source_url: 'https://never-listed.test/page', source_domain: 'never-listed.test', target_url: 'https://only-one-link.test/' }]);
  await writer.finish();
  const refreshed = await profile(store);
  expect(refreshed.length).toBeGreaterThan(100); // something to compare
  expect(refreshed.filter((row) => (row as { tkey: string }).tkey === 'd:only-one-link.test')).toEqual([]);
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

/** The migration that stops counting unknown values (empty IPs, referring domains without a record). */
const UNKNOWN_VALUES_VERSION = STORE_KIND === 'postgres' ? 6 : 7;

const counted = async (store: TestStore) => ({
  targets: await store.connection.all(raw('SELECT tkey, ips_count, ip_class_c_count FROM r_targets ORDER BY tkey')),
  refIps: await store.connection.all(raw('SELECT tkey, ip_address, country, backlinks_count, domains_count FROM r_ref_ips ORDER BY tkey, ip_address')),
  profile: await profile(store),
});

it('forgetting unknown values in a database with rollups of the rules before: as a refresh would write them', async () => {
  const location = STORE_KIND === 'postgres' ? await freshPostgresDatabase(inject('postgresUrl'), 'migrations') : join(dir, 'v6.db');
  const { tldts } = await loadServerDeps();
  const store = await open(location);
  await seedSample(store, tldts, { links: 3_000, seed: 7, now: new Date('2026-06-15T00:00:00Z') });
  await loadFixture(store);
  // Links without an IP to two targets of the fixture (no-ip.test only, and example.com beside its
  // IPs), from a referring domain without a record.
  const writer = await store.writer();
  await writer.links([
    { ...fx.exampleLinks[0]!, source_url: 'https://no-record.test/1', source_domain: 'no-record.test', ip_address: '', target_url: 'https://no-ip.test/' },
    { ...fx.exampleLinks[0]!, source_url: 'https://no-record.test/2', source_domain: 'no-record.test', ip_address: '', target_url: 'https://example.com/' },
  ]);
  await writer.finish();
  const refreshed = await counted(store);
  // As the rules before wrote them: '' counted as an IP and a /24 network of every key of those
  // links, listed in r_ref_ips (country '': no-record.test has none), and the referring domains
  // without a record counted at score 0 (no-record.test, and the fixture's four of boundary.com).
  const keys = ['d:no-ip.test', 'h:no-ip.test', 'p:no-ip.test/', 'd:example.com', 'h:example.com', 'p:example.com/'];
  const list = keys.map((key) => `'${key}'`).join(', ');
  await store.connection.transaction([
    raw(`UPDATE r_targets SET ips_count = ips_count + 1, ip_class_c_count = ip_class_c_count + 1 WHERE tkey IN (${list})`),
    ...keys.map((key) => raw(`INSERT INTO r_ref_ips (tkey, ip_address, country, backlinks_count, domains_count, first_seen_at, last_seen_at) VALUES ('${key}', '', '', 1, 1, '2024-01-10T08:00:00', '2026-06-01T00:00:00')`)),
    raw('DELETE FROM r_score_profile'),
    raw(`INSERT INTO r_score_profile (tkey, domain_score, domains_count)
      SELECT r.tkey, coalesce(d.domain_score, 0), count(*) FROM r_ref_domains r LEFT JOIN domains d ON d.domain = r.source_domain GROUP BY r.tkey, coalesce(d.domain_score, 0)`),
    STORE_KIND === 'postgres' ? raw(`DELETE FROM schema_migrations WHERE version >= ${UNKNOWN_VALUES_VERSION}`) : raw(`PRAGMA user_version = ${UNKNOWN_VALUES_VERSION - 1}`),
  ]);
  const before = await counted(store);
  // Something to forget: the rows above differ from the refresh's.
  expect(before.refIps.length).toBe(refreshed.refIps.length + keys.length);
  expect(before.profile).toContainEqual({ tkey: 'd:no-ip.test', domain_score: 0, domains_count: 1 });
  expect(before.profile).toContainEqual({ tkey: 'd:boundary.com', domain_score: 0, domains_count: 4 });
  expect(refreshed.targets).toContainEqual({ tkey: 'd:no-ip.test', ips_count: 0, ip_class_c_count: 0 });
  await store.close();

  const migrated = await open(location);
  try {
    expect(await counted(migrated)).toEqual(refreshed);
  } finally {
    await migrated.close();
  }
});
