/**
 * The rows of the list operations as SQL relations whose columns are exactly the record's fields
 * (plus a hidden `_key`, unique per row, for the tie-break), so that the filter lowered by `toSql`
 * applies to the rows the caller sees. Column lists come from the catalogue.
 *
 * Two sources give the same rows: the rollups (`loads/rollups.ts`), one indexed range per target,
 * for every scope but SUBFOLDER below the host; and the links grouped per request (SUBFOLDER, and
 * the path the rollup differential test compares against). Where the sources say so
 * (`pageRows`), a SUBFOLDER below the host is read with the rollup rows of its pages instead,
 * wherever those add up. Booleans are SQL comparisons, BOOLEAN on
 * PostgreSQL and 0/1 on SQLite, as each filter dialect binds `true` (docs/design-store.md, "The
 * store is a port").
 *
 * @module
 * @internal
 */
import { operations } from '../../../catalogue/operations.js';
import type { Target } from '../../target.js';
import type { Clock, GroupedOperation } from '../store.js';
import { ident, join, raw, sql, type Fragment } from '../fragment.js';
import type { SqlConnection } from '../connection.js';
import type { ROLLUP_TABLES } from '../loads/rollups.js';
import { scopeCondition } from './scope.js';

/**
 * Where the relations read from: the table expressions (with their aliases `l`, `d`, `p`, `r`) and
 * the condition that selects a key's rollup rows. The SQL stores read the tables as they are; the
 * ClickHouse store reads deduplicated local tables and the current version of a domain's rollups.
 */
export interface RelationSources {
  /** The links, aliased `l`. */
  readonly links: Fragment;
  /**
   * The domains, aliased `d`. `names`, a subquery of the domain names the relation joins, lets a
   * store read only those (ClickHouse builds a join's right side whole, before the join).
   */
  domains(names?: Fragment): Fragment;
  /** The target pages, aliased `p`; `hosts`, a subquery of the hosts the relation joins, as for {@link domains}. */
  targetPages(hosts?: Fragment): Fragment;
  /** A rollup table, aliased `r`. */
  rollup(table: RollupTableName): Fragment;
  /** The rows of a target key in a rollup table aliased `r` (the key's current rows where a store keeps versions). */
  rollupRows(tkey: string, target: Target): Fragment;
  /**
   * The condition on a rollup table aliased `r` that keeps the current rows of the given
   * registrable domains' keys (`undefined`: of every domain), for reads across targets (matrix, the
   * largest target); `null` where every row is current.
   */
  currentRollups(domains: readonly string[] | undefined): Fragment | null;
  /**
   * How many of a key's links first seen on `day`, the day "new" starts, are new (first seen at or
   * after `since`, that day's instant), as an expression; where a store does not say, a count of
   * those links (one day of them: an index range where the links are indexed by first seen).
   */
  readonly firstDayNew?: (tkey: string, target: Target, since: string, day: string) => Fragment;
  /** The keyword snapshots, aliased `k`. */
  readonly keywordMetrics: Fragment;
  /**
   * Appended to the ORDER BY of a lookup of one key's row (a domain's score, a page's, a keyword's
   * snapshot), to take the newest write where a key may have several rows until they merge.
   */
  readonly newestLast: Fragment;
  /** The name of the 64-bit integer type in a CAST. */
  readonly int64: string;
  /**
   * Name the computed columns apart from the source columns first, then rename them in an outer
   * SELECT: ClickHouse resolves `min(l.first_seen_at) AS first_seen_at` to the alias itself
   * (an aggregate inside an aggregate).
   */
  readonly renameOutside: boolean;
  /**
   * Columns of the links (aliased `l`) that sort exactly as a field of the links list does, by
   * field (integer ranks of text fields, on the column side; none elsewhere): the links relation
   * carries each as a hidden column `_o_<field>` ({@link listSortKeys} names them for `runList`).
   */
  readonly sortKeys: Readonly<Record<string, string>>;
  /**
   * The condition on the links (aliased `l`) that selects a target (`scopeCondition`; true where
   * the rows are read by ids already chosen for the target, so that SQLite looks them up by id).
   */
  readonly scope: (target: Target) => Fragment;
  /**
   * Where a store reads a SUBFOLDER target below the host (which has no key of its own) from the
   * rollup rows of its pages' keys: the condition on a rollup table aliased `r` that keeps them.
   * Its referring domains and pages are then read from those rows, its referring IPs' countries
   * too; what does not add up across pages is grouped from the links as without it.
   */
  readonly pageRows?: (target: Target) => Fragment;
}

