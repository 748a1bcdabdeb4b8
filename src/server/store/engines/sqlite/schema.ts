/**
 * The SQLite schema, as numbered migrations tracked in `PRAGMA user_version`. Booleans are
 * INTEGER 0/1 and text uses the default BINARY collation, which is the code-point order the filter
 * language compares by.
 *
 * @module
 * @internal
 */
import type { Database } from 'better-sqlite3';
import { StoreError } from '../../errors.js';
import { FILL_JOINED_ROLLUPS, FILL_SCORE_PROFILE, FORGET_UNKNOWN_VALUES, joinedRollupColumns } from '../../loads/rollups.js';

/**
 * Migration n (1-based) brings the schema from version n-1 to n.
 *
 * @example
 * ```ts
 * db.pragma('user_version', { simple: true }) === MIGRATIONS.length; // after migrate(db)
 * ```
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE domains (
    domain TEXT PRIMARY KEY,
    ip_address TEXT NOT NULL,
    country TEXT NOT NULL,
    domain_score INTEGER NOT NULL
  ) WITHOUT ROWID;

  CREATE TABLE target_pages (
    host TEXT NOT NULL,
    path TEXT NOT NULL,
    url TEXT NOT NULL,
    title TEXT NOT NULL,
    response_code INTEGER NOT NULL,
    page_score INTEGER NOT NULL,
    external_links_count INTEGER NOT NULL,
    internal_links_count INTEGER NOT NULL,
    PRIMARY KEY (host, path)
  ) WITHOUT ROWID;

  CREATE TABLE links (
    id INTEGER PRIMARY KEY,
    source_url TEXT NOT NULL,
    target_url TEXT NOT NULL,
    anchor TEXT NOT NULL,
    redirect_url TEXT NOT NULL,
    source_title TEXT NOT NULL,
    target_title TEXT NOT NULL,
    image_url TEXT NOT NULL,
    image_alt TEXT NOT NULL,
    ip_address TEXT NOT NULL,
    lang TEXT NOT NULL,
    source_size INTEGER NOT NULL,
    external_links_count INTEGER NOT NULL,
    internal_links_count INTEGER NOT NULL,
    response_code INTEGER NOT NULL,
    page_score INTEGER NOT NULL,
    domain_score INTEGER NOT NULL,
    first_seen_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    source_domain TEXT NOT NULL,
    is_nofollow INTEGER NOT NULL,
    is_ugc INTEGER NOT NULL,
    is_sponsored INTEGER NOT NULL,
    is_form INTEGER NOT NULL,
    is_frame INTEGER NOT NULL,
    is_image INTEGER NOT NULL,
    is_sitewide_main INTEGER NOT NULL,
    is_lost INTEGER NOT NULL,
    ip_class_c TEXT NOT NULL,
    target_host TEXT NOT NULL,
    target_domain TEXT NOT NULL,
    target_path TEXT NOT NULL
  );
  -- One index per scope; the trailing page_score serves the default order of links.
  CREATE INDEX links_by_domain ON links (target_domain, page_score);
  CREATE INDEX links_by_host ON links (target_host, page_score);
  CREATE INDEX links_by_page ON links (target_host, target_path);
  -- Competitors and matrix walk the domain graph in both directions.
  CREATE INDEX links_domain_edges ON links (target_domain, source_domain);
  CREATE INDEX links_source_edges ON links (source_domain, target_domain);

  CREATE TABLE keyword_metrics (
    keyword TEXT NOT NULL,
    country TEXT NOT NULL,
    month TEXT NOT NULL,
    snapshot_at TEXT NOT NULL,
    search_volume TEXT NOT NULL,
    cpc TEXT NOT NULL,
    competitive_density INTEGER NOT NULL,
    keyword_difficulty INTEGER NOT NULL,
    number_of_results TEXT NOT NULL,
    intents TEXT NOT NULL,
    serp_features TEXT NOT NULL,
    trends TEXT NOT NULL,
    PRIMARY KEY (keyword, country, month, snapshot_at)
  ) WITHOUT ROWID;

  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    key_hash BLOB NOT NULL,
    units_remaining INTEGER NOT NULL CHECK (units_remaining >= 0)
  ) WITHOUT ROWID;
  `,
  // 2: link identity (re-imports replace), rollups per target key (see store/loads/rollups.ts), and
  // indexes for "new" counts; the domain-graph indexes on links give way to the rollups'.
  `
  ALTER TABLE links ADD COLUMN link_key BLOB;
  CREATE UNIQUE INDEX links_identity ON links (link_key);
  DROP INDEX links_by_page;
  DROP INDEX links_domain_edges;
  DROP INDEX links_source_edges;
  CREATE INDEX links_by_page ON links (target_host, target_path, page_score);
  CREATE INDEX links_new_by_domain ON links (target_domain, first_seen_at);
  CREATE INDEX links_new_by_host ON links (target_host, first_seen_at);

  CREATE TABLE r_targets (
    tkey TEXT PRIMARY KEY,
    tdomain TEXT NOT NULL,
    backlinks_count INTEGER NOT NULL, domains_count INTEGER NOT NULL, urls_count INTEGER NOT NULL,
    follows_count INTEGER NOT NULL, nofollows_count INTEGER NOT NULL, sponsored_count INTEGER NOT NULL,
    ugc_count INTEGER NOT NULL, frames_count INTEGER NOT NULL, forms_count INTEGER NOT NULL,
    images_count INTEGER NOT NULL, texts_count INTEGER NOT NULL, ips_count INTEGER NOT NULL,
    ip_class_c_count INTEGER NOT NULL, lost_count INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX r_targets_by_domain ON r_targets (tdomain);

  CREATE TABLE r_ref_domains (
    tkey TEXT NOT NULL, source_domain TEXT NOT NULL, backlinks_count INTEGER NOT NULL,
    first_seen_at TEXT NOT NULL, last_seen_at TEXT NOT NULL, follow_links INTEGER NOT NULL, lost_links INTEGER NOT NULL,
    PRIMARY KEY (tkey, source_domain)
  ) WITHOUT ROWID;
  CREATE INDEX r_ref_domains_order ON r_ref_domains (tkey, backlinks_count DESC, source_domain ASC);
  CREATE INDEX r_ref_domains_by_source ON r_ref_domains (source_domain, tkey);

  CREATE TABLE r_ref_ips (
    tkey TEXT NOT NULL, ip_address TEXT NOT NULL, country TEXT NOT NULL, backlinks_count INTEGER NOT NULL,
    domains_count INTEGER NOT NULL, first_seen_at TEXT NOT NULL, last_seen_at TEXT NOT NULL,
    PRIMARY KEY (tkey, ip_address)
  ) WITHOUT ROWID;
  CREATE INDEX r_ref_ips_order ON r_ref_ips (tkey, domains_count DESC, ip_address ASC);

  CREATE TABLE r_pages (
    tkey TEXT NOT NULL, page_key TEXT NOT NULL, host TEXT NOT NULL, path TEXT NOT NULL, target_url TEXT NOT NULL,
    backlinks_count INTEGER NOT NULL, domains_count INTEGER NOT NULL, first_seen_at TEXT NOT NULL, last_seen_at TEXT NOT NULL,
    PRIMARY KEY (tkey, page_key)
  ) WITHOUT ROWID;
  CREATE INDEX r_pages_order ON r_pages (tkey, domains_count DESC, page_key ASC);

  CREATE TABLE r_anchors (
    tkey TEXT NOT NULL, anchor TEXT NOT NULL, backlinks_count INTEGER NOT NULL, domains_count INTEGER NOT NULL,
    first_seen_at TEXT NOT NULL, last_seen_at TEXT NOT NULL,
    PRIMARY KEY (tkey, anchor)
  ) WITHOUT ROWID;
  CREATE INDEX r_anchors_order ON r_anchors (tkey, domains_count DESC, anchor ASC);

  CREATE TABLE r_history (
    tkey TEXT NOT NULL, month TEXT NOT NULL, backlinks_count INTEGER NOT NULL, domains_count INTEGER NOT NULL,
    follows_count INTEGER NOT NULL,
    PRIMARY KEY (tkey, month)
  ) WITHOUT ROWID;
  `,
  // 3: the links' default order (page_score DESC, then storage order) read straight off the index:
  // a DESC key column followed by the implicit rowid gives exactly that order, with no sort.
  `
  DROP INDEX IF EXISTS links_by_domain;
  DROP INDEX IF EXISTS links_by_host;
  DROP INDEX IF EXISTS links_by_page;
  CREATE INDEX links_by_domain ON links (target_domain, page_score DESC);
  CREATE INDEX links_by_host ON links (target_host, page_score DESC);
  CREATE INDEX links_by_page ON links (target_host, target_path, page_score DESC);
  `,
  // 4: score-profile per target key, filled here from the referring domains already rolled up.
  `
  CREATE TABLE r_score_profile (
    tkey TEXT NOT NULL, domain_score INTEGER NOT NULL, domains_count INTEGER NOT NULL,
    PRIMARY KEY (tkey, domain_score)
  ) WITHOUT ROWID;
  ${FILL_SCORE_PROFILE}
  `,
  // 5: rollups read without joins (a referring domain's and a target page's own data written into
  // their rows at refresh), and links first seen per day for "new" counts.
  `
  ${joinedRollupColumns('TEXT NOT NULL', 'INTEGER NOT NULL')}
  CREATE TABLE r_first_seen (
    tkey TEXT NOT NULL, day TEXT NOT NULL, links_count INTEGER NOT NULL,
    PRIMARY KEY (tkey, day)
  ) WITHOUT ROWID;
  ${FILL_JOINED_ROLLUPS}
  `,
  // 6: facts about the file: which store's layout it holds (the embedded store keeps its list
  // rollups in its column file, not here) and the generation of the data its column file copies.
  `
  CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  `,
  // 7: unknown values are no values: the rollups' empty IPs and record-less scores forgotten.
  FORGET_UNKNOWN_VALUES,
];

/**
 * Applies the migrations the database has not seen yet, each in a transaction, and returns the
 * version the database had before. Throws a `StoreError` (`schema_too_new`) when the database is
 * newer than this code.
 *
 * @example
 * ```ts
 * migrate(db); // the version before; user_version is now MIGRATIONS.length
 * ```
 */
export function migrate(db: Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new StoreError('schema_too_new', `The database schema (version ${current}) is newer than this server knows (${MIGRATIONS.length}).`);
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  return current;
}
