/**
 * The column side of the embedded store: what DuckDB holds, all of it derived from the SQLite file
 * (so a missing or stale column file is rebuilt from it).
 *
 * | table | rows | columns | serves |
 * | --- | --- | --- | --- |
 * | `links` | every link | the backlink record's fields (not `is_new`), the target's domain, host and path, `id`, and a rank per text field | filtered or sorted links: keys and counts |
 * | `r_ref_domains`, `r_ref_ips`, `r_pages`, `r_anchors` | as in SQLite (`rollups.ts`) plus `tdomain` | the rollup's own columns | those lists, whole |
 * | `source_ids` | referring domain | an integer id, given once | the matrix's merge, competitors' graph |
 * | `meta` | key | value | the schema version and the generation of the SQLite data it copies |
 *
 * Each text field of `links` has `o_<field>`, the dense rank of its value among its registrable
 * domain's links in code point order, so that a top-N sorts integers; rows are kept in domain
 * order so that zone maps skip other domains' rows (docs/design-store.md, "The embedded store:
 * rows in SQLite, columns in DuckDB", Ranks and Order on disk).
 *
 * @module
 * @internal
 */
import { backlinkRecord, type FieldType } from '../../../../catalogue/records.js';
import { ROLLUP_COLUMNS, ROLLUP_TABLES } from '../../loads/rollups.js';
import type { AppendType } from './connection.js';

/**
 * The version of this schema; a column file of another version is rebuilt, every rollup with it
 * (2: the rollups count no unknown value, issue 50). @internal
 */
export const COLUMN_SCHEMA_VERSION = 2;

const APPEND_OF: Readonly<Partial<Record<FieldType, AppendType>>> = { string: 'varchar', timestamp: 'varchar', integer: 'bigint', boolean: 'boolean', number: 'double' };
const SQL_OF: Readonly<Record<AppendType, string>> = { varchar: 'VARCHAR', integer: 'INTEGER', bigint: 'BIGINT', double: 'DOUBLE', boolean: 'BOOLEAN' };

/** A column of a column-side table. @internal */
export interface ColumnSpec {
  readonly name: string;
  readonly type: AppendType;
}

/** The backlink record's stored fields (`is_new` depends on the clock). */
const LINK_FIELDS = (Object.entries(backlinkRecord) as [string, { type: FieldType }][]).filter(([name]) => name !== 'is_new');

/** The text fields of `links` that carry a rank column. @internal */
export const RANKED_LINK_FIELDS: readonly string[] = LINK_FIELDS.filter(([, spec]) => spec.type === 'string' || spec.type === 'timestamp').map(([name]) => name);

/** The rank column of a text field of `links`. @internal */
export const rankColumn = (field: string): string => `o_${field}`;

/** The columns of `links` that are copied from SQLite, in append order (the ranks are computed). @internal */
export const LINK_COPY_COLUMNS: readonly ColumnSpec[] = [
  { name: 'id', type: 'bigint' },
  ...LINK_FIELDS.map(([name, spec]) => ({ name, type: APPEND_OF[spec.type]! })),
  { name: 'target_domain', type: 'varchar' },
  { name: 'target_host', type: 'varchar' },
  { name: 'target_path', type: 'varchar' },
];

/** The rollup tables the column side holds. @internal */
export const COLUMN_ROLLUPS = ['r_ref_domains', 'r_ref_ips', 'r_pages', 'r_anchors'] as const;
/** One of them. @internal */
export type ColumnRollup = (typeof COLUMN_ROLLUPS)[number];

const TEXT_COLUMNS = new Set(['tkey', 'source_domain', 'first_seen_at', 'last_seen_at', 'ip_address', 'country', 'page_key', 'host', 'path', 'source_url', 'source_title', 'anchor']);

/**
 * A column-side rollup table's columns: `tdomain`, then the rollup's own, as `rollups.ts` lists
 * them; a referring domain's row ends with its integer id (`source_ids`), by which the matrix
 * merges the targets' lists. @internal
 */
