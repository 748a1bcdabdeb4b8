/**
 * The PostgreSQL schema, as numbered migrations tracked in `schema_migrations`. Each migration
 * runs in its own transaction under a transaction-scoped advisory lock, so two servers starting
 * at once against the same database apply it exactly once.
 *
 * Text columns are `COLLATE "C"`: ORDER BY, tie-breaks, range conditions (SUBFOLDER) and the
 * rollup key ranges all compare by code point, as SQLite's BINARY collation and the filter
 * language do. Booleans are BOOLEAN. Every integer is BIGINT: imports accept integers up to
 * 2^53 - 1 and filters bind their literals with the column's type, so a 32-bit column would turn a
 * valid value into an error; the pool reads int8 back as a JS number.
 *
 * @module
 * @internal
 */
import { StoreError } from '../../errors.js';
import { FILL_JOINED_ROLLUPS, FILL_SCORE_PROFILE, FORGET_UNKNOWN_VALUES, joinedRollupColumns } from '../../loads/rollups.js';
import type { PostgresConnection } from './connection.js';

/** `TEXT COLLATE "C" NOT NULL`, the type of every text column. */
const T = 'TEXT COLLATE "C" NOT NULL';
/** `BIGINT NOT NULL`. */
const I = 'BIGINT NOT NULL';
/** `BOOLEAN NOT NULL`. */
const B = 'BOOLEAN NOT NULL';

/**
 * The columns of `links` that the covering indexes of migration 5 carry: the id and every field of
 * the links list that is not text (timestamps are text, but short and often filtered and sorted
 * on; `is_new` is computed from `first_seen_at`). Part of migration 5's text: never change it,
 * add a migration.
 */
export const COVERED_LINK_COLUMNS: readonly string[] = Object.freeze([
  'id', 'first_seen_at', 'last_seen_at', 'page_score', 'domain_score', 'source_size', 'external_links_count', 'internal_links_count',
  'response_code', 'is_nofollow', 'is_ugc', 'is_sponsored', 'is_form', 'is_frame', 'is_image', 'is_sitewide_main', 'is_lost',
]);

/** The index the links are clustered by (migration 5 marks it; `CLUSTER links` uses it). */
export const CLUSTER_INDEX = 'links_by_domain';