/** The hidden columns of the links relation that `runList` sorts by instead of the fields. */
export function listSortKeys(sources: RelationSources): Readonly<Record<string, string>> | undefined {
  if (Object.keys(sources.sortKeys).length === 0) return undefined;
  return Object.fromEntries(Object.keys(sources.sortKeys).map((field) => [field, `_o_${field}`]));
}

/**
 * Where a call reads: a connection and the table expressions to read there (`SQL_SOURCES` for the
 * SQL stores; a ClickHouse shard's local tables, or the cluster's \`Distributed\` ones).
 */
export interface ReadPlace {
  readonly connection: SqlConnection;
  readonly sources: RelationSources;
}

/** A rollup table's name. */
export type RollupTableName = (typeof ROLLUP_TABLES)[number];

/** The tables of the SQL stores (SQLite, PostgreSQL). @internal */
export const SQL_SOURCES: RelationSources = {
  links: raw('links l'),
  domains: () => raw('domains d'),
  targetPages: () => raw('target_pages p'),
  rollup: (table) => raw(`${table} r`),
  rollupRows: (tkey) => sql`r.tkey = ${tkey}`,
  currentRollups: () => null,
  keywordMetrics: raw('keyword_metrics k'),
  newestLast: raw(''),
  int64: 'BIGINT',
  renameOutside: false,
  sortKeys: {},
  scope: scopeCondition,
};

/** Expressions per field; fields not listed read the same-named column of the source alias. */
type Expressions = Readonly<Record<string, Fragment>>;

interface Relation {
  readonly key: Fragment;
  readonly expressions: Expressions;
  /** The alias whose same-named columns fill the fields not listed. */
  readonly alias: string;
  readonly from: Fragment;
  readonly where: Fragment;
  readonly groupBy: Fragment | null;
}

/** How many of a group's links satisfy a condition (portable: no FILTER clause, no boolean sum). */
export const countWhere = (condition: string): Fragment => raw(`sum(CASE WHEN ${condition} THEN 1 ELSE 0 END)`);

const firstLast = { first_seen_at: raw('min(l.first_seen_at)'), last_seen_at: raw('max(l.last_seen_at)') };
/** A group's links and referring domains, and its first and last seen (ref-ips, pages, anchors). */
const counted = (sources: RelationSources): Expressions => ({ backlinks_count: raw('count(*)'), domains_count: distinct('source_domain', sources), ...firstLast });
/**
 * How many distinct values of a field of the links a group holds: of the column that sorts exactly
 * as the field where the sources have one (an integer rank, one per value of the relation's
 * registrable domain), else of the field.
 */
const distinct = (field: string, sources: RelationSources): Fragment => raw(`count(DISTINCT l.${sources.sortKeys[field] ?? field})`);
const domainInfo = (alias: string, aggregate: boolean): Expressions => {
  const wrap = (column: string) => (aggregate ? `min(d.${column})` : `d.${column}`);
  return {
    ip_address: raw(`coalesce(${wrap('ip_address')}, '')`),
    country: raw(`coalesce(${wrap('country')}, '')`),
    domain_score: raw(`coalesce(${wrap('domain_score')}, 0)`),
    domain: raw(`${alias}.source_domain`),
  };
};

/**
 * Where each list's rows are stored when read from a key's rollups (the links list: the links
 * themselves), and the column of its hidden `_key`: the tie-break of every order, which a store
 * keeping a list's first rows in order must break ties by too (the ClickHouse store's kept rows).
 */
export const LIST_SOURCES = {
  links: { table: 'links', key: 'id' },
  'ref-domains': { table: 'r_ref_domains', key: 'source_domain' },
  'ref-ips': { table: 'r_ref_ips', key: 'ip_address' },
  pages: { table: 'r_pages', key: 'page_key' },
  anchors: { table: 'r_anchors', key: 'anchor' },
} as const satisfies Readonly<Record<GroupedOperation, { readonly table: 'links' | RollupTableName; readonly key: string }>>;