export const rollupColumns = (table: ColumnRollup): readonly ColumnSpec[] => [
  { name: 'tdomain', type: 'varchar' },
  ...ROLLUP_COLUMNS[table].map((name) => ({ name, type: TEXT_COLUMNS.has(name) ? ('varchar' as const) : ('bigint' as const) })),
  ...(table === 'r_ref_domains' ? [{ name: 'sid', type: 'integer' as const }] : []),
];

/** The order each rollup table's rows are kept in (a domain's rows, by key). */
const ROLLUP_ORDER: Readonly<Record<ColumnRollup, string>> = {
  r_ref_domains: 'tdomain, tkey, backlinks_count DESC, source_domain',
  r_ref_ips: 'tdomain, tkey, domains_count DESC, ip_address',
  r_pages: 'tdomain, tkey, domains_count DESC, page_key',
  r_anchors: 'tdomain, tkey, domains_count DESC, anchor',
};

/** The order of `links` within a registrable domain: by host and path, then the default order of the list. @internal */
export const LINK_ORDER = 'target_host, target_path, page_score DESC, id';

const columnsDdl = (columns: readonly ColumnSpec[]) => columns.map((c) => `${c.name} ${SQL_OF[c.type]} NOT NULL`).join(', ');

/**
 * The rows of `links` with their ranks, from a relation of the copied columns (aliased `s`), in
 * their order (ranks per registrable domain). Each rank is the dense rank of the value among the
 * distinct values of its domain, joined back: a window over those rather than over every row,
 * which made seventeen sorts of every row (docs/design-store.md, "Measurements behind the store's
 * code"). @internal
 */
export function rankedLinks(stage: string): string {
  const ranks = RANKED_LINK_FIELDS.map(
    (field, i) =>
      `JOIN (SELECT target_domain, ${field}, CAST(dense_rank() OVER (PARTITION BY target_domain ORDER BY ${field} COLLATE "binary") AS INTEGER) AS r ` +
      `FROM (SELECT DISTINCT target_domain, ${field} FROM ${stage})) r${i} ON r${i}.target_domain = s.target_domain AND r${i}.${field} = s.${field}`,
  );
  return [
    `SELECT ${LINK_COPY_COLUMNS.map((c) => `s.${c.name}`).join(', ')}, ${RANKED_LINK_FIELDS.map((field, i) => `r${i}.r AS ${rankColumn(field)}`).join(', ')}`,
    `FROM ${stage} s ${ranks.join(' ')}`,
    `ORDER BY s.target_domain, ${LINK_ORDER.split(', ').map((column) => `s.${column}`).join(', ')}`,
  ].join(' ');
}

/**
 * The statements that insert {@link rankedLinks} into `links`. The joins run in the order written
 * (the stage probing each rank's table in turn): left to DuckDB's join order optimizer, which knows
 * every rank's table joins on `target_domain`, a stage appended to in batches got a plan joining
 * two ranks' tables on the domain alone, many rows to many (docs/design-store.md, "Measurements
 * behind the store's code").
 */
function rankedInsert(stage: string): string[] {
  return ["SET disabled_optimizers = 'join_order'", `INSERT INTO links ${rankedLinks(stage)}`, 'RESET disabled_optimizers'];
}

/** Statements that create the column side's tables (dropping any that exist). @internal */
export function columnTables(): string[] {
  return [
    'DROP TABLE IF EXISTS links',
    `CREATE TABLE links (${columnsDdl(LINK_COPY_COLUMNS)}, ${RANKED_LINK_FIELDS.map((field) => `${rankColumn(field)} INTEGER NOT NULL`).join(', ')})`,
    ...COLUMN_ROLLUPS.flatMap((table) => [`DROP TABLE IF EXISTS ${table}`, `CREATE TABLE ${table} (${columnsDdl(rollupColumns(table))})`]),
    // Every referring domain's integer id, given once and kept across loads.
    'DROP TABLE IF EXISTS source_ids',
    'CREATE TABLE source_ids (domain VARCHAR NOT NULL, sid INTEGER NOT NULL)',
    'CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)',
  ];
}

