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
import type { PoolClient } from 'pg';
import type { LinksTable } from '../../loads/writer.js';
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
  // indexes loads of earlier versions dropped and built again): docs/design-store.md, "PostgreSQL: its links clustered,
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
 * The table a load into an empty store writes its links into: made in the load's transaction (no
 * other session sees it), indexed and clustered there, and put in the place of `links` just
 * before the commit ({@link swapInNextLinks}).
 */
export const NEXT_LINKS = 'links_next' satisfies LinksTable;

/** An index of {@link NEXT_LINKS}: the name its counterpart has on `links`, which it takes at the swap, and its name until then. */
interface NextIndex {
  readonly name: string;
  readonly next: string;
  /** `CREATE INDEX` on {@link NEXT_LINKS}, for an index that backs no constraint (built once the links are in). */
  readonly create: string | null;
}

/** What {@link createNextLinks} made, for {@link buildNextLinks} and {@link swapInNextLinks}. */
export interface NextLinks {
  readonly indexes: readonly NextIndex[];
  /** The name of the identity sequence of `links` (the new table's takes it). */
  readonly sequence: string;
}

/**
 * Makes {@link NEXT_LINKS} for a load into an empty store, in the load's transaction: the columns of
 * `links` with their types, defaults, identity and checks, and the constraints that have an index
 * (the primary key, and the identity's unique key that the upsert needs), each index named
 * `links_next_...` until the swap; the secondary indexes are built once the links are in
 * ({@link buildNextLinks}), from the definitions of those of `links`, so they are the migrations'
 * own. A table of that name left over (none can be: it is made and renamed in one transaction) is
 * dropped first. Its identity starts afresh: nothing outside `links` refers to a link's id.
 */
export async function createNextLinks(client: Pick<PoolClient, 'query'>): Promise<NextLinks> {
  await client.query(`DROP TABLE IF EXISTS ${NEXT_LINKS}; CREATE TABLE ${NEXT_LINKS} (LIKE links INCLUDING ALL EXCLUDING INDEXES)`);
  const { rows } = await client.query<{ name: string; definition: string; constraint: boolean }>(
    `SELECT c.relname AS name, coalesce(pg_get_constraintdef(k.oid), pg_get_indexdef(i.indexrelid)) AS definition, k.oid IS NOT NULL AS constraint
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid LEFT JOIN pg_constraint k ON k.conindid = i.indexrelid
     WHERE i.indrelid = 'links'::regclass ORDER BY c.relname`,
  );
  const indexes: NextIndex[] = [];
  for (const { name, definition, constraint } of rows) {
    const next = `${NEXT_LINKS}_${name.replace(/^links_/, '')}`;
    if (constraint) await client.query(`ALTER TABLE ${NEXT_LINKS} ADD CONSTRAINT ${quoted(next)} ${definition}`);
    indexes.push({ name, next, create: constraint ? null : definition.replace(/^(CREATE (UNIQUE )?INDEX )\S+ ON \S+/, `$1${quoted(next)} ON ${NEXT_LINKS}`) });
  }
  const sequence = await client.query<{ name: string }>(`SELECT relname AS name FROM pg_class WHERE oid = pg_get_serial_sequence('links', 'id')::regclass`);
  return { indexes, sequence: sequence.rows[0]!.name };
}

/**
 * Once the links are in {@link NEXT_LINKS}: builds {@link CLUSTER_INDEX}'s counterpart, rewrites the
 * table in its order (`CLUSTER`, which marks it as the table's cluster index), then builds the other
 * secondary indexes on the ordered table.
 */
export async function buildNextLinks(client: Pick<PoolClient, 'query'>, { indexes }: NextLinks): Promise<void> {
  const cluster = indexes.find((index) => index.name === CLUSTER_INDEX && index.create !== null);
  if (cluster) await client.query(`${cluster.create!}; CLUSTER ${NEXT_LINKS} USING ${quoted(cluster.next)}`);
  for (const index of indexes) if (index !== cluster && index.create !== null) await client.query(index.create);
}

/** How long one try to lock `links` for the swap waits for the calls reading it (under the request sessions' lock wait of 2 s). */
const SWAP_LOCK_TRY_MS = 200;
/** Tries before the swap waits for its lock as long as it takes. */
const SWAP_LOCK_TRIES = 50;

/**
 * Puts {@link NEXT_LINKS} in the place of `links`: the last step of a load into an empty store
 * before its commit. `links` is locked first in short tries, each given up (to a savepoint) when
 * the calls reading it do not end within {@link SWAP_LOCK_TRY_MS}, so that the calls queued behind
 * the lock never wait long; then the old, empty table is dropped and the new one, its indexes,
 * constraints and identity sequence take their names. Calls wait only for this step and the commit.
 */
export async function swapInNextLinks(client: Pick<PoolClient, 'query'>, next: NextLinks): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= SWAP_LOCK_TRIES;
    await client.query('SAVEPOINT bq_swap');
    try {
      if (!last) await client.query(`SET LOCAL lock_timeout = ${SWAP_LOCK_TRY_MS}`);
      await client.query('LOCK TABLE links IN ACCESS EXCLUSIVE MODE');
      await client.query('RELEASE SAVEPOINT bq_swap');
      break;
    } catch (error) {
      if (last || (error as { code?: unknown }).code !== '55P03') throw error;
      await client.query('ROLLBACK TO SAVEPOINT bq_swap');
      await new Promise((resolve) => setTimeout(resolve, SWAP_LOCK_TRY_MS / 4));
    }
  }
  await client.query(`SET LOCAL lock_timeout TO DEFAULT; DROP TABLE links; ALTER TABLE ${NEXT_LINKS} RENAME TO links`);
  // An index's new name is its constraint's too.
  for (const index of next.indexes) await client.query(`ALTER INDEX ${quoted(index.next)} RENAME TO ${quoted(index.name)}`);
  const { rows } = await client.query<{ name: string }>(`SELECT pg_get_serial_sequence('links', 'id') AS name`);
  await client.query(`ALTER SEQUENCE ${rows[0]!.name} RENAME TO ${quoted(next.sequence)}`);
}

/**
 * Builds the indexes of `links` recorded in `deferred_indexes`: loads into an empty store of
 * earlier versions dropped them and recorded their definitions, and one that stopped half way left
 * them to the next open. Each is built in a transaction that also removes its record, so an index
 * is built once even when two processes restore at the same time (the second waits on the record's
 * row lock, then finds it gone).
 */
export async function restoreLinkIndexes(connection: Pick<PostgresConnection, 'withTransaction' | 'all'>): Promise<void> {
  const deferred = await connection.all<{ name: string }>({ sql: 'SELECT name FROM deferred_indexes ORDER BY name', params: [] });
  for (const { name } of deferred) {
    await connection.withTransaction(async (client) => {
      const { rows } = await client.query<{ definition: string }>('DELETE FROM deferred_indexes WHERE name = $1 RETURNING definition', [name]);
      const definition = rows[0]?.definition;
      if (definition !== undefined) await client.query(definition.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS '));
    });
  }
}
