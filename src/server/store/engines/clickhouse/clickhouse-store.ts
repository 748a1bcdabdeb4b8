/**
 * The ClickHouse store: the link graph on a cluster of ClickHouse servers, sharded by the target's
 * registrable domain (`schema.ts`): a call about one target reads its domain's shard; competitors
 * come from a graph read through the entry shard's `Distributed` tables, the matrix from each
 * target's referring-domain list read on its shard (both kept by the read-cache while the rollup
 * versions they were read from stay current). The reads are the shared
 * queries over this engine's sources ({@link shardSources}, {@link clusterSources}); what is
 * ClickHouse's own stays here: placement, the merge state, the writer, the merge and the refresh
 * (rollups written per domain as a new version). API keys and balances live in a ledger of their
 * own (ClickHouse has no transactions). The design: docs/design-store.md, "ClickHouse: past one
 * machine".
 *
 * @module
 */
import { BoundedCache, ENTRY_BYTES, textBytes } from '../../../../shared/bounded-cache.js';
import type { DomainParser } from '../../../deps.js';
import { LINK_COLUMNS } from '../../inputs.js';
import type { StoreDialect, SqlConnection } from '../../connection.js';
import { createStore } from '../../create-store.js';
import type { Engine, LoadSink } from '../../engine.js';
import { join, raw, sql, type Fragment } from '../../fragment.js';
import type { ReadPlace, RelationSources } from '../../reads/relations.js';
import { scopeCondition } from '../../reads/scope.js';
import type { Target } from '../../../target.js';
import { firstSeenTimes, ROLLUP_COLUMNS, rollupRows, type PageData } from '../../loads/rollups.js';
import { KEYWORD_COLUMNS, PAGE_COLUMNS, recordedDomains } from '../../loads/writer.js';
import { refreshRollups, type RefreshSteps } from '../../loads/refresh.js';
import type { Store } from '../../store.js';
import type { Ledger } from '../../ledger.js';
import { isNativeOrderSafe } from '../../../../evaluate/text-order.js';
import type { ReferrerList } from '../../memory/matrix-merge.js';
import { competitorsOverLinks, competitorVersions, fillCompetitorGraph, GraphIds, graphSources, readCompetitorGraph } from './competitors.js';
import { ClickhouseShard } from './connection.js';
import { KEEP_ROWS, fillKeptRows, keptSources, recordKept, writeKeptRows, type KeptLinks } from './kept-rows.js';
import { entryTables, everyShardTables, KEPT_TABLES, LINK_KEYS, REPLACING_TABLES, ROLLUP_TABLES, shardTables, versionsLacking, type RollupTable } from './schema.js';
import { claimShardNumbers, dropLeftovers, linkRows, owned, ownerOf, readSpread, spreadLarge } from './spread.js';

/** The store's filter dialect: placeholders the connection fills with literals (see `connection.ts`). */
const CLICKHOUSE_STORE_DIALECT: StoreDialect = Object.freeze({ filter: 'clickhouse' });

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
  /** Where API keys and balances live (the store's `ledger`, closed with the store). */
  readonly ledger: Ledger;
  /** How long one request's query may run (default 5,000 ms); past it the call answers 503. */
  readonly timeoutMs?: number;
  /** Answer from the rollups (default true); `false` groups the links on every call (tests). */
  readonly rollups?: boolean;
  /**
   * Read a page of links keys first, then the rows of those keys (default true); `false` reads it
   * in one query, every column of the target's links before the sort (tests compare the two).
   */
  readonly pagesByKeys?: boolean;
  /**
   * Count a filtered list in the query of its page (default true, see `allBeforeLimit`); `false`
   * counts in a query of its own (tests compare the two).
   */
  readonly totalsWithPages?: boolean;
  /**
   * The rows of each list the load keeps, in the list's default order, for every key with more
   * (default 1,000): an unfiltered page in that order within them reads them, not the key's rows
   * (`kept-rows.ts`). Tests keep a few, so that their small targets have kept rows.
   */
  readonly keepRows?: number;
  /**
   * The links of a registrable domain past which they are spread over every shard, each on the
   * shard its link key names (default 1,000,000; `Infinity`: never): a filtered call over a large
   * target then scans every shard's share side by side (`spread.ts`). Moved by the load that takes
   * the domain past it. Tests spread small targets.
   */
  readonly spreadAbove?: number;
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

/**
 * A shard as a {@link SqlConnection}, for the shared queries; `beforeLimit`: a list's page and its
 * total in one query (see `ClickhouseShard.allBeforeLimit`); `settings`: the server's settings for
 * every query of this connection.
 */
function asConnection(shard: ClickhouseShard, beforeLimit: boolean, settings?: Readonly<Record<string, string>>): SqlConnection {
  const options = settings ? { settings } : {};
  return {
    dialect: CLICKHOUSE_STORE_DIALECT,
    all: (query) => shard.all(query, options),
    countsBeforeLimit: beforeLimit,
    allBeforeLimit: <Row>(query: Fragment) => shard.allBeforeLimit<Row>(query, options),
    // Never called: the ledger takes charges (a TypeError, the misuse of a caller).
    write: () => Promise.reject(new TypeError('ClickHouse has no UPDATE ... RETURNING; the ledger takes charges')),
    transaction: async (statements) => {
      for (const statement of statements) await shard.run(statement);
    },
    close: async () => {},
  };
}

