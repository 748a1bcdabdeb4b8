/**
 * The ClickHouse store: the link graph on a cluster of ClickHouse servers, sharded by the
 * target's registrable domain (see `schema.ts`). A call about one target reads the one shard that
 * holds the domain; competitors and matrix fan out through the `Distributed` tables of the first
 * shard, the entry point.
 *
 * The lists reuse the SQL stores' relations (`../sql/relations.ts`) over this store's sources
 * (deduplicated local tables, the current version of a domain's rollups), the filter lowered by
 * the `clickhouse` dialect, and the rollups computed by the same code as every store
 * (`rollupRows`), written per domain as a new version.
 *
 * API keys and their balances live in a ledger of their own: ClickHouse has no transactions, and
 * a charge must never be lost or taken twice. The ledger is any store's key functions (a SQLite
 * file by default: `openClickhouseStore` opens one; PostgreSQL when several servers share
 * balances).
 *
 * @module
 */
import { operations } from '../../../catalogue/operations.js';
import type { RowOf } from '../../../catalogue/types.js';
import type { DomainParser } from '../../deps.js';
import { newDays } from '../../clock.js';
import { monthlyCounts, type HistoryLink } from '../../history.js';
import type { Target } from '../../target.js';
import { LINK_COLUMNS, linkRow, pageParts } from '../inputs.js';
import { normalizeKeyword, rollupKey } from '../shared.js';
import type { StoreDialect, SqlConnection } from '../sql/connection.js';
import { filterCondition, matrixCountColumn } from '../sql/filter.js';
import { ident, join, raw, sql, type Fragment } from '../sql/fragment.js';
import { COMPETITOR_MIN_COMMON, COMPETITOR_MIN_SIMILARITY, matrixRecord } from '../sql/graph.js';
import { groupedRows, type RelationSources } from '../sql/relations.js';
import { ROLLUP_COLUMNS, rollupRows, type PageData } from '../sql/rollups.js';
import { toRecord } from '../sql/rows.js';
import { runList, type RowsOfKeys } from '../sql/run-list.js';
import { scopeCondition } from '../sql/scope.js';
import { historyFromRollup, historyPage, linkCounters, overviewRecord, type StoredHistoryRow } from '../sql/sql-store.js';
import type { Clock, GraphWriter, GroupedOperation, GroupedQuery, LoadStats, MatrixQuery, RowsResult, Store } from '../store.js';
import { ClickhouseShard } from './connection.js';
import { entryTables, REPLACING_TABLES, ROLLUP_TABLES, shardTables, type RollupTable } from './schema.js';

/** The store's filter dialect: placeholders the connection fills with literals (see `connection.ts`). */
const CLICKHOUSE_STORE_DIALECT: StoreDialect = Object.freeze({ filter: 'clickhouse' });

/** The key functions of a store: where API keys and balances live. */
export type KeyLedger = Pick<Store, 'upsertKeys' | 'keys' | 'charge' | 'balance' | 'close'>;

/** Options of {@link openClickhouseStore}. */
export interface ClickhouseStoreOptions {
  /** The HTTP URL of each shard's server, in the order of the cluster's shards; the first is the entry point. */
  readonly urls: readonly string[];
  /** The cluster's name in the servers' `remote_servers` (default `bq_cluster`). */
  readonly cluster?: string;
  /** The database of the store's tables, created on every shard (default `backlinks`). */
  readonly database?: string;
  /** The public-suffix parser the writer derives registrable domains with (tldts). */
  readonly parser: DomainParser;
  /** Where API keys and balances live. */
  readonly ledger: KeyLedger;
  /** How long one request's query may run (default 5,000 ms); past it the call answers 503. */
  readonly timeoutMs?: number;
  /** Answer from the rollups (default true); `false` groups the links on every call (tests). */
  readonly rollups?: boolean;
  /**
   * Read a page of links keys first, then the rows of those keys (default true); `false` reads it
   * in one query, every column of the target's links before the sort (tests compare the two).
   */
  readonly pagesByKeys?: boolean;
  readonly user?: string;
  readonly password?: string;
}