/**
 * Migration n (1-based) brings the schema from version n-1 to n. Version 1 is the whole of the
 * SQLite schema's versions 1 and 2 (link identity and rollups): PostgreSQL databases start there.
 *
 * @example
 * ```ts
 * MIGRATIONS.length; // the version of a migrated database
 * ```
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE domains (
    domain ${T} PRIMARY KEY,
    ip_address ${T},
    country ${T},
    domain_score ${I}
  );

  CREATE TABLE target_pages (
    host ${T},
    path ${T},
    url ${T},
    title ${T},
    response_code ${I},
    page_score ${I},
    external_links_count ${I},
    internal_links_count ${I},
    PRIMARY KEY (host, path)
  );

  CREATE TABLE links (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    link_key BYTEA NOT NULL UNIQUE,
    source_url ${T},
    target_url ${T},
    anchor ${T},
    redirect_url ${T},
    source_title ${T},
    target_title ${T},
    image_url ${T},
    image_alt ${T},
    ip_address ${T},
    lang ${T},
    source_size ${I},
    external_links_count ${I},
    internal_links_count ${I},
    response_code ${I},
    page_score ${I},
    domain_score ${I},
    first_seen_at ${T},
    last_seen_at ${T},
    source_domain ${T},
    is_nofollow ${B},
    is_ugc ${B},
    is_sponsored ${B},
    is_form ${B},
    is_frame ${B},
    is_image ${B},
    is_sitewide_main ${B},
    is_lost ${B},
    ip_class_c ${T},
    target_host ${T},
    target_domain ${T},
    target_path ${T}
  );
  -- One index per scope; the trailing page_score serves the default order of links.
  CREATE INDEX links_by_domain ON links (target_domain, page_score);
  CREATE INDEX links_by_host ON links (target_host, page_score);
  CREATE INDEX links_by_page ON links (target_host, target_path, page_score);
  -- "New" counts: links of a target first seen since a date.
  CREATE INDEX links_new_by_domain ON links (target_domain, first_seen_at);
  CREATE INDEX links_new_by_host ON links (target_host, first_seen_at);

  CREATE TABLE keyword_metrics (
    keyword ${T},
    country ${T},
    month ${T},
    snapshot_at ${T},
    search_volume ${T},
    cpc ${T},
    competitive_density ${I},
    keyword_difficulty ${I},
    number_of_results ${T},
    intents ${T},
    serp_features ${T},
    trends ${T},
    PRIMARY KEY (keyword, country, month, snapshot_at)
  );

  CREATE TABLE api_keys (
    id ${T} PRIMARY KEY,
    key_hash BYTEA NOT NULL,
    units_remaining BIGINT NOT NULL CHECK (units_remaining >= 0)
  );

  CREATE TABLE r_targets (
    tkey ${T} PRIMARY KEY,
    tdomain ${T},
    backlinks_count ${I}, domains_count ${I}, urls_count ${I},
    follows_count ${I}, nofollows_count ${I}, sponsored_count ${I},
    ugc_count ${I}, frames_count ${I}, forms_count ${I},
    images_count ${I}, texts_count ${I}, ips_count ${I},
    ip_class_c_count ${I}, lost_count ${I}
  );
  CREATE INDEX r_targets_by_domain ON r_targets (tdomain);

  CREATE TABLE r_ref_domains (
    tkey ${T}, source_domain ${T}, backlinks_count ${I},
    first_seen_at ${T}, last_seen_at ${T}, follow_links ${I}, lost_links ${I},
    PRIMARY KEY (tkey, source_domain)
  );
  CREATE INDEX r_ref_domains_order ON r_ref_domains (tkey, backlinks_count DESC, source_domain ASC);
  CREATE INDEX r_ref_domains_by_source ON r_ref_domains (source_domain, tkey);

  CREATE TABLE r_ref_ips (
    tkey ${T}, ip_address ${T}, country ${T}, backlinks_count ${I},
    domains_count ${I}, first_seen_at ${T}, last_seen_at ${T},
    PRIMARY KEY (tkey, ip_address)
  );
  CREATE INDEX r_ref_ips_order ON r_ref_ips (tkey, domains_count DESC, ip_address ASC);

  CREATE TABLE r_pages (
    tkey ${T}, page_key ${T}, host ${T}, path ${T}, target_url ${T},
    backlinks_count ${I}, domains_count ${I}, first_seen_at ${T}, last_seen_at ${T},
    PRIMARY KEY (tkey, page_key)
  );
  CREATE INDEX r_pages_order ON r_pages (tkey, domains_count DESC, page_key ASC);

  CREATE TABLE r_anchors (
    tkey ${T}, anchor ${T}, backlinks_count ${I}, domains_count ${I},
    first_seen_at ${T}, last_seen_at ${T},
    PRIMARY KEY (tkey, anchor)
  );
  CREATE INDEX r_anchors_order ON r_anchors (tkey, domains_count DESC, anchor ASC);

  CREATE TABLE r_history (
    tkey ${T}, month ${T}, backlinks_count ${I}, domains_count ${I},
    follows_count ${I},
    PRIMARY KEY (tkey, month)
  );
  `,
  // 2: the links' default order (page_score DESC, then id) read straight off the index, no sort.
  `
  DROP INDEX IF EXISTS links_by_domain;
  DROP INDEX IF EXISTS links_by_host;
  DROP INDEX IF EXISTS links_by_page;
  CREATE INDEX links_by_domain ON links (target_domain, page_score DESC, id);
  CREATE INDEX links_by_host ON links (target_host, page_score DESC, id);
  CREATE INDEX links_by_page ON links (target_host, target_path, page_score DESC, id);
  `,
  // 3: score-profile per target key, filled here from the referring domains already rolled up.
  `
  CREATE TABLE r_score_profile (
    tkey ${T}, domain_score ${I}, domains_count ${I},
    PRIMARY KEY (tkey, domain_score)
  );
  ${FILL_SCORE_PROFILE}
  `,
  // 4: rollups read without joins (a referring domain's and a target page's own data written into
  // their rows at refresh), and links first seen per day for "new" counts.
  `
  ${joinedRollupColumns(T, I)}
  CREATE TABLE r_first_seen (
    tkey ${T}, day ${T}, links_count ${I},
    PRIMARY KEY (tkey, day)
  );
  ${FILL_JOINED_ROLLUPS}
  `,
  // 5: a target's links stored together (links_by_domain, which `CLUSTER links` uses; this migration
  // does not cluster), two covering indexes of one key column each, and deferred_indexes (the
  // indexes a load drops and builds again): docs/design-store.md, "PostgreSQL: its links clustered,
  // its counts from covering indexes". Each statement may run again on a database that has its
  // effect (test/server/http/migrations.test.ts takes the recorded version back without undoing it).
  `
  CREATE INDEX IF NOT EXISTS links_cover_domain ON links (target_domain) INCLUDE (${COVERED_LINK_COLUMNS.join(', ')});
  CREATE INDEX IF NOT EXISTS links_cover_host ON links (target_host) INCLUDE (${COVERED_LINK_COLUMNS.join(', ')});
  ALTER TABLE links CLUSTER ON links_by_domain;
  CREATE TABLE IF NOT EXISTS deferred_indexes (
    name ${T} PRIMARY KEY,
    definition ${T}
  );
  `,
  // 6: unknown values are no values: the rollups' empty IPs and record-less scores forgotten.
  FORGET_UNKNOWN_VALUES,
];

/** The advisory lock key every server takes while migrating (any constant; this one spells "bqmigr"). */
export const MIGRATION_LOCK = 0x62716d69677200n;

