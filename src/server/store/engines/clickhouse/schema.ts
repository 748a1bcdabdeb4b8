/**
 * The ClickHouse schema of the store, over a cluster of shards: a domain's links and rollups on
 * the shard of `cityHash64(domain) % shards`, `domains_local` and `target_pages_local` on every
 * shard, `keyword_metrics` and the `Distributed` tables on the first. No UPDATE: links, domains,
 * pages and keyword snapshots are `ReplacingMergeTree(version)` tables, read with `FINAL` only while
 * `write_marks_local` says a write may be unmerged; a refresh's rollups are a new `version`
 * recorded in `r_versions_local`. Small index granules (1,024 rows; 256 for `keyword_metrics`),
 * since calls read one key's range or one row; a database created before keeps its own. Column
 * types follow the catalogue: text and timestamps `String`, integers `Int64`, booleans `UInt8`.
 * The design, and the granules' timings: docs/design-store.md, "ClickHouse: past one machine".
 *
 * @module
 * @internal
 */
import { backlinkRecord } from '../../../../catalogue/records.js';
import type { FieldType } from '../../../../catalogue/records.js';
import { raw, sql, type Fragment } from '../../fragment.js';
import { LINK_COLUMNS } from '../../inputs.js';
import { LIST_SOURCES } from '../../reads/relations.js';
import type { GroupedOperation } from '../../store.js';
import { SPREAD_SHARDING_KEY } from './spread.js';

const TYPES: Readonly<Partial<Record<FieldType, string>>> = { string: 'String', timestamp: 'String', integer: 'Int64', number: 'Float64', boolean: 'UInt8' };

/** The stored link columns beyond the record's own fields. */
const DERIVED: Readonly<Record<string, string>> = {
  link_key: 'String',
  ip_class_c: 'String',
  target_host: 'String',
  target_domain: 'String',
  target_path: 'String',
};

/**
 * The type of each stored link column, from the catalogue's backlink record.
 *
 * @throws TypeError when the record has a field type with no ClickHouse type here (a catalogue
 * change this table missed; it throws when the module loads).
 */
function linkColumnType(column: (typeof LINK_COLUMNS)[number]): string {
  const derived = DERIVED[column];
  if (derived) return derived;
  const type = TYPES[(backlinkRecord as Readonly<Record<string, { type: FieldType }>>)[column]!.type];
  if (!type) throw new TypeError(`no ClickHouse type for links.${column}`);
  return type;
}

const LINKS_COLUMNS = ['id UInt64', ...LINK_COLUMNS.map((column) => `${column} ${linkColumnType(column)}`), 'version UInt64'].join(', ');

const counters = (names: readonly string[]) => names.map((name) => `${name} Int64`).join(', ');

/** The tables of a domain's rollups, with their columns (as `rollups.ts` computes them) and order key. */
export const ROLLUP_TABLES = {
  r_targets: {
    columns: `tkey String, tdomain String, ${counters(['backlinks_count', 'domains_count', 'urls_count', 'follows_count', 'nofollows_count', 'sponsored_count', 'ugc_count', 'frames_count', 'forms_count', 'images_count', 'texts_count', 'ips_count', 'ip_class_c_count', 'lost_count'])}`,
    order: 'tkey',
  },
  r_ref_domains: {
    columns: `tkey String, tdomain String, source_domain String, backlinks_count Int64, first_seen_at String, last_seen_at String, follow_links Int64, lost_links Int64,
      ip_address String, country String, domain_score Int64`,
    order: 'tkey, source_domain',
  },
  r_ref_ips: { columns: `tkey String, tdomain String, ip_address String, country String, backlinks_count Int64, domains_count Int64, first_seen_at String, last_seen_at String`, order: 'tkey, ip_address' },
  r_pages: {
    columns: `tkey String, tdomain String, page_key String, host String, path String, source_url String, source_title String, response_code Int64,
      backlinks_count Int64, domains_count Int64, external_links_count Int64, internal_links_count Int64, first_seen_at String, last_seen_at String`,
    order: 'tkey, page_key',
  },
  r_anchors: { columns: `tkey String, tdomain String, anchor String, backlinks_count Int64, domains_count Int64, first_seen_at String, last_seen_at String`, order: 'tkey, anchor' },
  r_history: { columns: `tkey String, tdomain String, month String, backlinks_count Int64, domains_count Int64, follows_count Int64`, order: 'tkey, month' },
  r_score_profile: { columns: `tkey String, tdomain String, domain_score Int64, domains_count Int64`, order: 'tkey, domain_score' },
  r_first_seen: { columns: `tkey String, tdomain String, day String, links_count Int64`, order: 'tkey, day' },
  // The times of day a key's links were first seen, per day (`firstSeenTimes`): the links are not
  // ordered by first seen here, so the day "new" starts is counted from this row, not from them.
  r_first_seen_times: { columns: `tkey String, tdomain String, day String, times Array(String)`, order: 'tkey, day' },
  // The competitor graph: a domain's referring domains as ids of `r_graph_ids` (`competitors.ts`).
  r_graph: { columns: `tdomain String, sources Array(UInt32)`, order: 'tdomain' },
} as const;