/**
 * How long a shard's merge state is trusted once read (ms). A writer waits a little longer than
 * this after marking its start and before writing its first row (see {@link MergeState}).
 */
const MERGE_STATE_MS = 200;

/** How long a writer waits for every reader to have read a state it changed (see {@link MergeState}). */
const STATE_SEEN_MS = MERGE_STATE_MS + 100;

/**
 * Whether a writer has started on a shard since the last merge of everything written (see
 * `schema.ts`): then a key may still have several rows, and links and domains are read with
 * `FINAL`. Read from `write_marks_local` at most once per {@link MERGE_STATE_MS}, not once per
 * call: exact, because a writer waits longer than that between marking its start and its first
 * row, so a state read before the mark has expired before any row it does not cover exists. A
 * writer of this process makes the state be read again at once.
 */
class MergeState {
  #unmerged = true;
  #spread: ReadonlySet<string> = new Set();
  #until = 0;
  #reading: Promise<void> | undefined;
  /** `withSpread`: the entry shard's state, which also says which domains are spread (`spread.ts`), trusted as long. */
  constructor(
    private readonly connection: SqlConnection,
    private readonly withSpread = false,
  ) {}

  unmerged(): boolean | Promise<boolean> {
    if (performance.now() < this.#until) return this.#unmerged;
    return (this.#reading ??= this.#read()).then(() => this.#unmerged);
  }

  /** The domains spread over every shard (the entry shard's state only). */
  spread(): ReadonlySet<string> | Promise<ReadonlySet<string>> {
    if (performance.now() < this.#until) return this.#spread;
    return (this.#reading ??= this.#read()).then(() => this.#spread);
  }

  async #read(): Promise<void> {
    // Timed from before the question: the answer holds at least from then on.
    const asked = performance.now();
    try {
      const spread = raw(this.withSpread ? ', (SELECT groupUniqArray(tdomain) FROM spread) AS s' : '');
      const [row] = await this.connection.all<{ u: number; s?: string[] }>(
        sql`SELECT maxIf(writer, state = 0) > maxIf(writer, state = 1) AS u${spread} FROM write_marks_local`,
      );
      this.#unmerged = Number(row?.u ?? 1) !== 0;
      this.#spread = new Set(row?.s ?? []);
      this.#until = asked + MERGE_STATE_MS;
    } finally {
      this.#reading = undefined;
    }
  }

  forget(): void {
    this.#until = 0;
  }
}

/**
 * The rows of the given registrable domains' current rollup version, on a rollup table aliased
 * `r`: a refresh writes a domain's rows as a new version, then records it in `r_versions_local`.
 * The subquery reads the shard's own versions, also inside a query over a `Distributed` table
 * (each shard runs it on its own table, and a domain's rollups and versions share a shard). Tables
 * are named with their database: a shard runs its part of a distributed query in its default one.
 */
const currentRollups = (database: string, domains?: readonly string[] | undefined): Fragment =>
  sql`(r.tdomain, r.version) IN (SELECT tdomain, max(version) FROM ${raw(database)}.r_versions_local${
    domains === undefined ? raw('') : sql` WHERE tdomain IN (${join(domains.map((domain) => sql`${domain}`), ', ')})`
  } GROUP BY tdomain)`;

/** What every read of this store shares: the differences of ClickHouse's SQL from the SQL stores'. */
function commonSources(database: string, unmerged: boolean): Omit<RelationSources, 'links' | 'rollup'> {
  const final = raw(unmerged ? ' FINAL' : '');
  const db = raw(database);
  return {
    // Each shard holds every domain and target page: a join reads the shard's own copy, only the names it joins.
    domains: (names) =>
      sql`(SELECT domain, ip_address, country, domain_score FROM ${db}.domains_local${final}${names === undefined ? raw('') : sql` WHERE domain IN (${names})`}) AS d`,
    targetPages: (hosts) =>
      sql`(SELECT host, path, url, title, response_code, page_score, external_links_count, internal_links_count FROM ${db}.target_pages_local${final}${
        hosts === undefined ? raw('') : sql` WHERE host IN (${hosts})`
      }) AS p`,
    rollupRows: (tkey, target) => sql`r.tkey = ${tkey} AND ${currentRollups(database, [target.domain])}`,
    currentRollups: (domains) => currentRollups(database, domains),
    keywordMetrics: raw('keyword_metrics AS k'),
    // Two writes of one snapshot: the newer, until they merge.
    newestLast: raw(', k.version DESC'),
    int64: 'Int64',
    renameOutside: true,
    sortKeys: {},
    scope: scopeCondition,
  };
}

/** The sources of a call about one target, on the shard that holds its domain: the local tables. */
function shardSources(database: string, unmerged: boolean): RelationSources {
  const common = commonSources(database, unmerged);
  return {
    ...common,
    links: sql`links_local AS l${raw(unmerged ? ' FINAL' : '')}`,
    rollup: (table) => raw(`${table}_local AS r`),
    // The links first seen on the day "new" starts, from that day's row of times (the links are not
    // ordered by first seen: counting them would read every link of the target). A time past the
    // day compares as its whole timestamp does (`firstSeenTimes`).
    // One row (two servers that open an older database at once may both fill the table).
    firstDayNew: (tkey, target, since, day) =>
      sql`(SELECT coalesce(sum(arrayCount(t -> t >= ${since.slice(10)}, times)), 0) FROM (SELECT r.times AS times FROM r_first_seen_times_local AS r
        WHERE ${common.rollupRows(tkey, target)} AND r.day = ${day} LIMIT 1))`,
  };
}

/**
 * A page of links read keys first (the target's links are many, and their columns wide): the rows
 * of the page's ids among the domain's links; the domain bounds the primary-key range, the ids pick
 * granules in it.
 */
const linksOfIds =
  (unmerged: boolean) =>
  (target: Target, ids: readonly unknown[]): Fragment =>
    sql`(SELECT * FROM links_local${raw(unmerged ? ' FINAL' : '')} WHERE target_domain = ${target.domain} AND id IN (${join(ids.map((id) => sql`${id}`), ', ')})) AS l`;

/**
 * The sources of a call about a spread target, on its home shard: its links read from every shard
 * through the `Distributed` table, each shard's part keeping the links it owns (the copies a move
 * leaves on the home shard until they are deleted are not read), in a subquery (18.16 cannot run a
 * distributed query with a scalar subquery, as the target's score is read); its rollups on the
 * home shard.
 */
function spreadSources(database: string, unmerged: boolean, shards: number, domain: string): RelationSources {
  return { ...shardSources(database, unmerged), links: linkRows(database, shards, sql`${domain}`, true, unmerged, 'l') };
}

/** A page of a spread target's links read keys first: the rows of the page's ids, each from the shard that owns it. */
const spreadLinksOfIds =
  (database: string, shards: number, unmerged: boolean) =>
  (target: Target, ids: readonly unknown[]): Fragment =>
    sql`(SELECT * FROM ${raw(database)}.links${raw(unmerged ? ' FINAL' : '')} WHERE target_domain = ${target.domain} AND id IN (${join(ids.map((id) => sql`${id}`), ', ')})
      AND ${owned(database, shards)}) AS l`;

/**
 * The sources of a call across targets (matrix), on the entry shard: the cluster's `Distributed`
 * tables. On more than one shard, each shard's part of a links read keeps the links that are in
 * their place: a spread domain's that it owns, another domain's if it is the domain's home (a move
 * under way copies a domain's links to other shards before it is recorded, and leaves them on the
 * home shard until after).
 */
function clusterSources(database: string, unmerged: boolean, spread: ReadonlySet<string>, shards: number): RelationSources {
  const final = raw(unmerged ? ' FINAL' : '');
  const home = raw(`toUInt32(cityHash64(target_domain) % ${shards}) IN (SELECT num FROM ${database}.self_local)`);
  const names = join([...spread].map((domain) => sql`${domain}`), ', ');
  const inPlace = spread.size === 0 ? home : sql`(target_domain IN (${names}) AND ${owned(database, shards)}) OR (target_domain NOT IN (${names}) AND ${home})`;
  const links = shards === 1 ? sql`links AS l${final}` : sql`(SELECT * FROM ${raw(database)}.links${final} WHERE ${inPlace}) AS l`;
  return { ...commonSources(database, unmerged), links, rollup: (table) => raw(`${table} AS r`) };
}

/**
 * Connects to the cluster's shards and creates the store's database and tables where missing.
 *
 * @example
 * ```ts
 * const ledger = await openSqliteStore({ file: 'ledger.db' });
 * const store = await openClickhouseStore({ urls: ['http://10.0.0.1:8123', 'http://10.0.0.2:8123'], parser: tldts, ledger });
 * ```
 *
 * @throws TypeError (a rejection) when `database` or `cluster` is not a name of letters, digits and
 * `_`, or `urls` is empty: options the caller checks first (the CLI does, from the URL).
 */
export async function openClickhouseStore(options: ClickhouseStoreOptions): Promise<ClickhouseStore> {
  const database = options.database ?? 'backlinks';
  const cluster = options.cluster ?? 'bq_cluster';
  if (!NAME.test(database)) throw new TypeError(`Not a ClickHouse database name: ${JSON.stringify(database)}`);
  if (!NAME.test(cluster)) throw new TypeError(`Not a ClickHouse cluster name: ${JSON.stringify(cluster)}`);
  if (options.urls.length === 0) throw new TypeError('A ClickHouse store needs the URL of at least one shard.');
  if (options.spreadAbove !== undefined && !(options.spreadAbove >= 0)) throw new TypeError(`spreadAbove takes a number of links, got ${options.spreadAbove}`);
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
  // Each shard's tables on its own, the shards side by side.
  await Promise.all(
    bulk.map(async (shard) => {
      await shard.run(raw(`CREATE DATABASE IF NOT EXISTS ${database}`), { database: null });
      for (const statement of [...shardTables(), ...everyShardTables(cluster, database)]) await shard.run(raw(statement));
    }),
  );
  for (const statement of entryTables(cluster, database)) await bulk[0]!.run(raw(statement));
  await claimShardNumbers(bulk);
  const keep = options.keepRows ?? KEEP_ROWS;
  const spread = await readSpread(bulk[0]!);
  await Promise.all(bulk.map(async (shard) => {
    const links = (names: Fragment, spreadOnes: boolean) => linkRows(database, bulk.length, names, spreadOnes, true, 'l');
    await fillFirstSeenTimes(shard, spread, links);
    await fillKeptRows(shard, keep, spread, links);
  }));
  await fillCompetitorGraph(bulk);
  const connections = shards.map((shard) => asConnection(shard, options.totalsWithPages !== false));
  // A spread target's list statements with the filter taken to each shard's part (`FILTER_ON_SHARDS`).
  const filtering = shards.map((shard) => asConnection(shard, options.totalsWithPages !== false, FILTER_ON_SHARDS));
  const engine = clickhouseEngine(connections, filtering, bulk, options);
  return createStore(engine, { parser: options.parser, ledger: options.ledger }, { shards, connection: connections[0]! });
}

/**
 * ClickHouse's table: a call about one target reads its domain's shard (with `FINAL` while writes
 * are unmerged), a call across targets the entry shard's `Distributed` tables; competitors come
 * from the graph, read again when the rollup versions change; a load is `createLoad`.
 */
function clickhouseEngine(connections: readonly SqlConnection[], filtering: readonly SqlConnection[], bulk: readonly ClickhouseShard[], options: ClickhouseStoreOptions): Engine {
  const database = bulk[0]!.database;
  const entry = connections[0]!;
  const count = bulk.length;
  const states = connections.map((connection, s) => new MergeState(connection, s === 0));
  const placement = new ShardPlacement(bulk[0]!, count);
  const byIds = options.pagesByKeys !== false;
  const rollups = options.rollups !== false;
  const keep = options.keepRows ?? KEEP_ROWS;
  const spreadAbove = options.spreadAbove ?? SPREAD_ABOVE;
  // The sources of each merge state, made once rather than per call.
  const local = { merged: shardSources(database, false), unmerged: shardSources(database, true) };
  /** Where a call about a domain reads: its home shard, and whether its links are spread and may be unmerged. */
  const home = async (domain: string) => {
    const s = await placement.of(domain);
    const unmerged = await states[s]!.unmerged();
    return { s, unmerged, spread: count > 1 && (await states[0]!.spread()).has(domain) };
  };
  // A spread target's page and total in one statement too: its page is sorted on the home shard, over every row the shards send.
  const placeOf = ({ s, unmerged, spread: spreadOne }: Awaited<ReturnType<typeof home>>, domain: string): ReadPlace => ({
    connection: connections[s]!,
    sources: spreadOne ? spreadSources(database, unmerged, count, domain) : unmerged ? local.unmerged : local.merged,
  });
  const at = async (domain: string): Promise<ReadPlace> => placeOf(await home(domain), domain);
  const across = async (): Promise<ReadPlace> => {
    const unmerged = await states[0]!.unmerged();
    return { connection: entry, sources: clusterSources(database, unmerged, await states[0]!.spread(), count) };
  };
  const forgetStates = () => states.forEach((state) => state.forget());
  return {
    kind: 'clickhouse',
    rollups,
    at,
    across,
    list: async (operation, query, rollupKey) => {
      const where = await home(query.target.domain);
      const { s, unmerged, spread: spreadOne } = where;
      const place = placeOf(where, query.target.domain);
      // A spread target's links filtered on every shard, only the rows that pass sent to its home:
      // the links list's columns named as its fields in the relation itself (not renamed outside
      // it, which the lists grouped from the links need), so that ClickHouse takes the page's
      // conditions down to the shards (`FILTER_ON_SHARDS`).
      const filtered = spreadOne && operation === 'links' ? { connection: filtering[s]!, sources: { ...place.sources, renameOutside: false } } : place;
      const byId = {
        kind: 'links-by-id',
        at: place,
        linksOfIds: spreadOne ? spreadLinksOfIds(database, count, unmerged) : linksOfIds(unmerged),
      } as const;
      const kept =
        rollups && rollupKey !== undefined && query.filter === null
          ? keptSources(unmerged ? local.unmerged : local.merged, operation, query.page, rollupKey, currentRollups(database, [query.target.domain]), keep)
          : undefined;
      return {
        keys: filtered,
        ...(operation === 'links' && byIds ? { rows: byId } : {}),
        totals: filtered,
        // Kept rows live on the home shard, spread or not.
        ...(kept ? { kept: { connection: place.connection, sources: kept } } : {}),
        window: false,
      };
    },
    competitors: rollups
      ? { kind: 'graph', read: () => readCompetitorGraph(bulk[0]!, (domains) => currentRollups(database, domains)), version: () => competitorVersions(entry) }
      : { kind: 'query', answer: async (query) => competitorsOverLinks(entry, (await across()).sources.links, query.domain, query.page) },
    // Each target's referring domains read from its shard, kept by the read-cache (as the embedded
    // store keeps them) while its domain's rollup version stays the same.
    matrix: rollups
      ? {
          kind: 'lists',
          list: async (target, key) => referrerList(await at(target.domain), target, key),
          versions: async (targets) => {
            const rows = await entry.all<{ d: string; v: string }>(
              sql`SELECT tdomain AS d, toString(max(version)) AS v FROM r_versions WHERE tdomain IN (${join(targets.map((target) => sql`${target.domain}`), ', ')}) GROUP BY tdomain`,
            );
            const found = new Map(rows.map((row) => [row.d, row.v]));
            return targets.map((target) => found.get(target.domain) ?? '');
          },
        }
      : { kind: 'sql' },
    load: {
      begin: async () => {
        forgetStates();
        return createLoad(bulk, new ShardPlacement(bulk[0]!, count), forgetStates, keep, spreadAbove, await readSpread(bulk[0]!));
      },
      // Any row says there are links: no condition on where a row lives.
      linkedFrom: { connection: asConnection(bulk[0]!, false), sources: { ...clusterSources(database, false, new Set(), count), links: raw('links AS l') } },
    },
    // Every shard answers a call about some domain, and the ledger every charge.
    ping: async () => {
      await Promise.all([...connections.map((shard) => shard.all(raw('SELECT 1 AS one'))), options.ledger.ping()]);
    },
    close: () => options.ledger.close(),
  };
}

/** A target's referring domains from its key's current rollup rows, by domain (UTF-8 bytes: code points), for the matrix. */
async function referrerList({ connection, sources }: ReadPlace, target: Target, key: string): Promise<ReferrerList> {
  const rows = await connection.all<{ d: string; b: number | string; s: number | string; ip: string; c: string }>(
    sql`SELECT r.source_domain AS d, r.backlinks_count AS b, r.domain_score AS s, r.ip_address AS ip, r.country AS c
      FROM ${sources.rollup('r_ref_domains')} WHERE ${sources.rollupRows(key, target)} ORDER BY r.source_domain`,
  );
  const domains = rows.map((row) => row.d);
  const ips = rows.map((row) => row.ip);
  const countries = rows.map((row) => row.c);
  return {
    nativeOrder: [domains, ips, countries].every((texts) => texts.every(isNativeOrderSafe)),
    domains,
    backlinks: Float64Array.from(rows, (row) => Number(row.b)),
    scores: Float64Array.from(rows, (row) => Number(row.s)),
    ips,
    countries,
  };
}

/** The estimated bytes of the shards remembered by domain: some hundred thousand domains of ordinary length. */
const PLACEMENT_BYTES = 16 * 2 ** 20;

/**
 * Which shard holds a registrable domain: `cityHash64(domain) % shards`, as the `Distributed`
 * tables place rows (equal weights), asked of the server (JavaScript has no cityHash64) and
 * remembered (the most recently used, within {@link PLACEMENT_BYTES}).
 */
class ShardPlacement {
  readonly #known = new BoundedCache<string, number>(PLACEMENT_BYTES, (_shard, domain) => ENTRY_BYTES + textBytes(domain) + 8);
  constructor(
    private readonly entry: ClickhouseShard,
    private readonly count: number,
  ) {}

  async of(domain: string): Promise<number> {
    if (this.count === 1) return 0;
    return this.#known.get(domain) ?? (await this.ofAll([domain]))[0]!;
  }

  async ofAll(domains: readonly string[]): Promise<number[]> {
    if (this.count === 1) return domains.map(() => 0);
    // This call's answers apart: the cache may drop some of them before the last batch is asked.
    const found = new Map<string, number>();
    for (const domain of domains) {
      const shard = this.#known.get(domain);
      if (shard !== undefined) found.set(domain, shard);
    }
    const missing = [...new Set(domains.filter((domain) => !found.has(domain)))];
    for (let i = 0; i < missing.length; i += 1_000) {
      const batch = missing.slice(i, i + 1_000);
      const rows = await this.entry.all<{ d: string; s: number }>(
        sql`SELECT d, cityHash64(d) % ${this.count} AS s FROM (SELECT arrayJoin([${join(batch.map((d) => sql`${d}`), ', ')}]) AS d)`,
      );
      for (const row of rows) {
        found.set(row.d, Number(row.s));
        this.#known.set(row.d, Number(row.s));
      }
    }
    return domains.map((domain) => found.get(domain)!);
  }
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

/**
 * The settings of a spread target's links list: ClickHouse takes the conditions of the page's
 * statement into its subquery over the `Distributed` table, which each shard then runs, so a shard
 * sends its home only the rows that pass the filter (off by default in 18.16, which sends every
 * row of the target's and filters on the home shard). Only for the links list, whose statement
 * filters the links themselves; tried by hand: design-store.md, "Large targets spread over every shard".
 */
const FILTER_ON_SHARDS = { enable_optimize_predicate_expression: '1' } as const;

/** The default of `spreadAbove`: the links of a domain past which they are spread over every shard. */
const SPREAD_ABOVE = 1_000_000;

/** Rows per INSERT: ClickHouse wants few large inserts (each one is a part on disk). */
const ROWS_PER_INSERT = 50_000;

/**
 * A load: links go to their domain's shard; domains and pages to every shard; keyword snapshots to
 * the entry shard. Its first write marks the store unmerged on every shard (readers switch to
 * `FINAL`), and waits until every reader has seen the mark (see {@link MergeState}). At `finish` it
 * merges the replacing tables (`OPTIMIZE ... FINAL`), marks the store merged again when every table
 * is down to one part, and computes the domains' rollups, each written as a new version, then that
 * version recorded.
 *
 * One load at a time: the merged mark says that everything written before the merge began is
 * merged, which a second load still running would make untrue.
 */
function createLoad(
  shards: readonly ClickhouseShard[],
  placement: ShardPlacement,
  onMark: () => void,
  keep: number,
  spreadAbove: number,
  spread: Set<string>,
): LoadSink {
  let started: Promise<unknown> | undefined;
  // The start marked, then a wait past every reader's trust in a merge state read before it (see MergeState).
  const start = () =>
    (started ??= (async () => {
      await Promise.all(shards.map((shard) => shard.insert('write_marks_local', [{ writer: nextVersion(), state: 0 }])));
      onMark();
      await new Promise((resolve) => setTimeout(resolve, STATE_SEEN_MS));
    })());
  const everywhere = async (table: string, rows: Record<string, unknown>[]) => {
    await start();
    await Promise.all(shards.map((shard) => shard.insert(table, rows)));
  };
  const byName = (names: readonly string[], values: readonly unknown[], version: number) => {
    const row: Record<string, unknown> = { version };
    names.forEach((name, i) => (row[name] = values[i]));
    return row;
  };
  return {
    fresh: false,
    // Every shard holds every domain: the first says which already have a record.
    recorded: (names) => recordedDomains(shards[0]!, 'domains_local', names),
    domains: async (rows) => {
      const version = nextVersion();
      await everywhere('domains_local', rows.map((d) => ({ domain: d.domain, ip_address: d.ip_address, country: d.country, domain_score: d.domain_score, version })));
    },
    pages: async (rows) => {
      const version = nextVersion();
      await everywhere('target_pages_local', rows.map((values) => byName(PAGE_COLUMNS, values, version)));
    },
    keywords: async (rows) => {
      const version = nextVersion();
      await start();
      await shards[0]!.insert('keyword_metrics', rows.map((values) => byName(KEYWORD_COLUMNS, values, version)));
    },
    links: async (stored) => {
      const placed = await placement.ofAll(stored.map((row) => row.targetDomain));
      const perShard = shards.map((): Record<string, unknown>[] => []);
      stored.forEach((row, i) => {
        const version = nextVersion();
        const record: Record<string, unknown> = { id: version, version };
        LINK_COLUMNS.forEach((column, c) => {
          const value = row.values[c];
          record[column] = column === 'link_key' ? (value as Buffer).toString('hex') : typeof value === 'boolean' ? (value ? 1 : 0) : value;
        });
        // A spread domain's link to the shard that owns it, any other to its domain's shard.
        perShard[spread.has(row.targetDomain) ? ownerOf(record['link_key'] as string, shards.length) : placed[i]!]!.push(record);
      });
      await start();
      await Promise.all(shards.map((shard, s) => insertInBatches(shard, 'links_local', perShard[s]!)));
    },
    finish: async (domains, onProgress) => {
      // Domains this load took past the threshold moved while readers still read with FINAL.
      const moved = started === undefined ? new Map<number, string[]>() : await spreadLarge(shards, spread, spreadAbove, (names) => placement.ofAll(names), nextVersion());
      const recorded = performance.now();
      for (const names of moved.values()) for (const name of names) spread.add(name);
      const merged = started === undefined || (await mergeWrites(shards));
      onMark();
      await refreshRollups(clickhouseRefresh(shards, placement, !merged, keep, spread), domains, onProgress);
      if (moved.size > 0) {
        // Every reader reads the move's record before the copies on the home shards go.
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, recorded + STATE_SEEN_MS - performance.now())));
        await dropLeftovers(shards, moved);
      }
      started = undefined;
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

/** The rollup rows of one domain, as JSON rows of each table. */
type RollupBatch = Record<RollupTable, Record<string, unknown>[]>;

const emptyBatch = (): RollupBatch => Object.fromEntries(Object.keys(ROLLUP_TABLES).map((table) => [table, []])) as unknown as RollupBatch;


/** Links read per query by a refresh (a larger domain is read alone). */
const LINKS_PER_READ = 200_000;

/**
 * The refresh's steps on the cluster: the domains taken shard by shard, each shard's links read in
 * a few large queries (groups of domains by their link counts, the answer streamed), each domain's
 * rows computed by `rollupRows`, written with a new version in large inserts per shard, and the
 * version recorded after its rows, so readers switch from the old rollups to the new at once; the
 * versions they replaced are deleted once a shard is done. `unmerged`: the links may hold replaced
 * rows, read them with `FINAL`.
 */
function clickhouseRefresh(shards: readonly ClickhouseShard[], placement: ShardPlacement, unmerged: boolean, keep: number, spread: ReadonlySet<string>): RefreshSteps {
  const final = unmerged ? ' FINAL' : '';
  const links = (names: Fragment, spreadOnes: boolean) => linkRows(shards[0]!.database, shards.length, names, spreadOnes, unmerged, 'l');
  // A spread domain is read alone (its links on every shard): counted as more than a batch holds.
  const sizeOf = (counts: ReadonlyMap<string, number>, domain: string) => (spread.has(domain) ? LINKS_PER_READ + 1 : (counts.get(domain) ?? 0));
  // Every version this refresh writes is newer than this one.
  let since = 0;
  const shardOf = new Map<string, number>();
  const known = new Map<string, { ip_address: string; country: string; domain_score: number }>();
  const pages = new Map<string, PageData>();
  const graphIds = new GraphIds(shards[0]!);
  let current: { readonly s: number; readonly counts: Map<string, number>; readonly writer: RollupWriter } | undefined;
  const closeShard = async () => {
    if (!current) return;
    await current.writer.flush();
    await dropOldVersions(shards[current.s]!, since);
    current = undefined;
  };
  return {
    allDomains: () => allDomains(shards),
    begin: async (domains) => {
      if (domains.length === 0) return domains;
      since = nextVersion();
      const placed = await placement.ofAll(domains);
      domains.forEach((domain, i) => shardOf.set(domain, placed[i]!));
      // Every shard holds all domains: their country and score read once, rather than joined per domain.
      await shards[0]!.each<{ domain: string; ip_address: string; country: string; domain_score: number }>(
        raw(`SELECT domain, ip_address, country, domain_score FROM domains_local${final}`),
        (rows) => {
          for (const row of rows) known.set(row.domain, { ip_address: row.ip_address, country: row.country, domain_score: Number(row.domain_score) });
        },
      );
      // And the target pages' own data, which the rollups of their domains show.
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
      return shards.flatMap((_, s) => domains.filter((domain) => shardOf.get(domain) === s));
    },
    group: async (domains, from, counted) => {
      const s = shardOf.get(domains[from]!)!;
      if (current?.s !== s) {
        await closeShard();
        const counts = new Map<string, number>();
        await shards[s]!.each<{ d: string; n: number }>(raw(`SELECT target_domain AS d, count() AS n FROM links_local GROUP BY d`), (rows) => {
          for (const row of rows) counts.set(row.d, Number(row.n));
        });
        current = { s, counts, writer: new RollupWriter(shards[s]!, graphIds, keep, unmerged, spread, links) };
      }
      const { counts, writer } = current;
      // Domains of this shard, about LINKS_PER_READ links (a larger domain alone) and at most 10,000.
      let end = from;
      let size = 0;
      while (end < domains.length && shardOf.get(domains[end]!) === s && end - from < 10_000 && (end === from || size + sizeOf(counts, domains[end]!) <= LINKS_PER_READ)) {
        size += sizeOf(counts, domains[end]!);
        end++;
      }
      const batch = domains.slice(from, end);
      const linksOf = new Map<string, SourceLink[]>(batch.map((domain) => [domain, []]));
      const withLinks = batch.filter((domain) => sizeOf(counts, domain) > 0);
      for (let i = 0; i < withLinks.length; i += 1_000) {
        const names = join(withLinks.slice(i, i + 1_000).map((domain) => sql`${domain}`), ', ');
        await shards[s]!.each<Omit<SourceLink, 'domain_ip' | 'country' | 'domain_score'> & { target_domain: string }>(
          sql`SELECT target_domain, ${SOURCE_COLUMNS} FROM ${links(names, spread.has(withLinks[i]!))}`,
          (rows) => {
            for (const row of rows) {
              // Completed in place: a large domain's links are millions of objects.
              const link = row as unknown as { -readonly [K in keyof SourceLink]: SourceLink[K] };
              const source = known.get(link.source_domain);
              link.domain_ip = source?.ip_address ?? null;
              link.country = source?.country ?? null;
              link.domain_score = source?.domain_score ?? null;
              linksOf.get(row.target_domain)!.push(link);
            }
          },
        );
      }
      for (const [i, domain] of batch.entries()) {
        await writer.add(domain, rollupRows(domain, linksOf.get(domain)!, pages), firstSeenTimes(domain, linksOf.get(domain)!));
        linksOf.delete(domain);
        counted(from + i + 1);
      }
      return end;
    },
    end: closeShard,
  };
}

/** Domains a fill of `r_first_seen_times` writes per statement (its GROUP BY holds their links' times). */
const FILL_DOMAINS = 1_000;

/**
 * Writes the rows of `r_first_seen_times` a shard's current rollups lack: those of every domain
 * whose current version has no times (rollups written before the table existed, in a database
 * made by an earlier version of this package), from the domain's links, as a refresh writes them
 * (`firstSeenTimes`: per key and day, the times past the day in order), FILL_DOMAINS domains per
 * statement; a domain without links has none to write. Run at every open: one query of the
 * shard's versions and the keys of `r_first_seen_times` when nothing is missing. Each statement
 * looks again at which of its domains lack times: a version is recorded after all its rows, so a
 * load running meanwhile is never filled twice.
 */
async function fillFirstSeenTimes(shard: ClickhouseShard, spread: ReadonlySet<string>, links: KeptLinks): Promise<void> {
  const missing = (domains?: Fragment) => versionsLacking('r_first_seen_times_local', domains);
  const lacking = (await shard.all<{ tdomain: string }>(sql`SELECT tdomain FROM (${missing()})`)).map((row) => row.tdomain);
  for (const spreadOnes of [false, true]) {
    const domains = lacking.filter((domain) => spread.has(domain) === spreadOnes);
    for (let i = 0; i < domains.length; i += FILL_DOMAINS) {
      const names = join(domains.slice(i, i + FILL_DOMAINS).map((domain) => sql`${domain}`), ', ');
      await shard.run(
        sql`INSERT INTO r_first_seen_times_local (tkey, tdomain, day, times, version)
          SELECT tkey, tdomain, day, arraySort(groupArray(t)) AS times, any(v) AS version FROM (
            SELECT tkey, target_domain AS tdomain, substring(first_seen_at, 1, 10) AS day, substring(first_seen_at, 11, length(first_seen_at)) AS t
            FROM (SELECT target_domain, target_host, target_path, first_seen_at FROM ${links(names, spreadOnes)})
            ARRAY JOIN ${LINK_KEYS} AS tkey
          ) ANY INNER JOIN (${missing(names)}) USING tdomain
          GROUP BY tkey, tdomain, day`,
      );
    }
  }
}

/**
 * Deletes the rollup rows of the shard's domains that a version written since `since` replaced
 * (an `ALTER TABLE ... DELETE`, which ClickHouse carries out in the background part by part).
 * Readers never read them (they read a domain's latest version); deleting them keeps a domain's
 * range of each table as short as one version. A query already running keeps the parts it reads.
 */
async function dropOldVersions(shard: ClickhouseShard, since: number): Promise<void> {
  for (const table of [...Object.keys(ROLLUP_TABLES), ...Object.values(KEPT_TABLES), 'kept_done']) {
    await shard.run(
      sql`ALTER TABLE ${raw(`${table}_local`)} DELETE WHERE version < ${since}
        AND (tdomain, version) NOT IN (SELECT tdomain, max(version) FROM r_versions_local GROUP BY tdomain)`,
    );
  }
}

/** The place of a key's link count in its `r_targets` tuple. */
const BACKLINKS = ROLLUP_COLUMNS.r_targets.indexOf('backlinks_count');

/**
 * Collects one shard's rollup rows and writes them in large inserts, then the kept rows of the
 * domains with a large key (`kept-rows.ts`), each domain's version recorded after its rows.
 * `unmerged`: the links may hold replaced rows.
 */
class RollupWriter {
  #batch = emptyBatch();
  #versions: (readonly [domain: string, version: number])[] = [];
  /** The domains of the batch with a key of more links than `keep`: only their lists can have kept rows. */
  #large: (readonly [domain: string, version: number])[] = [];
  #rows = 0;
  constructor(
    private readonly shard: ClickhouseShard,
    private readonly graphIds: GraphIds,
    private readonly keep: number,
    private readonly unmerged: boolean,
    private readonly spread: ReadonlySet<string>,
    private readonly links: KeptLinks,
  ) {}

  async add(domain: string, rows: ReturnType<typeof rollupRows>, times: ReturnType<typeof firstSeenTimes>): Promise<void> {
    const version = nextVersion();
    const add = (table: Exclude<RollupTable, 'r_history' | 'r_first_seen_times' | 'r_graph'>, tuples: readonly (readonly unknown[])[]) => {
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
    for (const [tkey, day, list] of times) this.#batch.r_first_seen_times.push({ tkey, tdomain: domain, day, times: list, version });
    this.#batch.r_graph.push({ tdomain: domain, sources: await this.graphIds.of(graphSources(domain, rows.refDomains)), version });
    this.#rows += rows.history.length + times.length + 1;
    this.#versions.push([domain, version]);
    // A list has no more rows per key than the key has links.
    if (rows.targets.some((tuple) => Number(tuple[BACKLINKS]) > this.keep)) this.#large.push([domain, version]);
    if (this.#rows >= ROWS_PER_INSERT) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.#versions.length === 0) return;
    // The referring domains' new ids before the graph rows that use them.
    await this.graphIds.flush();
    for (const table of Object.keys(this.#batch) as RollupTable[]) await insertInBatches(this.shard, `${table}_local`, this.#batch[table]);
    await writeKeptRows(this.shard, this.#large, this.keep, this.spread, this.links);
    await recordKept(this.shard, this.#versions);
    await this.shard.insert('r_versions_local', this.#versions.map(([tdomain, version]) => ({ tdomain, version })));
    this.#batch = emptyBatch();
    this.#versions = [];
    this.#large = [];
    this.#rows = 0;
  }
}