/**
 * Statements that give every referring domain of group `k` without one its integer id
 * (`source_ids`: ids are given once, after the largest). @internal
 */
function newSourceIds(k: number): string[] {
  return [
    `INSERT INTO source_ids SELECT domain, CAST((SELECT coalesce(max(sid) + 1, 0) FROM source_ids) + row_number() OVER (ORDER BY domain) - 1 AS INTEGER)
      FROM (SELECT DISTINCT source_domain AS domain FROM ${asideOf('new_r_ref_domains', k)}) n WHERE NOT EXISTS (SELECT 1 FROM source_ids s WHERE s.domain = n.domain)`,
  ];
}

/** The tables of a group that a refresh sets aside for the move: the staged links, and the list rollups computed from them. */
const SET_ASIDE = ['stage_links', ...COLUMN_ROLLUPS.map((table) => `new_${table}`)];
/** The name a table of group `k` is set aside under. */
const asideOf = (table: string, k: number) => `aside_${table.replace(/^(stage|new)_/, '')}_${k}`;

/**
 * Statements that start a refresh's rows set aside: `aside_domains` lists the refreshed domains
 * (the refresh appends each group's as it stages them). A refresh that failed on this connection
 * may have left tables set aside: the refresh drops every temporary `aside_` table first. @internal
 */
export function setAsideTables(): string[] {
  return ['CREATE OR REPLACE TEMP TABLE aside_domains (domain VARCHAR NOT NULL)'];
}

/**
 * Statements that set group `k`'s staged links and list rollups aside (`duckdb/rollups.ts`'s
 * `stage_links` and `new_<table>`) for the move: renamed, not copied, since each group's are made
 * anew and copying them is slow (docs/design-store.md, "Measurements behind the store's code"). @internal
 */
export function setAside(k: number): string[] {
  return SET_ASIDE.map((table) => `ALTER TABLE temp.${table} RENAME TO ${asideOf(table, k)}`);
}

/**
 * Statements that move a refresh's rows set aside into place, each table sorted (and `links`
 * ranked), a referring domain's row with its id. `rebuild`: they replace every row; otherwise the
 * rows of the domains in `aside_domains`, the new ones after the others, in domain order. The rows
 * move a group at a time (`groups`: how many, in domain order), so that the ranks and the sorts
 * take the memory of a group whatever the size of the load, which in one statement grew with it
 * (docs/design-store.md, "Measurements behind the store's code"). Then the working tables are
 * dropped. @internal
 */
export function moveIntoPlace(rebuild: boolean, groups: number): string[] {
  const of = (column: string) => (rebuild ? '' : ` WHERE ${column} IN (SELECT domain FROM aside_domains)`);
  const rows = (table: ColumnRollup, k: number) =>
    table === 'r_ref_domains'
      ? `SELECT n.*, i.sid FROM ${asideOf(`new_${table}`, k)} n JOIN source_ids i ON i.domain = n.source_domain`
      : `SELECT * FROM ${asideOf(`new_${table}`, k)}`;
  const each = Array.from({ length: groups }, (_, k) => k);
  return [
    `DELETE FROM links${of('target_domain')}`,
    ...COLUMN_ROLLUPS.map((table) => `DELETE FROM ${table}${of('tdomain')}`),
    ...each.flatMap((k) => [
      ...newSourceIds(k),
      ...rankedInsert(asideOf('stage_links', k)),
      ...COLUMN_ROLLUPS.map((table) => `INSERT INTO ${table} ${rows(table, k)} ORDER BY ${ROLLUP_ORDER[table]}`),
    ]),
    ...['stage_links', 'stage_sources', 'stage_pages', 'aside_domains', ...ROLLUP_TABLES.map((table) => `new_${table}`), ...each.flatMap((k) => SET_ASIDE.map((table) => asideOf(table, k)))].map(
      (name) => `DROP TABLE IF EXISTS temp.${name}`,
    ),
  ];
}