/** A rollup table's name. */
export type RollupTable = keyof typeof ROLLUP_TABLES;

/**
 * The first rows of each list of a key with more rows than the store keeps, in the list's default
 * order (`kept-rows.ts`), by list: a table of the columns the list is read from (the links' for
 * the links list, its rollup table's for the others), with `ord`, the order they were kept in, and
 * `version`, the rollup version of their domain they belong to.
 */
export const KEPT_TABLES = {
  links: 'kept_links',
  'ref-domains': 'kept_ref_domains',
  'ref-ips': 'kept_ref_ips',
  pages: 'kept_pages',
  anchors: 'kept_anchors',
} as const satisfies Readonly<Record<GroupedOperation, string>>;

/** The statements that create a shard's tables of kept rows, and of the domain versions whose rows are written (`kept_done_local`). */
function keptTables(): string[] {
  const columns = (operation: GroupedOperation) => {
    const source = LIST_SOURCES[operation].table;
    return source === 'links' ? `tkey String, tdomain String, ${LINKS_COLUMNS}` : `${ROLLUP_TABLES[source].columns}, version UInt64`;
  };
  return [
    ...Object.entries(KEPT_TABLES).map(
      ([operation, table]) =>
        `CREATE TABLE IF NOT EXISTS ${table}_local (ord String, ${columns(operation as GroupedOperation)})
          ENGINE = MergeTree() ORDER BY (tkey, ord, version) SETTINGS index_granularity = 1024`,
    ),
    `CREATE TABLE IF NOT EXISTS kept_done_local (tdomain String, version UInt64) ENGINE = ReplacingMergeTree(version) ORDER BY tdomain SETTINGS index_granularity = 1024`,
  ];
}

/** The rollup keys of a row of the links, as an array (`keysOfLink` of `loads/rollups.ts`): its registrable domain, host, page. */
export const LINK_KEYS = raw(`[concat('d:', target_domain), concat('h:', target_host), concat('p:', target_host, target_path)]`);

/**
 * The current rollup versions of a shard's domains (`tdomain`, `v`) of which `table` holds no row:
 * what a fill at open writes for a table an earlier version of this package did not write (or a
 * table that records which versions are written); `domains`, names, narrows both sides.
 */
export function versionsLacking(table: string, domains?: Fragment): Fragment {
  const only = domains === undefined ? raw('') : sql` WHERE tdomain IN (${domains})`;
  return sql`SELECT tdomain, max(version) AS v FROM r_versions_local${only} GROUP BY tdomain
    HAVING (tdomain, v) NOT IN (SELECT tdomain, version FROM ${raw(table)}${only})`;
}

/** The tables a writer merges (`OPTIMIZE ... FINAL`) before it marks its writes merged; keyword snapshots are only looked up by key. */
export const REPLACING_TABLES = ['links_local', 'domains_local', 'target_pages_local'] as const;