/**
 * Applies the migrations the database has not seen yet, each in its own transaction that first
 * takes the migration lock and re-reads the version (another server may have applied it while
 * this one waited), and returns the version the database had before. Throws a `StoreError`
 * (`schema_too_new`) when the database is newer than this code.
 *
 * @example
 * ```ts
 * await migrate(connection); // 0 for a new database; the schema is now at MIGRATIONS.length
 * ```
 */
export async function migrate(connection: Pick<PostgresConnection, 'withTransaction'>, migrations: readonly string[] = MIGRATIONS): Promise<number> {
  let before: number | undefined;
  for (;;) {
    const step = await connection.withTransaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK.toString()]);
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY)');
      const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
      const current = Number(rows[0]?.version ?? 0);
      if (current > migrations.length) {
        throw new StoreError('schema_too_new', `The database schema (version ${current}) is newer than this server knows (${migrations.length}).`);
      }
      if (current < migrations.length) {
        await client.query(migrations[current]!);
        await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [current + 1]);
      }
      return current;
    });
    before ??= step;
    if (step === migrations.length) return before;
  }
}

/** A quoted identifier. */
const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Drops the secondary indexes of `links` (every index that backs no constraint: the primary key
 * and the identity's unique index stay, the upsert needs the latter) for a load into an empty
 * store, and records their definitions in `deferred_indexes` in the same transaction, so that
 * whatever happens to the load they are built again: by {@link restoreLinkIndexes} at its end, or
 * when a store is next opened. Returns the names dropped.
 */
export async function deferLinkIndexes(connection: Pick<PostgresConnection, 'withTransaction'>): Promise<string[]> {
  return connection.withTransaction(async (client) => {
    const { rows } = await client.query<{ name: string; definition: string }>(
      `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE i.indrelid = 'links'::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
       ORDER BY c.relname`,
    );
    for (const row of rows) {
      await client.query('INSERT INTO deferred_indexes (name, definition) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [row.name, row.definition]);
      await client.query(`DROP INDEX ${quoted(row.name)}`);
    }
    return rows.map((row) => row.name);
  });
}

/**
 * Builds the indexes {@link deferLinkIndexes} dropped (only `names` when given), each in a
 * transaction that also removes its record, so an index is built once even when two processes
 * restore at the same time (the second waits on the record's row lock, then finds it gone).
 */
export async function restoreLinkIndexes(connection: Pick<PostgresConnection, 'withTransaction' | 'all'>, names?: readonly string[]): Promise<void> {
  const deferred = await connection.all<{ name: string }>({ sql: 'SELECT name FROM deferred_indexes ORDER BY name', params: [] });
  for (const { name } of deferred) {
    if (names && !names.includes(name)) continue;
    await connection.withTransaction(async (client) => {
      const { rows } = await client.query<{ definition: string }>('DELETE FROM deferred_indexes WHERE name = $1 RETURNING definition', [name]);
      const definition = rows[0]?.definition;
      if (definition !== undefined) await client.query(definition.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS '));
    });
  }
}