/** The relations grouped from the target's links, per request. */
function fromLinks(operation: GroupedOperation, target: Target, clock: Clock, sources: RelationSources): Relation {
  const where = sources.scope(target);
  const withDomains = sql`${sources.links} LEFT JOIN ${sources.domains()} ON d.domain = l.source_domain`;
  switch (operation) {
    case 'links':
      return { key: raw(`l.${LIST_SOURCES.links.key}`), alias: 'l', expressions: { is_new: sql`(l.first_seen_at >= ${clock.newSince})` }, from: sources.links, where, groupBy: null };
    case 'ref-domains':
      return {
        key: raw('l.source_domain'),
        alias: 'l',
        expressions: {
          ...domainInfo('l', true),
          backlinks_count: raw('count(*)'),
          ...firstLast,
          is_follow: sql`(${countWhere('NOT l.is_nofollow')} > 0)`,
          is_new: sql`(min(l.first_seen_at) >= ${clock.newSince})`,
          is_lost: sql`(${countWhere('NOT l.is_lost')} = 0)`,
        },
        from: withDomains,
        where,
        groupBy: raw('l.source_domain'),
      };
    case 'ref-ips':
      // Only known IPs and countries: the empty value of a field an export lacks is no value
      // (docs/importing.md, "Unknown values"); an IP's country is '' when none of its domains has one.
      return {
        key: raw('l.ip_address'),
        alias: 'l',
        expressions: { ip_address: raw('l.ip_address'), country: raw(`coalesce(min(CASE WHEN d.country <> '' THEN d.country END), '')`), ...counted(sources) },
        from: withDomains,
        where: sql`(${where}) AND l.ip_address <> ''`,
        groupBy: raw('l.ip_address'),
      };
    case 'pages':
      return {
        key: raw('l.target_host || l.target_path'),
        alias: 'l',
        expressions: {
          source_url: raw('coalesce(min(p.url), min(l.target_url))'),
          source_title: raw(`coalesce(min(p.title), '')`),
          response_code: raw('coalesce(min(p.response_code), 200)'),
          external_links_count: raw('coalesce(min(p.external_links_count), 0)'),
          internal_links_count: raw('coalesce(min(p.internal_links_count), 0)'),
          ...counted(sources),
        },
        from: sql`${sources.links} LEFT JOIN ${sources.targetPages()} ON p.host = l.target_host AND p.path = l.target_path`,
        where,
        groupBy: raw('l.target_host, l.target_path'),
      };
    case 'anchors':
      return {
        key: raw('l.anchor'),
        alias: 'l',
        expressions: { anchor: raw('l.anchor'), ...counted(sources) },
        from: sources.links,
        where,
        groupBy: raw('l.anchor'),
      };
  }
}

/** The same relations read from the rollup tables of one target key. */
function fromRollups(operation: GroupedOperation, target: Target, tkey: string, clock: Clock, sources: RelationSources): Relation {
  const where = sources.rollupRows(tkey, target);
  switch (operation) {
    case 'links':
      // The links list is the links themselves; only its total comes from a rollup.
      return fromLinks('links', target, clock, sources);
    case 'ref-domains':
      // The referring domain's IP, country and score are written into its rows at refresh.
      return {
        key: rollupKeyOf('ref-domains'),
        alias: 'r',
        expressions: {
          domain: raw('r.source_domain'),
          is_follow: raw('(r.follow_links > 0)'),
          is_new: sql`(r.first_seen_at >= ${clock.newSince})`,
          is_lost: raw('(r.lost_links = r.backlinks_count)'),
        },
        from: sources.rollup(LIST_SOURCES['ref-domains'].table),
        where,
        groupBy: null,
      };
    case 'ref-ips':
    // The page's own URL, title, status and link counts are written into its row at refresh.
    case 'pages':
    case 'anchors':
      return { key: rollupKeyOf(operation), alias: 'r', expressions: {}, from: sources.rollup(LIST_SOURCES[operation].table), where, groupBy: null };
  }
}

const rollupKeyOf = (operation: Exclude<GroupedOperation, 'links'>): Fragment => raw(`r.${LIST_SOURCES[operation].key}`);

/**
 * The relations of a SUBFOLDER target read with the rollup rows of its pages (`pageRows`, the
 * condition `where`), where those add up: a referring domain's rows, one per page, summed (its
 * record's IP, country and score are in each); a page's own row; an IP's country, the smallest
 * known one of its pages' rows, beside its links grouped (its referring domains do not add up
 * across pages). `undefined` for the other operations (grouped from the links).
 */
