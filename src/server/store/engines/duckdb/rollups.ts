/**
 * The rollups computed by DuckDB for the embedded store's loads: the same rows as `rollupRows`
 * (`loads/rollups.ts`, the reference), in SQL over the links of every domain of a group at once;
 * nothing is grouped in JavaScript (docs/design-store.md, "The embedded store: rows in SQLite,
 * columns in DuckDB").
 *
 * Inputs, temporary tables of the writer connection ({@link stageInputTables}):
 *
 * | table | one row per | columns |
 * | --- | --- | --- |
 * | `stage_links` | link of a refreshed domain | {@link STAGE_LINK_COLUMNS} |
 * | `stage_sources` | referring domain with a record | {@link STAGE_SOURCE_COLUMNS} |
 * | `stage_pages` | target page with its own data | {@link STAGE_PAGE_COLUMNS} |
 *
 * Output ({@link computeRollups}): `new_<table>` for every rollup table, with the columns of
 * {@link stagedRollupColumns}. `test/server/store/engines/duckdb/rollups.test.ts` holds it to `rollupRows` on
 * generated links.
 *
 * @module
 * @internal
 */
import { ROLLUP_COLUMNS, type ROLLUP_TABLES } from '../../loads/rollups.js';
import { LINK_COPY_COLUMNS, type ColumnSpec } from './schema.js';

type RollupTable = (typeof ROLLUP_TABLES)[number];

/** The columns of `stage_links`: those the column side copies, then the one the rollups read besides. @internal */
export const STAGE_LINK_COLUMNS: readonly ColumnSpec[] = [...LINK_COPY_COLUMNS, { name: 'ip_class_c', type: 'varchar' }];

/** The columns of `stage_sources`: a referring domain's own record. @internal */
export const STAGE_SOURCE_COLUMNS: readonly ColumnSpec[] = [
  { name: 'domain', type: 'varchar' },
  { name: 'ip_address', type: 'varchar' },
  { name: 'country', type: 'varchar' },
  { name: 'domain_score', type: 'bigint' },
];

/** The columns of `stage_pages`: a target page's own data. @internal */
export const STAGE_PAGE_COLUMNS: readonly ColumnSpec[] = [
  { name: 'host', type: 'varchar' },
  { name: 'path', type: 'varchar' },
  { name: 'url', type: 'varchar' },
  { name: 'title', type: 'varchar' },
  { name: 'response_code', type: 'bigint' },
  { name: 'external_links_count', type: 'bigint' },
  { name: 'internal_links_count', type: 'bigint' },
];

const DUCK_TYPE = { varchar: 'VARCHAR', integer: 'INTEGER', bigint: 'BIGINT', double: 'DOUBLE', boolean: 'BOOLEAN' } as const;
const table = (name: string, columns: readonly ColumnSpec[]) =>
  `CREATE OR REPLACE TEMP TABLE ${name} (${columns.map((c) => `${c.name} ${DUCK_TYPE[c.type]} NOT NULL`).join(', ')})`;

/** Statements that create the (empty) input tables. @internal */
export function stageInputTables(): string[] {
  return [table('stage_links', STAGE_LINK_COLUMNS), table('stage_sources', STAGE_SOURCE_COLUMNS), table('stage_pages', STAGE_PAGE_COLUMNS)];
}

/** The columns of `new_<table>`: the rollup's own, after `tdomain` where it has none. @internal */
export const stagedRollupColumns = (name: RollupTable): readonly string[] =>
  (ROLLUP_COLUMNS[name] as readonly string[]).includes('tdomain') ? ROLLUP_COLUMNS[name] : ['tdomain', ...ROLLUP_COLUMNS[name]];

/** `SELECT` list: each of the table's columns from an expression (its name when not given), in its order. */
function select(name: RollupTable, expressions: Readonly<Record<string, string>>): string {
  return stagedRollupColumns(name)
    .map((column) => {
      const expression = expressions[column] ?? column;
      return expression === column ? column : `${expression} AS ${column}`;
    })
    .join(', ');
}

/** Counts of rows where a condition holds (DuckDB's `count(*) FILTER`), as BIGINT like every count. */
const countWhere = (condition: string) => `count(*) FILTER (WHERE ${condition})`;

/** The same month as `addMonths(month, 1)` (`clock.ts`), from a timestamp's `YYYY-MM`. */
const nextMonth = (timestamp: string) =>
  `printf('%04d-%02d', (CAST(substr(${timestamp}, 1, 4) AS INTEGER) * 12 + CAST(substr(${timestamp}, 6, 2) AS INTEGER)) // 12, ` +
  `(CAST(substr(${timestamp}, 1, 4) AS INTEGER) * 12 + CAST(substr(${timestamp}, 6, 2) AS INTEGER)) % 12 + 1)`;