/** The statements that create one shard's local tables. */
export function shardTables(): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS links_local (${LINKS_COLUMNS})
      ENGINE = ReplacingMergeTree(version) ORDER BY (target_domain, target_host, target_path, link_key) SETTINGS index_granularity = 1024`,
    `CREATE TABLE IF NOT EXISTS domains_local (domain String, ip_address String, country String, domain_score Int64, version UInt64)
      ENGINE = ReplacingMergeTree(version) ORDER BY domain SETTINGS index_granularity = 1024`,
    `CREATE TABLE IF NOT EXISTS target_pages_local (host String, path String, url String, title String, response_code Int64, page_score Int64,
      external_links_count Int64, internal_links_count Int64, version UInt64)
      ENGINE = ReplacingMergeTree(version) ORDER BY (host, path) SETTINGS index_granularity = 1024`,
    ...Object.entries(ROLLUP_TABLES).map(
      ([table, { columns, order }]) =>
        `CREATE TABLE IF NOT EXISTS ${table}_local (${columns}, version UInt64) ENGINE = MergeTree() ORDER BY (${order}, version) SETTINGS index_granularity = 1024`,
    ),
    `CREATE TABLE IF NOT EXISTS r_versions_local (tdomain String, version UInt64) ENGINE = ReplacingMergeTree(version) ORDER BY tdomain SETTINGS index_granularity = 1024`,
    `CREATE TABLE IF NOT EXISTS write_marks_local (writer UInt64, state UInt8) ENGINE = MergeTree() ORDER BY writer`,
    // The shard's number (its place in the cluster's list, from 0), which a distributed query's parts read (`spread.ts`).
    `CREATE TABLE IF NOT EXISTS self_local (num UInt32) ENGINE = TinyLog`,
    ...keptTables(),
  ];
}

/**
 * The statements that create the `Distributed` links tables on every shard: `links`, which the
 * home shard of a spread domain reads its links through, and `links_spread`, which a move inserts
 * through (each link to the shard that owns it: `spread.ts`).
 */
export function everyShardTables(cluster: string, database: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS links AS links_local ENGINE = Distributed(${cluster}, ${database}, links_local, cityHash64(target_domain))`,
    `CREATE TABLE IF NOT EXISTS links_spread AS links_local ENGINE = Distributed(${cluster}, ${database}, links_local, ${SPREAD_SHARDING_KEY})`,
  ];
}

/** The statements that create the entry shard's own tables: the Distributed views of the rollups, keyword snapshots, the ids of the competitor graph's referring domains, and the spread domains. */
export function entryTables(cluster: string, database: string): string[] {
  const distributed = (table: string, key: string) =>
    `CREATE TABLE IF NOT EXISTS ${table} AS ${table}_local ENGINE = Distributed(${cluster}, ${database}, ${table}_local, cityHash64(${key}))`;
  return [
    distributed('r_targets', 'tdomain'),
    distributed('r_ref_domains', 'tdomain'),
    distributed('r_versions', 'tdomain'),
    distributed('r_graph', 'tdomain'),
    `CREATE TABLE IF NOT EXISTS r_graph_ids (domain String, id UInt32) ENGINE = MergeTree() ORDER BY domain`,
    // The domains whose links are spread over every shard (`spread.ts`).
    `CREATE TABLE IF NOT EXISTS spread (tdomain String, version UInt64) ENGINE = ReplacingMergeTree(version) ORDER BY tdomain`,
    `CREATE TABLE IF NOT EXISTS keyword_metrics (keyword String, country String, month String, snapshot_at String, search_volume String, cpc String,
      competitive_density Int64, keyword_difficulty Int64, number_of_results String, intents String, serp_features String, trends String, version UInt64)
      ENGINE = ReplacingMergeTree(version) ORDER BY (keyword, country, month, snapshot_at) SETTINGS index_granularity = 256`,
  ];
}