function fromPageRollups(operation: GroupedOperation, target: Target, clock: Clock, where: Fragment, sources: RelationSources): Relation | undefined {
  const sum = (column: string) => raw(`CAST(sum(r.${column}) AS ${sources.int64})`);
  switch (operation) {
    case 'ref-domains':
      return {
        key: raw('r.source_domain'),
        alias: 'r',
        expressions: {
          domain: raw('r.source_domain'),
          ip_address: raw('min(r.ip_address)'),
          country: raw('min(r.country)'),
          domain_score: raw('min(r.domain_score)'),
          backlinks_count: sum('backlinks_count'),
          first_seen_at: raw('min(r.first_seen_at)'),
          last_seen_at: raw('max(r.last_seen_at)'),
          is_follow: raw('(sum(r.follow_links) > 0)'),
          is_new: sql`(min(r.first_seen_at) >= ${clock.newSince})`,
          is_lost: raw('(sum(r.lost_links) = sum(r.backlinks_count))'),
        },
        from: sources.rollup('r_ref_domains'),
        where,
        groupBy: raw('r.source_domain'),
      };
    case 'ref-ips': {
      const countries = sql`(SELECT r.ip_address, min(CASE WHEN r.country <> '' THEN r.country END) AS country FROM ${sources.rollup('r_ref_ips')} WHERE ${where} GROUP BY r.ip_address) c`;
      return {
        key: raw('l.ip_address'),
        alias: 'l',
        expressions: { ip_address: raw('l.ip_address'), country: raw(`coalesce(min(c.country), '')`), ...counted(sources) },
        from: sql`${sources.links} LEFT JOIN ${countries} ON c.ip_address = l.ip_address`,
        where: sql`(${sources.scope(target)}) AND l.ip_address <> ''`,
        groupBy: raw('l.ip_address'),
      };
    }
    case 'pages':
      return { key: raw('r.page_key'), alias: 'r', expressions: {}, from: sources.rollup('r_pages'), where, groupBy: null };
    default:
      return undefined;
  }
}

/** An operation's relation for one target: from its key's rollups, its pages' (see `pageRows`), or grouped from its links. */
function relationOf(operation: GroupedOperation, target: Target, clock: Clock, tkey: string | undefined, sources: RelationSources): Relation {
  if (tkey !== undefined) return fromRollups(operation, target, tkey, clock, sources);
  const pages = sources.pageRows && rollupKey(target) === undefined ? fromPageRollups(operation, target, clock, sources.pageRows(target), sources) : undefined;
  return pages ?? fromLinks(operation, target, clock, sources);
}

/**
 * The SELECT producing an operation's rows for one target, columns named as the record's fields;
 * from the rollups when `tkey` is given, else grouped from the links (or, where the sources say
 * so, from the rollups of a SUBFOLDER's pages). With `only`, just those fields (and the key): the
 * relation a page's keys are chosen from, which needs no more than its filter and order name.
 */
export function groupedRows(
  operation: GroupedOperation,
  target: Target,
  clock: Clock,
  tkey: string | undefined,
  sources: RelationSources = SQL_SOURCES,
  only?: readonly string[],
): Fragment {
  const relation = relationOf(operation, target, clock, tkey, sources);
  const fields = Object.keys(operations[operation].record).filter((field) => only === undefined || only.includes(field));
  const inner = (field: string) => (sources.renameOutside ? `c_${field}` : field);
  const columns = fields.map((field) => {
    const expression = relation.expressions[field] ?? raw(`${relation.alias}.${field}`);
    return sql`${expression} AS ${ident(inner(field))}`;
  });
  const sorted = operation === 'links' ? Object.keys(sources.sortKeys).filter((field) => only === undefined || only.includes(field)) : [];
  const hidden = sorted.map((field) => raw(`l.${sources.sortKeys[field]} AS _o_${field}`));
  const select = join([sql`${relation.key} AS _key`, ...columns, ...hidden], ', ');
  const groupBy = relation.groupBy ? sql` GROUP BY ${relation.groupBy}` : raw('');
  const rows = sql`SELECT ${select} FROM ${relation.from} WHERE ${relation.where}${groupBy}`;
  if (!sources.renameOutside) return rows;
  const renamed = join([raw('_key'), ...fields.map((field) => sql`${ident(inner(field))} AS ${ident(field)}`), ...sorted.map((field) => raw(`_o_${field}`))], ', ');
  return sql`SELECT ${renamed} FROM (${rows})`;
}

/**
 * The key of a target in the rollup tables (`d:` registrable domain, `h:` host, `p:` host + path),
 * or `undefined` for a SUBFOLDER target below the host, which is answered from the links.
 *
 * @example
 * ```ts
 * rollupKey(toTarget('blog.example.com/a', 'SUBDOMAIN', tldts)!); // 'h:blog.example.com'
 * ```
 */
export function rollupKey(target: Target): string | undefined {
  switch (target.scope) {
    case 'ROOT_DOMAIN':
      return `d:${target.domain}`;
    case 'SUBDOMAIN':
      return `h:${target.host}`;
    case 'PAGE':
      return `p:${target.host}${target.path}`;
    case 'SUBFOLDER':
      return target.folder === '' ? `h:${target.host}` : undefined;
  }
}