/** A {@link Store} on ClickHouse, with its shards. */
export interface ClickhouseStore extends Store {
  readonly shards: readonly ClickhouseShard[];
  /** The entry shard as a connection (statements of tests and tools). */
  readonly connection: SqlConnection;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A shard as a {@link SqlConnection}, for the shared list code. */
function asConnection(shard: ClickhouseShard, timeoutMs?: number): SqlConnection {
  const options = timeoutMs === undefined ? {} : { timeoutMs };
  return {
    dialect: CLICKHOUSE_STORE_DIALECT,
    all: (query) => shard.all(query, options),
    write: () => Promise.reject(new Error('ClickHouse has no UPDATE ... RETURNING; the ledger takes charges')),
    transaction: async (statements) => {
      for (const statement of statements) await shard.run(statement, options);
    },
    close: async () => {},
  };
}

/**
 * Whether a writer has started since the last merge of everything written (see `schema.ts`): then
 * a key may still have several rows, and links and domains are read with `FINAL`.
 */
const UNMERGED = raw('(SELECT maxIf(writer, state = 0) > maxIf(writer, state = 1) FROM write_marks_local)');

/** One call's view of a shard: the target domain's current rollup version, and what to read. */
interface ShardView {
  readonly connection: SqlConnection;
  /** The latest version of the domain's rollups (0 before its first refresh: no rows). */
  readonly version: number;
  /** Whether writes are unmerged: links and domains are then read with `FINAL`. */
  readonly unmerged: boolean;
  readonly sources: RelationSources;
}

/** Reads the domain's current version and whether writes are unmerged, in one round trip. */
async function viewOf(connection: SqlConnection, domain: string): Promise<ShardView> {
  const [row] = await connection.all<{ v: number | string; u: number }>(
    sql`SELECT (SELECT max(version) FROM r_versions_local WHERE tdomain = ${domain}) AS v, ${UNMERGED} AS u`,
  );
  const version = Number(row?.v ?? 0);
  const unmerged = Number(row?.u ?? 1) !== 0;
  return { connection, version, unmerged, sources: sourcesOf(unmerged, version) };
}

/** The latest version of every domain, across the cluster (for fan-out reads). */
const latestVersions = (domains?: readonly string[]): Fragment =>
  domains === undefined
    ? raw('(SELECT tdomain, max(version) FROM r_versions GROUP BY tdomain)')
    : sql`(SELECT tdomain, max(version) FROM r_versions WHERE tdomain IN (${join(domains.map((d) => sql`${d}`), ', ')}) GROUP BY tdomain)`;

/**
 * The links, aliased `l`; with `ids`, only the rows of those ids among the domain's links (the
 * domain bounds the primary-key range, the ids pick granules in it).
 */
function linksOf(unmerged: boolean, only?: { readonly domain: string; readonly ids: readonly unknown[] }): Fragment {
  const final = raw(unmerged ? ' FINAL' : '');
  if (only === undefined) return sql`links_local AS l${final}`;
  return sql`(SELECT * FROM links_local${final} WHERE target_domain = ${only.domain} AND id IN (${join(only.ids.map((id) => sql`${id}`), ', ')})) AS l`;
}

/** What a shard's queries read: the tables (merged at read time while writes are unmerged), the given rollup version. */
function sourcesOf(unmerged: boolean, version: number): RelationSources {
  const final = unmerged ? ' FINAL' : '';
  return {
    links: linksOf(unmerged),
    domains: (names) =>
      sql`(SELECT domain, ip_address, country, domain_score FROM domains_local${raw(final)}${names === undefined ? raw('') : sql` WHERE domain IN (${names})`}) AS d`,
    targetPages: (hosts) =>
      sql`(SELECT host, path, url, title, response_code, page_score, external_links_count, internal_links_count FROM target_pages_local${raw(final)}${
        hosts === undefined ? raw('') : sql` WHERE host IN (${hosts})`
      }) AS p`,
    rollup: (table) => raw(`${table}_local AS r`),
    rollupRows: (tkey) => sql`r.tkey = ${tkey} AND r.version = ${version}`,
    renameOutside: true,
  };
}

/** Where a list's unfiltered total comes from, in the target's current rollups. */
const TOTALS: Readonly<Record<GroupedOperation, { readonly table: RollupTable; readonly count: string }>> = {
  links: { table: 'r_targets', count: 'sum(backlinks_count)' },
  'ref-domains': { table: 'r_targets', count: 'sum(domains_count)' },
  'ref-ips': { table: 'r_targets', count: 'sum(ips_count)' },
  pages: { table: 'r_pages', count: 'count()' },
  anchors: { table: 'r_anchors', count: 'count()' },
};

/**
 * Connects to the cluster's shards and creates the store's database and tables where missing.
 *
 * @example
 * ```ts
 * const ledger = await openSqliteStore({ file: 'ledger.db' });
 * const store = await openClickhouseStore({ urls: ['http://10.0.0.1:8123', 'http://10.0.0.2:8123'], parser: tldts, ledger });
 * ```
 */
export async function openClickhouseStore(options: ClickhouseStoreOptions): Promise<ClickhouseStore> {
  const database = options.database ?? 'backlinks';
  const cluster = options.cluster ?? 'bq_cluster';
  if (!NAME.test(database)) throw new Error(`Not a ClickHouse database name: ${JSON.stringify(database)}`);
  if (!NAME.test(cluster)) throw new Error(`Not a ClickHouse cluster name: ${JSON.stringify(cluster)}`);
  if (options.urls.length === 0) throw new Error('A ClickHouse store needs the URL of at least one shard.');
  const connect = (url: string, timeoutMs?: number) =>
    new ClickhouseShard({
      url,
      database,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(options.user === undefined ? {} : { user: options.user }),
      ...(options.password === undefined ? {} : { password: options.password }),
    });
  const shards = options.urls.map((url) => connect(url, options.timeoutMs));
  // DDL, loads and rollup refreshes run longer than any request should.
  const bulk = options.urls.map((url) => connect(url, 0));
  for (const shard of bulk) {
    await shard.run(raw(`CREATE DATABASE IF NOT EXISTS ${database}`), { database: null });
    for (const statement of shardTables()) await shard.run(raw(statement));
  }
  for (const statement of entryTables(cluster, database)) await bulk[0]!.run(raw(statement));
  return createClickhouseStore(shards, bulk, options);
}

function createClickhouseStore(shards: readonly ClickhouseShard[], bulk: readonly ClickhouseShard[], options: ClickhouseStoreOptions): ClickhouseStore {
  const useRollups = options.rollups !== false;
  const connections = shards.map((shard) => asConnection(shard));
  const entry = connections[0]!;
  const placement = new ShardPlacement(shards[0]!, shards.length);
  const on = async (domain: string) => viewOf(connections[await placement.of(domain)]!, domain);
  const keyOf = (target: Target) => (useRollups ? rollupKey(target) : undefined);
  return {
    shards,
    connection: entry,
    overview: async (target, clock) => overview(await on(target.domain), target, clock, keyOf(target)),
    summary: async (query) => {
      const { connection, version, sources } = await on(query.target.domain);
      const tkey = keyOf(query.target);
      const score = () => targetScore(connection, query.target);
      if (tkey !== undefined) {
        const stored = await connection.all<StoredHistoryRow>(
          sql`SELECT month, backlinks_count, domains_count, follows_count FROM r_history_local
            WHERE tkey = ${tkey} AND version = ${version} AND month <= ${query.to} ORDER BY month`,
        );
        return historyFromRollup(stored, query, score);
      }
      const links = await connection.all<HistoryLink>(
        sql`SELECT l.first_seen_at, l.last_seen_at, l.is_lost, l.is_nofollow, l.source_domain FROM ${sources.links} WHERE ${scopeCondition(query.target)}`,
      );
      if (links.length === 0) return { rows: [], total: 0 };
      const oldest = links.reduce((min, link) => (link.first_seen_at < min ? link.first_seen_at : min), links[0]!.first_seen_at).slice(0, 7);
      return historyPage(oldest, (months) => monthlyCounts(links, months), query, score);
    },
    grouped: async <Op extends GroupedOperation>(operation: Op, query: GroupedQuery) =>
      grouped<Op>(await on(query.target.domain), operation, query, keyOf(query.target), options.pagesByKeys !== false),
    scoreProfile: async (target) => scoreProfile(await on(target.domain), target, keyOf(target)),
    competitors: (query) => competitors(entry, query.domain, query.page),
    matrix: async (query) => matrix(await viewOf(entry, ''), query, useRollups),
    keywordMetrics: (query) => keywordMetrics(entry, query),
    upsertKeys: (keys) => options.ledger.upsertKeys(keys),
    keys: () => options.ledger.keys(),
    charge: (keyId, units) => options.ledger.charge(keyId, units),
    balance: (keyId) => options.ledger.balance(keyId),
    hasLinks: async () => (await entry.all(raw('SELECT 1 AS one FROM links LIMIT 1'))).length > 0,
    writer: async () => createWriter(bulk, new ShardPlacement(bulk[0]!, bulk.length), options.parser),
    close: () => options.ledger.close(),
  };
}

/**
 * Which shard holds a registrable domain: `cityHash64(domain) % shards`, as the `Distributed`
 * tables place rows (equal weights), asked of the server (JavaScript has no cityHash64) and
 * remembered.
 */
class ShardPlacement {
  readonly #known = new Map<string, number>();
  constructor(
    private readonly entry: ClickhouseShard,
    private readonly count: number,
  ) {}