/**
 * The three keys of a link (`rollupKey`): its registrable domain, its host, its page. Each rollup is
 * grouped by a level's own columns and its key made from them after grouping, which is faster than
 * grouping by a text key made for every link three times (docs/design-store.md, "Measurements
 * behind the store's code").
 */
const LEVELS = [
  { key: "'d:' || target_domain", by: ['target_domain'] },
  { key: "'h:' || target_host", by: ['target_domain', 'target_host'] },
  { key: "'p:' || target_host || target_path", by: ['target_domain', 'target_host', 'target_path'] },
] as const;

/** One query per level, `UNION ALL`: `columns` given the level's key expression, grouped by its columns and `by`. */
function perLevel(from: string, columns: (key: string) => string, by: readonly string[] = []): string {
  return LEVELS.map((level) => `SELECT ${columns(level.key)} FROM ${from} GROUP BY ${[...new Set([...level.by, ...by])].join(', ')}`).join(' UNION ALL ');
}

/**
 * Statements that compute every rollup row of the domains in `stage_links` into `new_<table>`. @internal
 */
export function computeRollups(): string[] {
  const firstLast = { first_seen_at: 'min(first_seen_at)', last_seen_at: 'max(last_seen_at)' };
  const keyed = (key: string) => ({ tkey: key, tdomain: 'target_domain' });
  const withSources = 'stage_links l LEFT JOIN stage_sources s ON s.domain = l.source_domain';
  return [
    `CREATE OR REPLACE TEMP TABLE new_r_targets AS ${perLevel('stage_links', (key) =>
      select('r_targets', {
        ...keyed(key),
        backlinks_count: 'count(*)',
        domains_count: 'count(DISTINCT source_domain)',
        urls_count: 'count(DISTINCT source_url)',
        follows_count: countWhere('NOT is_nofollow'),
        nofollows_count: countWhere('is_nofollow'),
        sponsored_count: countWhere('is_sponsored'),
        ugc_count: countWhere('is_ugc'),
        frames_count: countWhere('is_frame'),
        forms_count: countWhere('is_form'),
        images_count: countWhere('is_image'),
        texts_count: countWhere('NOT is_image'),
        // An empty IP is unknown (an export without IPs), no IP; its /24 network is empty exactly then.
        ips_count: `count(DISTINCT ip_address) FILTER (WHERE ip_address <> '')`,
        ip_class_c_count: `count(DISTINCT ip_class_c) FILTER (WHERE ip_class_c <> '')`,
        lost_count: countWhere('is_lost'),
      }),
    )}`,
    // A referring domain's IP, country and score are its record's ('', '' and 0 without one).
    `CREATE OR REPLACE TEMP TABLE new_r_ref_domains AS SELECT ${select('r_ref_domains', {
      tdomain: 'g.tdomain',
      source_domain: 'g.source_domain',
      ip_address: "coalesce(s.ip_address, '')",
      country: "coalesce(s.country, '')",
      domain_score: 'coalesce(s.domain_score, 0)',
    })} FROM (${perLevel(
      'stage_links',
      (key) =>
        `${key} AS tkey, target_domain AS tdomain, source_domain, count(*) AS backlinks_count, min(first_seen_at) AS first_seen_at, max(last_seen_at) AS last_seen_at, ` +
        `${countWhere('NOT is_nofollow')} AS follow_links, ${countWhere('is_lost')} AS lost_links`,
      ['source_domain'],
    )}) g LEFT JOIN stage_sources s ON s.domain = g.source_domain`,
    // A referring domain without a record has no known score: its row shows 0, the profile does not count it.
    `CREATE OR REPLACE TEMP TABLE new_r_score_profile AS SELECT ${select('r_score_profile', { domains_count: 'count(*)' })}
      FROM new_r_ref_domains WHERE source_domain IN (SELECT domain FROM stage_sources) GROUP BY tdomain, tkey, domain_score`,
    // Known IPs only. An IP's country is the smallest known one of its referring domains' (code
    // point order, as rollupRows), '' when none has a record with a country.
    `CREATE OR REPLACE TEMP TABLE new_r_ref_ips AS ${perLevel(
      `${withSources} WHERE l.ip_address <> ''`,
      (key) =>
        select('r_ref_ips', {
          ...keyed(key),
          ip_address: 'l.ip_address',
          country: "coalesce(min(s.country) FILTER (WHERE s.country <> ''), '')",
          backlinks_count: 'count(*)',
          domains_count: 'count(DISTINCT source_domain)',
          ...firstLast,
        }),
      ['l.ip_address'],
    )}`,
    // A page without its own data shows its smallest linked URL, no title, status 200 and no link counts.
    `CREATE OR REPLACE TEMP TABLE new_r_pages AS SELECT ${select('r_pages', {
      source_url: 'coalesce(p.url, g.min_url)',
      source_title: "coalesce(p.title, '')",
      response_code: 'coalesce(p.response_code, 200)',
      external_links_count: 'coalesce(p.external_links_count, 0)',
      internal_links_count: 'coalesce(p.internal_links_count, 0)',
      host: 'g.host',
      path: 'g.path',
    })} FROM (${perLevel(
      'stage_links',
      (key) =>
        `${key} AS tkey, target_domain AS tdomain, target_host || target_path AS page_key, target_host AS host, target_path AS path, min(target_url) AS min_url, ` +
        'count(*) AS backlinks_count, count(DISTINCT source_domain) AS domains_count, min(first_seen_at) AS first_seen_at, max(last_seen_at) AS last_seen_at',
      ['target_host', 'target_path'],
    )}) g LEFT JOIN stage_pages p ON p.host = g.host AND p.path = g.path`,
    `CREATE OR REPLACE TEMP TABLE new_r_anchors AS ${perLevel(
      'stage_links',
      (key) => select('r_anchors', { ...keyed(key), backlinks_count: 'count(*)', domains_count: 'count(DISTINCT source_domain)', ...firstLast }),
      ['anchor'],
    )}`,
    `CREATE OR REPLACE TEMP TABLE new_r_first_seen AS ${perLevel(
      '(SELECT target_domain, target_host, target_path, substr(first_seen_at, 1, 10) AS day FROM stage_links)',
      (key) => select('r_first_seen', { ...keyed(key), links_count: 'count(*)' }),
      ['day'],
    )}`,
    // History (`historyRows`): a link enters in its first month and, when lost, leaves the month
    // after its last (its first month if last seen before it); a row at every month with an event
    // whose counts differ from the row before. A domain counts while it has a link in.
    `CREATE OR REPLACE TEMP TABLE new_r_history AS
      WITH events AS (
        SELECT target_domain, target_host, target_path, source_domain, month, sum(delta) AS delta, sum(follow) AS follow FROM (
          SELECT target_domain, target_host, target_path, source_domain, substr(first_seen_at, 1, 7) AS month, 1 AS delta, CASE WHEN is_nofollow THEN 0 ELSE 1 END AS follow
          FROM stage_links
          UNION ALL
          SELECT target_domain, target_host, target_path, source_domain,
            CASE WHEN substr(last_seen_at, 1, 7) < substr(first_seen_at, 1, 7) THEN substr(first_seen_at, 1, 7) ELSE ${nextMonth('last_seen_at')} END,
            -1, CASE WHEN is_nofollow THEN 0 ELSE -1 END
          FROM stage_links WHERE is_lost
        ) GROUP BY target_domain, target_host, target_path, source_domain, month
      ), per_domain AS (
        ${perLevel('events', (key) => `${key} AS tkey, target_domain AS tdomain, source_domain, month, sum(delta) AS delta, sum(follow) AS follow`, ['source_domain', 'month'])}
      ), live AS (
        SELECT *, sum(delta) OVER (PARTITION BY tkey, source_domain ORDER BY month ROWS UNBOUNDED PRECEDING) AS after FROM per_domain
      ), per_month AS (
        SELECT tdomain, tkey, month, sum(delta) AS delta, sum(follow) AS follow,
          sum(CASE WHEN after > 0 AND after - delta <= 0 THEN 1 WHEN after <= 0 AND after - delta > 0 THEN -1 ELSE 0 END) AS domains
        FROM live GROUP BY tdomain, tkey, month
      ), running AS (
        SELECT tdomain, tkey, month, sum(delta) OVER w AS backlinks_count, sum(domains) OVER w AS domains_count, sum(follow) OVER w AS follows_count
        FROM per_month WINDOW w AS (PARTITION BY tkey ORDER BY month ROWS UNBOUNDED PRECEDING)
      ), marked AS (
        SELECT *, lag(backlinks_count) OVER w AS b, lag(domains_count) OVER w AS d, lag(follows_count) OVER w AS f
        FROM running WINDOW w AS (PARTITION BY tkey ORDER BY month)
      )
      SELECT ${select('r_history', {
        backlinks_count: 'CAST(backlinks_count AS BIGINT)',
        domains_count: 'CAST(domains_count AS BIGINT)',
        follows_count: 'CAST(follows_count AS BIGINT)',
      })} FROM marked WHERE b IS NULL OR b <> backlinks_count OR d <> domains_count OR f <> follows_count`,
  ];
}