  async of(domain: string): Promise<number> {
    return (await this.ofAll([domain]))[0]!;
  }

  async ofAll(domains: readonly string[]): Promise<number[]> {
    if (this.count === 1) return domains.map(() => 0);
    const missing = [...new Set(domains.filter((domain) => !this.#known.has(domain)))];
    for (let i = 0; i < missing.length; i += 1_000) {
      const batch = missing.slice(i, i + 1_000);
      const rows = await this.entry.all<{ d: string; s: number }>(
        sql`SELECT d, cityHash64(d) % ${this.count} AS s FROM (SELECT arrayJoin([${join(batch.map((d) => sql`${d}`), ', ')}]) AS d)`,
      );
      if (this.#known.size + rows.length > 100_000) this.#known.clear();
      for (const row of rows) this.#known.set(row.d, Number(row.s));
    }
    return domains.map((domain) => this.#known.get(domain)!);
  }
}

async function grouped<Op extends GroupedOperation>(
  view: ShardView,
  operation: Op,
  query: GroupedQuery,
  tkey: string | undefined,
  pagesByKeys: boolean,
): Promise<RowsResult<RowOf<Op>>> {
  const { connection, version } = view;
  const rows = groupedRows(operation, query.target, query.clock, tkey, view.sources);
  const where = filterCondition(query.filter, operation, connection.dialect);
  const total =
    tkey === undefined
      ? undefined
      : async () => {
          const { table, count } = TOTALS[operation];
          const [row] = await connection.all<{ n: number }>(
            sql`SELECT ${raw(count)} AS n FROM ${raw(`${table}_local`)} WHERE tkey = ${tkey} AND version = ${version}`,
          );
          return Number(row?.n ?? 0);
        };
  // A page of links is read keys first: the target's links are many, and their columns wide.
  const byKeys: RowsOfKeys | undefined =
    operation === 'links' && pagesByKeys
      ? (ids) =>
          connection.all<Record<string, unknown>>(
            groupedRows('links', query.target, query.clock, tkey, { ...view.sources, links: linksOf(view.unmerged, { domain: query.target.domain, ids }) }),
          )
      : undefined;
  const result = await runList(connection, rows, where, query.page, { total, rowsOf: byKeys });
  const record = operations[operation].record;
  return { total: result.total, rows: result.rows.map((row) => toRecord<RowOf<Op>>(row, record)) };
}

async function overview({ connection, version, sources }: ShardView, target: Target, clock: Clock, tkey: string | undefined): Promise<RowOf<'overview'>> {
  let counts: Record<string, unknown> | undefined;
  if (tkey !== undefined) {
    const [row] = await connection.all<Record<string, unknown>>(sql`SELECT * FROM r_targets_local WHERE tkey = ${tkey} AND version = ${version}`);
    const { day, nextDay } = newDays(clock);
    // The days after the first "new" day from the per-day rollup, and that day's links from its start time on.
    const [fresh] = row
      ? await connection.all<{ n: number }>(
          sql`SELECT (SELECT sum(links_count) FROM r_first_seen_local WHERE tkey = ${tkey} AND version = ${version} AND day > ${day})
            + (SELECT count() FROM ${sources.links} WHERE ${scopeCondition(target)} AND l.first_seen_at >= ${clock.newSince} AND l.first_seen_at < ${nextDay}) AS n`,
        )
      : [{ n: 0 }];
    counts = { ...row, new_count: fresh?.n ?? 0 };
  } else {
    [counts] = await connection.all<Record<string, unknown>>(linkCounters(sources.links, target, clock));
  }
  return overviewRecord(counts, await targetScore(connection, target));
}

/**
 * As the SQL stores: the page's score, else the host's or the registrable domain's; 0 when unknown.
 * One key's row of the highest version is its newest write, merged or not.
 */
async function targetScore(connection: SqlConnection, target: Target): Promise<number> {
  if (target.scope === 'PAGE') {
    const [page] = await connection.all<{ s: number }>(
      sql`SELECT page_score AS s FROM target_pages_local WHERE host = ${target.host} AND path = ${target.path} ORDER BY version DESC LIMIT 1`,
    );
    return Number(page?.s ?? 0);
  }
  const names = target.scope === 'ROOT_DOMAIN' ? [target.domain] : [target.host, target.domain];
  for (const name of names) {
    const [row] = await connection.all<{ s: number }>(sql`SELECT domain_score AS s FROM domains_local WHERE domain = ${name} ORDER BY version DESC LIMIT 1`);
    if (row) return Number(row.s);
  }
  return 0;
}

async function scoreProfile({ connection, version, sources }: ShardView, target: Target, tkey: string | undefined): Promise<RowOf<'score-profile'>[]> {
  const rows = await connection.all<{ s: number; n: number }>(
    tkey === undefined
      ? sql`SELECT coalesce(d.domain_score, 0) AS s, count() AS n
          FROM (SELECT DISTINCT l.source_domain AS source_domain FROM ${sources.links} WHERE ${scopeCondition(target)}) AS rd
          LEFT JOIN ${sources.domains()} ON d.domain = rd.source_domain GROUP BY s ORDER BY s ASC`
      : sql`SELECT domain_score AS s, domains_count AS n FROM r_score_profile_local WHERE tkey = ${tkey} AND version = ${version} ORDER BY s ASC`,
  );
  return rows.map((row) => ({ domain_score: Number(row.s), domains_count: Number(row.n) }));
}

/** Competitors by referring-domain overlap, across every shard (from the rollups of registrable domains). */
async function competitors(entry: SqlConnection, domain: string, page: GroupedQuery['page']): Promise<RowsResult<RowOf<'competitors'>>> {
  const tkey = `d:${domain}`;
  const mine = sql`SELECT source_domain FROM r_ref_domains WHERE tkey = ${tkey} AND (tdomain, version) GLOBAL IN ${latestVersions([domain])}`;
  const [size] = await entry.all<{ n: number }>(sql`SELECT count() AS n FROM (${mine})`);
  const rows = sql`SELECT t.tdomain AS _key, t.tdomain AS domain, o.common / (${Number(size?.n ?? 0)} + t.domains_count - o.common) AS similarity,
      o.common AS common_refdomains
    FROM (SELECT tkey, count() AS common FROM r_ref_domains
      WHERE source_domain GLOBAL IN (${mine}) AND tkey >= 'd:' AND tkey < 'd;' AND tkey != ${tkey}
        AND (tdomain, version) GLOBAL IN ${latestVersions()}
      GROUP BY tkey) AS o
    INNER JOIN (SELECT tkey, tdomain, domains_count FROM r_targets WHERE (tdomain, version) GLOBAL IN ${latestVersions()}) AS t ON t.tkey = o.tkey`;
  const where = sql`common_refdomains >= ${COMPETITOR_MIN_COMMON} AND similarity >= ${COMPETITOR_MIN_SIMILARITY}`;
  const result = await runList(entry, rows, where, page, { whole: true });
  return {
    total: result.total,
    rows: result.rows.map((row) => ({ domain: row['domain'] as string, similarity: Number(row['similarity']), common_refdomains: Number(row['common_refdomains']) })),
  };
}

/** The matrix across every shard: the targets' referring domains, pulled to the entry shard and joined with its copy of the domains. */
async function matrix({ connection: entry, unmerged, sources }: ShardView, query: MatrixQuery, useRollups: boolean): Promise<RowsResult<RowOf<'matrix'>>> {
  const keys = query.targets.map((target) => (useRollups ? rollupKey(target) : undefined));
  const names = query.targets.map((_, i) => matrixCountColumn(i + 1));
  let source: Fragment;
  let counts: Fragment[];
  if (keys.every((key): key is string => key !== undefined)) {
    const domains = [...new Set(query.targets.map((target) => target.domain))];
    source = sql`SELECT tkey, source_domain, backlinks_count FROM r_ref_domains
      WHERE tkey IN (${join(keys.map((key) => sql`${key}`), ', ')}) AND (tdomain, version) GLOBAL IN ${latestVersions(domains)}`;
    counts = keys.map((key, i) => sql`sum(CASE WHEN r.tkey = ${key} THEN r.backlinks_count ELSE 0 END) AS ${ident(names[i]!)}`);
  } else {
    const conditions = query.targets.map((target) => scopeCondition(target));
    const flags = conditions.map((condition, i) => sql`(${condition}) AS ${ident(`m_${i + 1}`)}`);
    source = sql`SELECT l.source_domain AS source_domain, ${join(flags, ', ')} FROM links AS l${raw(unmerged ? ' FINAL' : '')}
      WHERE ${join(conditions.map((c) => sql`(${c})`), ' OR ')}`;
    counts = names.map((name, i) => sql`sum(r.${raw(`m_${i + 1}`)}) AS ${ident(name)}`);
  }
  const grouped = sql`SELECT r.source_domain AS _key, r.source_domain AS c_domain, coalesce(min(d.domain_score), 0) AS c_domain_score,
      coalesce(min(d.ip_address), '') AS c_ip_address, coalesce(min(d.country), '') AS c_country, ${join(counts, ', ')}
    FROM (${source}) AS r LEFT JOIN ${sources.domains(sql`SELECT source_domain FROM (${source})`)} ON d.domain = r.source_domain GROUP BY r.source_domain`;
  const matches = join(names.map((name) => sql`(${ident(name)} > 0)`), ' + ');
  const rows = sql`SELECT _key, c_domain AS domain, c_domain_score AS domain_score, c_ip_address AS ip_address, c_country AS country,
      ${join(names.map((name) => ident(name)), ', ')}, toInt64(${matches}) AS matches_count FROM (${grouped})`;
  const result = await runList(entry, rows, filterCondition(query.filter, 'matrix', entry.dialect), query.page);
  return { total: result.total, rows: result.rows.map((row) => matrixRecord(row, names.length)) };
}

async function keywordMetrics(entry: SqlConnection, query: { keyword: string; country: string; month: string }): Promise<RowOf<'metrics'> | undefined> {
  const [row] = await entry.all<Record<string, string | number>>(
    sql`SELECT search_volume, cpc, competitive_density, keyword_difficulty, number_of_results, intents, serp_features, trends
      FROM keyword_metrics WHERE keyword = ${normalizeKeyword(query.keyword)} AND country = ${query.country} AND month = ${query.month}
      ORDER BY snapshot_at DESC, version DESC LIMIT 1`,
  );
  if (!row) return undefined;
  return {
    competitive_density: Number(row['competitive_density']),
    cpc: String(row['cpc']),
    intents: JSON.parse(String(row['intents'])) as string[],
    keyword_difficulty: Number(row['keyword_difficulty']),
    number_of_results: String(row['number_of_results']),
    search_volume: String(row['search_volume']),
    serp_features: JSON.parse(String(row['serp_features'])) as string[],
    trends: JSON.parse(String(row['trends'])) as number[],
  };
}

/** A version number that grows with every write of this process (microseconds since 1970, made unique). */
let lastVersion = 0;
function nextVersion(): number {
  lastVersion = Math.max(lastVersion + 1, Date.now() * 1000);
  return lastVersion;
}

/** Columns of the source links a rollup refresh reads (`rollupRows` also wants the source domain's IP, country and score). */
const SOURCE_COLUMNS = raw(
  `source_url, target_url, anchor, ip_address, ip_class_c, first_seen_at, last_seen_at, is_lost, is_nofollow, is_sponsored, is_ugc, is_frame,
   is_form, is_image, source_domain, target_host, target_path`,
);

type SourceLink = Parameters<typeof rollupRows>[1][number];

/** Rows per INSERT: ClickHouse wants few large inserts (each one is a part on disk). */
const ROWS_PER_INSERT = 50_000;

/**
 * The bulk writer: links go to their domain's shard; domains and pages to every shard; keyword
 * snapshots to the entry shard. Its first write marks the store unmerged on every shard (readers
 * switch to `FINAL`). At `finish` it merges the replacing tables (`OPTIMIZE ... FINAL`), marks
 * the store merged again when every table is down to one part, and computes the touched domains'
 * rollups, each written as a new version, then that version recorded.
 *
 * One writer at a time: the merged mark says that everything written before the merge began is
 * merged, which a second writer still running would make untrue.
 */
function createWriter(shards: readonly ClickhouseShard[], placement: ShardPlacement, parser: DomainParser): GraphWriter {
  const touched = new Set<string>();
  const sources = new Set<string>();
  let written = 0;
  let started: Promise<unknown> | undefined;
  const start = () => (started ??= Promise.all(shards.map((shard) => shard.insert('write_marks_local', [{ writer: nextVersion(), state: 0 }]))));
  const everywhere = async (table: string, rows: Record<string, unknown>[]) => {
    await start();
    await Promise.all(shards.map((shard) => shard.insert(table, rows)));
  };
  const flag = (value: unknown) => (value ? 1 : 0);
  return {
    domains: async (rows) => {
      const version = nextVersion();
      await everywhere('domains_local', rows.map((d) => ({ domain: d.domain, ip_address: d.ip_address, country: d.country, domain_score: d.domain_score, version })));
      for (const row of rows) sources.add(row.domain);
    },
    pages: async (rows) => {
      const version = nextVersion();
      await everywhere(
        'target_pages_local',
        rows.map((p) => {
          const { host, path, domain } = pageParts(p, parser);
          // The rollups of the page's domain show the page's own data.
          touched.add(domain);
          return { host, path, url: p.url, title: p.title, response_code: p.response_code, page_score: p.page_score,
            external_links_count: p.external_links_count, internal_links_count: p.internal_links_count, version };
        }),
      );
    },
    keywords: async (rows) => {
      const version = nextVersion();
      await start();
      await shards[0]!.insert(
        'keyword_metrics',
        rows.map((s) => ({
          keyword: normalizeKeyword(s.keyword), country: s.country, month: s.month, snapshot_at: s.snapshot_at, search_volume: s.search_volume, cpc: s.cpc,
          competitive_density: s.competitive_density, keyword_difficulty: s.keyword_difficulty, number_of_results: s.number_of_results,
          intents: JSON.stringify(s.intents), serp_features: JSON.stringify(s.serp_features), trends: JSON.stringify(s.trends), version,
        })),
      );
    },
    links: async (rows) => {
      // Two records with the same identity in one batch: the later one wins, as in separate batches.
      const stored = [...new Map(rows.map((link) => linkRow(link, parser)).map((row) => [row.key.toString('hex'), row])).values()];
      const placed = await placement.ofAll(stored.map((row) => row.targetDomain));
      const perShard = shards.map((): Record<string, unknown>[] => []);
      stored.forEach((row, i) => {
        const version = nextVersion();
        const record: Record<string, unknown> = { id: version, version };
        LINK_COLUMNS.forEach((column, c) => {
          const value = row.values[c];
          record[column] = column === 'link_key' ? (value as Buffer).toString('hex') : typeof value === 'boolean' ? flag(value) : value;
        });
        perShard[placed[i]!]!.push(record);
        touched.add(row.targetDomain);
      });
      await start();
      await Promise.all(shards.map((shard, s) => insertInBatches(shard, 'links_local', perShard[s]!)));
      written += rows.length;
    },
    finish: async (options = {}): Promise<LoadStats> => {
      const merged = started === undefined || (await mergeWrites(shards));
      const domains = options.all ? await allDomains(shards) : await withLinkedFrom(shards[0]!, touched, sources);
      await refresh(shards, placement, domains, !merged, options.onProgress);
      started = undefined;
      touched.clear();
      sources.clear();
      return { links: written, domains: domains.length };
    },
  };
}

/**
 * Merges each shard's replacing tables into one part (`OPTIMIZE ... FINAL`, which also drops the
 * replaced rows), then marks the writes merged where every table is down to one part. Returns
 * whether it could: a merge the server declined (another merge running) leaves the store read
 * with `FINAL`, slower but exact, until a later writer merges.
 */
async function mergeWrites(shards: readonly ClickhouseShard[]): Promise<boolean> {
  const mark = nextVersion();
  const tables = join(REPLACING_TABLES.map((table) => sql`${table}`), ', ');
  const merged = await Promise.all(
    shards.map(async (shard) => {
      for (let attempt = 0; attempt < 3; attempt++) {
        for (const table of REPLACING_TABLES) await shard.run(raw(`OPTIMIZE TABLE ${table} FINAL`));
        const [row] = await shard.all<{ n: number }>(
          sql`SELECT count() AS n FROM (SELECT table FROM system.parts WHERE database = ${shard.database} AND active AND table IN (${tables}) GROUP BY table HAVING count() > 1)`,
        );
        if (Number(row?.n ?? 1) === 0) return true;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      return false;
    }),
  );
  if (!merged.every(Boolean)) return false;
  await Promise.all(shards.map((shard) => shard.insert('write_marks_local', [{ writer: mark, state: 1 }])));
  return true;
}

async function insertInBatches(shard: ClickhouseShard, table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) await shard.insert(table, rows.slice(i, i + ROWS_PER_INSERT));
}

async function allDomains(shards: readonly ClickhouseShard[]): Promise<string[]> {
  const rows = await shards[0]!.all<{ d: string }>(raw('SELECT DISTINCT target_domain AS d FROM links'));
  return rows.map((row) => row.d).sort();
}

/** The touched domains, and every domain a rewritten referring domain links to (the rollups keep its country and score). */
async function withLinkedFrom(entry: ClickhouseShard, touched: ReadonlySet<string>, sources: ReadonlySet<string>): Promise<string[]> {
  const found = new Set(touched);
  const list = [...sources];
  for (let i = 0; i < list.length; i += 1_000) {
    const batch = list.slice(i, i + 1_000);
    const rows = await entry.all<{ d: string }>(sql`SELECT DISTINCT tdomain AS d FROM r_ref_domains WHERE source_domain IN (${join(batch.map((s) => sql`${s}`), ', ')})`);
    for (const row of rows) found.add(row.d);
  }
  return [...found].sort();
}

/** The rollup rows of one domain, as JSON rows of each table. */
type RollupBatch = Record<RollupTable, Record<string, unknown>[]>;

const emptyBatch = (): RollupBatch => Object.fromEntries(Object.keys(ROLLUP_TABLES).map((table) => [table, []])) as unknown as RollupBatch;


/** Links read per query by a refresh (a larger domain is read alone). */
const LINKS_PER_READ = 200_000;

/**
 * Recomputes the rollups of the given domains: each shard's links read in a few large queries
 * (domains batched by their link counts, the answer streamed), each domain's rows computed by
 * `rollupRows`, written with a new version in large inserts per shard, and the version recorded
 * after its rows, so readers switch from the old rollups to the new at once. `unmerged`: the
 * links may hold replaced rows, read them with `FINAL`.
 */
async function refresh(
  shards: readonly ClickhouseShard[],
  placement: ShardPlacement,
  domains: readonly string[],
  unmerged: boolean,
  onProgress?: (done: number, total: number) => void,
): Promise<void> {
  if (domains.length === 0) return;
  const final = unmerged ? ' FINAL' : '';
  const placed = await placement.ofAll(domains);
  // Every shard holds all domains: read their country and score once, rather than join them per domain.
  const known = new Map<string, { ip_address: string; country: string; domain_score: number }>();
  await shards[0]!.each<{ domain: string; ip_address: string; country: string; domain_score: number }>(
    raw(`SELECT domain, ip_address, country, domain_score FROM domains_local${final}`),
    (rows) => {
      for (const row of rows) known.set(row.domain, { ip_address: row.ip_address, country: row.country, domain_score: Number(row.domain_score) });
    },
  );
  // And the target pages' own data, which the rollups of their domains show.
  const pages = new Map<string, PageData>();
  await shards[0]!.each<PageData & { host: string; path: string }>(
    raw(`SELECT host, path, url, title, response_code, external_links_count, internal_links_count FROM target_pages_local${final}`),
    (rows) => {
      for (const row of rows) {
        pages.set(row.host + row.path, {
          url: row.url, title: row.title, response_code: Number(row.response_code),
          external_links_count: Number(row.external_links_count), internal_links_count: Number(row.internal_links_count),
        });
      }
    },
  );
  let done = 0;
  for (let s = 0; s < shards.length; s++) {
    const shard = shards[s]!;
    const mine = domains.filter((_, i) => placed[i] === s);
    if (mine.length === 0) continue;
    const counts = new Map<string, number>();
    await shard.each<{ d: string; n: number }>(raw(`SELECT target_domain AS d, count() AS n FROM links_local GROUP BY d`), (rows) => {
      for (const row of rows) counts.set(row.d, Number(row.n));
    });
    const writer = new RollupWriter(shard);
    for (const batch of batches(mine, (domain) => counts.get(domain) ?? 0)) {
      const links = new Map<string, SourceLink[]>(batch.map((domain) => [domain, []]));
      const withLinks = batch.filter((domain) => (counts.get(domain) ?? 0) > 0);
      for (let i = 0; i < withLinks.length; i += 1_000) {
        const names = join(withLinks.slice(i, i + 1_000).map((domain) => sql`${domain}`), ', ');
        await shard.each<Omit<SourceLink, 'domain_ip' | 'country' | 'domain_score'> & { target_domain: string }>(
          sql`SELECT target_domain, ${SOURCE_COLUMNS} FROM links_local${raw(final)} WHERE target_domain IN (${names})`,
          (rows) => {
            for (const row of rows) {
              // Completed in place: a large domain's links are millions of objects.
              const link = row as unknown as { -readonly [K in keyof SourceLink]: SourceLink[K] };
              const source = known.get(link.source_domain);
              link.domain_ip = source?.ip_address ?? null;
              link.country = source?.country ?? null;
              link.domain_score = source?.domain_score ?? null;
              links.get(row.target_domain)!.push(link);
            }
          },
        );
      }
      for (const domain of batch) {
        await writer.add(domain, rollupRows(domain, links.get(domain)!, pages));
        links.delete(domain);
        onProgress?.(++done, domains.length);
      }
    }
    await writer.flush();
  }
}

/** Domains in batches of about {@link LINKS_PER_READ} links (and at most 10,000 domains). */
function* batches(domains: readonly string[], size: (domain: string) => number): Generator<string[]> {
  let batch: string[] = [];
  let links = 0;
  for (const domain of domains) {
    if (batch.length > 0 && (links + size(domain) > LINKS_PER_READ || batch.length >= 10_000)) {
      yield batch;
      batch = [];
      links = 0;
    }
    batch.push(domain);
    links += size(domain);
  }
  if (batch.length > 0) yield batch;
}

/** Collects one shard's rollup rows and writes them in large inserts, each domain's version recorded after its rows. */
class RollupWriter {
  #batch = emptyBatch();
  #versions: Record<string, unknown>[] = [];
  #rows = 0;
  constructor(private readonly shard: ClickhouseShard) {}

  async add(domain: string, rows: ReturnType<typeof rollupRows>): Promise<void> {
    const version = nextVersion();
    const add = (table: Exclude<RollupTable, 'r_history'>, tuples: readonly (readonly unknown[])[]) => {
      const columns = ROLLUP_COLUMNS[table];
      for (const tuple of tuples) {
        const row: Record<string, unknown> = { tdomain: domain, version };
        columns.forEach((column, c) => (row[column] = tuple[c]));
        this.#batch[table].push(row);
      }
      this.#rows += tuples.length;
    };
    add('r_targets', rows.targets);
    add('r_ref_domains', rows.refDomains);
    add('r_ref_ips', rows.refIps);
    add('r_pages', rows.pages);
    add('r_anchors', rows.anchors);
    add('r_score_profile', rows.scoreProfile);
    add('r_first_seen', rows.firstSeen);
    for (const h of rows.history) this.#batch.r_history.push({ ...h, tdomain: domain, version });
    this.#rows += rows.history.length;
    this.#versions.push({ tdomain: domain, version });
    if (this.#rows >= ROWS_PER_INSERT) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.#versions.length === 0) return;
    for (const table of Object.keys(this.#batch) as RollupTable[]) await insertInBatches(this.shard, `${table}_local`, this.#batch[table]);
    await this.shard.insert('r_versions_local', this.#versions);
    this.#batch = emptyBatch();
    this.#versions = [];
    this.#rows = 0;
  }
}
