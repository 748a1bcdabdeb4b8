/**
 * The store over any {@link SqlConnection}: every operation's query, written once. An engine
 * builds its connection and migrations and calls {@link createSqlStore}.
 *
 * With `rollups: false` every answer is grouped from the links per call: the slow, obviously
 * right path the rollup differential test compares the rollups with.
 *
 * @module
 */
import { operations } from '../../../catalogue/operations.js';
import type { RowOf } from '../../../catalogue/types.js';
import type { DomainParser } from '../../deps.js';
import { newDays } from '../../clock.js';
import { monthlyCounts, monthRange, type HistoryLink } from '../../history.js';
import type { Target } from '../../target.js';
import { rollupKey } from '../shared.js';
import type { Clock, GraphWriter, GroupedOperation, GroupedQuery, HistoryPoint, RowsResult, Store, SummaryQuery } from '../store.js';
import type { SqlConnection } from '../connection.js';
import { filterCondition } from './filter.js';
import { join, raw, sql, type Fragment } from '../fragment.js';
import { competitors, matrix, scoreProfile } from './graph.js';
import { sqlLedger } from '../ledger.js';
import { keywordMetrics } from './keywords.js';
import { groupedRows, SQL_SOURCES, type ReadPlace, type RelationSources } from './relations.js';
import { toRecord } from './records.js';
import { runList } from './run-list.js';
import { scopeCondition } from './scope.js';
import { createGraphWriter, type KeywordSink, type LinkSink, type RefreshOptions } from '../loads/writer.js';

/** Options of {@link createSqlStore}. */
export interface SqlStoreOptions {
  /** The store's {@link Store.kind} (default: the filter dialect's name, `sqlite` or `postgres`). */
  readonly kind?: string;
  /** Answer from the rollups (default true); `false` groups the links on every call. */
  readonly rollups?: boolean;
  /** The public-suffix parser the writer derives registrable domains with. */
  readonly parser: DomainParser;
  /** The engine's fast way to write links (default: multi-row upserts). */
  readonly writeLinks?: LinkSink;
  /** How the writer writes keyword snapshots (default: the shared multi-row upsert). @internal */
  readonly writeKeywords?: KeywordSink;
  /** How the writer refreshes rollups kept elsewhere (the embedded store's column side). @internal */
  readonly refresh?: RefreshOptions;
  /** Runs when the store closes, after the connection (an engine's own handles). */
  readonly onClose?: () => Promise<void> | void;
}

const OVERVIEW_COUNTERS = [
  'backlinks_count', 'domains_count', 'urls_count', 'follows_count', 'nofollows_count', 'sponsored_count', 'ugc_count', 'frames_count',
  'forms_count', 'images_count', 'texts_count', 'ips_count', 'ip_class_c_count', 'lost_count',
] as const;

/**
 * A {@link Store} answering from SQL over a connection.
 *
 * @example
 * ```ts
 * const store = createSqlStore(connection, { parser: tldts });
 * ```
 */
export function createSqlStore(connection: SqlConnection, options: SqlStoreOptions): Store {
  const useRollups = options.rollups !== false;
  const here: ReadPlace = { connection, sources: SQL_SOURCES };
  return {
    kind: options.kind ?? connection.dialect.filter,
    ping: async () => {
      await connection.all(sql`SELECT 1 AS one`);
    },
    ...createReads(() => here, () => here, useRollups),
    competitors: (query) => competitors(connection, query, useRollups),
    // The ledger in the same database; the store closes the connection.
    ledger: sqlLedger(connection, { closeConnection: false }),
    hasLinks: async () => (await connection.all(sql`SELECT 1 AS one FROM links LIMIT 1`)).length > 0,
    // From the domain-level rollups when kept (one row per target domain), else counted over the links.
    topTarget: async () =>
      (
        await connection.all<{ domain: string }>(
          useRollups
            ? sql`SELECT tdomain AS domain FROM r_targets WHERE tkey LIKE 'd:%' ORDER BY backlinks_count DESC, tdomain LIMIT 1`
            : sql`SELECT target_domain AS domain FROM links GROUP BY target_domain ORDER BY count(*) DESC, target_domain LIMIT 1`,
        )
      )[0]?.domain,
    writer: async (): Promise<GraphWriter> => createGraphWriter(connection, options.parser, options.writeLinks, options.refresh, options.writeKeywords),
    close: async () => {
      await connection.close();
      await options.onClose?.();
    },
  };
}

/** The reads every store answers with the same queries. */
export type StoreReads = Pick<Store, 'overview' | 'summary' | 'grouped' | 'scoreProfile' | 'matrix' | 'keywordMetrics'>;

/**
 * The operations' reads, written once: `at(domain)` is where a call about a target of that
 * registrable domain reads (the one database, or the shard holding the domain), `across()` where a
 * call about several targets does (the matrix) and keyword lookups.
 *
 * @example
 * ```ts
 * const here = { connection, sources: SQL_SOURCES };
 * const reads = createReads(() => here, () => here, true);
 * ```
 */
export function createReads(
  at: (domain: string) => ReadPlace | Promise<ReadPlace>,
  across: () => ReadPlace | Promise<ReadPlace>,
  useRollups: boolean,
): StoreReads {
  const keyOf = (target: Target) => (useRollups ? rollupKey(target) : undefined);
  return {
    overview: async (target, clock) => overview(await at(target.domain), target, clock, keyOf(target)),
    summary: async (query) => summary(await at(query.target.domain), query, keyOf(query.target)),
    grouped: async <Op extends GroupedOperation>(operation: Op, query: GroupedQuery) =>
      grouped<Op>(await at(query.target.domain), operation, query, keyOf(query.target)),
    scoreProfile: async (target) => scoreProfile(await at(target.domain), target, useRollups),
    matrix: async (query) => matrix(await across(), query, useRollups),
    keywordMetrics: async (query) => keywordMetrics(await across(), query),
  };
}

async function grouped<Op extends GroupedOperation>(
  { connection, sources }: ReadPlace,
  operation: Op,
  query: GroupedQuery,
  tkey: string | undefined,
): Promise<RowsResult<RowOf<Op>>> {
  const rows = groupedRows(operation, query.target, query.clock, tkey, sources);
  const where = filterCondition(query.filter, operation, connection.dialect);
  const total = tkey === undefined ? undefined : () => rollupTotal(connection, operation, tkey, query.target, sources);
  const { linksOfIds } = sources;
  // A page of links read keys first, where the store says how to read rows by id.
  const rowsOf =
    operation === 'links' && linksOfIds
      ? (ids: readonly unknown[]) =>
          connection.all<Record<string, unknown>>(groupedRows('links', query.target, query.clock, tkey, { ...sources, links: linksOfIds(query.target, ids) }))
      : undefined;
  const result = await runList(connection, rows, where, query.page, { total, rowsOf });
  const record = operations[operation].record;
  return { total: result.total, rows: result.rows.map((row) => toRecord<RowOf<Op>>(row, record)) };
}

/** Where a list's unfiltered total comes from: a counter of `r_targets`, or one index range count. */
const TOTALS: Readonly<Record<GroupedOperation, { readonly table: 'r_targets' | 'r_pages' | 'r_anchors'; readonly count: string }>> = {
  links: { table: 'r_targets', count: 'r.backlinks_count' },
  'ref-domains': { table: 'r_targets', count: 'r.domains_count' },
  // One row of r_ref_ips per distinct IP of the key: its count is the key's ips_count.
  'ref-ips': { table: 'r_targets', count: 'r.ips_count' },
  pages: { table: 'r_pages', count: 'count(*)' },
  anchors: { table: 'r_anchors', count: 'count(*)' },
};

/** A list's unfiltered total, read as {@link TOTALS} says. @internal */
export async function rollupTotal(
  connection: SqlConnection,
  operation: GroupedOperation,
  tkey: string,
  target: Target,
  sources: RelationSources = SQL_SOURCES,
): Promise<number> {
  const { table, count } = TOTALS[operation];
  const [row] = await connection.all<{ n: number }>(sql`SELECT ${raw(count)} AS n FROM ${sources.rollup(table)} WHERE ${sources.rollupRows(tkey, target)}`);
  return Number(row?.n ?? 0);
}

/**
 * How many of a key's links are new: the days after the day "new" starts, from `r_first_seen`
 * (at most 30 rows), plus that first day's links from its start time on, one index range of the
 * links (one day of them). An expression (two scalar subqueries), for the overview's one query.
 */
function newCountOfKey(tkey: string, target: Target, clock: Clock, sources: RelationSources): Fragment {
  const { day, nextDay } = newDays(clock);
  return sql`(SELECT coalesce(sum(r.links_count), 0) FROM ${sources.rollup('r_first_seen')} WHERE ${sources.rollupRows(tkey, target)} AND r.day > ${day})
    + (SELECT count(*) FROM ${sources.links} WHERE ${scopeCondition(target)} AND l.first_seen_at >= ${clock.newSince} AND l.first_seen_at < ${nextDay})`;
}

/** The overview: the key's counters, its new links and the target's score in one query. */
async function overview({ connection, sources }: ReadPlace, target: Target, clock: Clock, tkey: string | undefined): Promise<RowOf<'overview'>> {
  const score = targetScore(target, sources);
  if (tkey !== undefined) {
    const [row] = await connection.all<Record<string, unknown>>(
      sql`SELECT r.*, ${newCountOfKey(tkey, target, clock, sources)} AS new_count, ${score} AS target_score
        FROM ${sources.rollup('r_targets')} WHERE ${sources.rollupRows(tkey, target)}`,
    );
    if (row) return overviewRecord(row, Number(row['target_score']));
    const [unknown] = await connection.all<{ s: number }>(sql`SELECT ${score} AS s`);
    return overviewRecord(undefined, Number(unknown?.s ?? 0));
  }
  const [counts] = await connection.all<Record<string, unknown>>(linkCounters(sources.links, target, clock, score));
  return overviewRecord(counts, Number(counts?.['target_score'] ?? 0));
}

/** The overview's counters grouped from the links of `from` (aliased `l`), for targets without a rollup key, and `score` as `target_score`. */
function linkCounters(from: Fragment, target: Target, clock: Clock, score: Fragment): Fragment {
  return sql`SELECT count(*) AS backlinks_count,
      count(DISTINCT l.source_domain) AS domains_count,
      count(DISTINCT l.source_url) AS urls_count,
      sum(CASE WHEN l.is_nofollow THEN 0 ELSE 1 END) AS follows_count,
      sum(CASE WHEN l.is_nofollow THEN 1 ELSE 0 END) AS nofollows_count,
      sum(CASE WHEN l.is_sponsored THEN 1 ELSE 0 END) AS sponsored_count,
      sum(CASE WHEN l.is_ugc THEN 1 ELSE 0 END) AS ugc_count,
      sum(CASE WHEN l.is_frame THEN 1 ELSE 0 END) AS frames_count,
      sum(CASE WHEN l.is_form THEN 1 ELSE 0 END) AS forms_count,
      sum(CASE WHEN l.is_image THEN 1 ELSE 0 END) AS images_count,
      sum(CASE WHEN l.is_image THEN 0 ELSE 1 END) AS texts_count,
      count(DISTINCT l.ip_address) AS ips_count,
      count(DISTINCT l.ip_class_c) AS ip_class_c_count,
      sum(CASE WHEN l.first_seen_at >= ${clock.newSince} THEN 1 ELSE 0 END) AS new_count,
      sum(CASE WHEN l.is_lost THEN 1 ELSE 0 END) AS lost_count,
      ${score} AS target_score
    FROM ${from} WHERE ${scopeCondition(target)}`;
}

/** The overview record from its counters (numbers or numeric text) and the target's score. @internal */
export function overviewRecord(counts: Readonly<Record<string, unknown>> | undefined, score: number): RowOf<'overview'> {
  const record: Record<string, number> = {};
  for (const field of [...OVERVIEW_COUNTERS, 'new_count'] as const) record[field] = Number(counts?.[field] ?? 0);
  return { ...(record as Omit<RowOf<'overview'>, 'score'>), score };
}

/**
 * The target's score, as an expression (scalar subqueries): the page score for PAGE, else the
 * domain score of the host (falling back to the registrable domain), or of the registrable domain
 * for ROOT_DOMAIN; 0 when unknown.
 */
function targetScore(target: Target, sources: RelationSources): Fragment {
  if (target.scope === 'PAGE') {
    const hosts = sql`${target.host}`;
    return sql`coalesce((SELECT p.page_score FROM ${sources.targetPages(hosts)} WHERE p.host = ${target.host} AND p.path = ${target.path}), 0)`;
  }
  const names = target.scope === 'ROOT_DOMAIN' ? [target.domain] : [target.host, target.domain];
  const scores = names.map((name) => sql`(SELECT d.domain_score FROM ${sources.domains(sql`${name}`)} WHERE d.domain = ${name})`);
  return sql`coalesce(${join(scores, ', ')}, 0)`;
}

/**
 * The months of a summary: from the later of `from` and the oldest month with data, to `to`,
 * ascending; the first `limit` of them when `from` is given, else the last `limit`; `total`
 * counts them all. From the rollups: the stored rows are the months where a count changes, and
 * every month in between repeats the row before it. The target's score comes with the rows.
 */
async function summary({ connection, sources }: ReadPlace, query: SummaryQuery, tkey: string | undefined): Promise<RowsResult<HistoryPoint>> {
  const score = targetScore(query.target, sources);
  const scoreOf = async (rows: readonly { readonly target_score: unknown }[]) =>
    Number(rows.length > 0 ? rows[0]!.target_score : (await connection.all<{ s: number }>(sql`SELECT ${score} AS s`))[0]?.s ?? 0);
  if (tkey !== undefined) {
    const stored = await connection.all<StoredHistoryRow & { target_score: number }>(
      sql`SELECT r.month, r.backlinks_count, r.domains_count, r.follows_count, ${score} AS target_score
        FROM ${sources.rollup('r_history')} WHERE ${sources.rollupRows(tkey, query.target)} AND r.month <= ${query.to} ORDER BY r.month`,
    );
    return historyFromRollup(stored, query, () => scoreOf(stored));
  }
  const links = await connection.all<HistoryLink & { target_score: number }>(
    sql`SELECT l.first_seen_at, l.last_seen_at, l.is_lost, l.is_nofollow, l.source_domain, ${score} AS target_score FROM ${sources.links} WHERE ${scopeCondition(query.target)}`,
  );
  if (links.length === 0) return { rows: [], total: 0 };
  const oldest = links.reduce((min, link) => (link.first_seen_at < min ? link.first_seen_at : min), links[0]!.first_seen_at).slice(0, 7);
  return historyPage(oldest, (months) => monthlyCounts(links, months), query, () => scoreOf(links));
}

/** A stored row of `r_history`: the counts from `month` until the key's next row. */
interface StoredHistoryRow {
  readonly month: string;
  readonly backlinks_count: number | string;
  readonly domains_count: number | string;
  readonly follows_count: number | string;
}

/** The summary from a key's stored history rows up to `to`, in month order. */
function historyFromRollup(stored: readonly StoredHistoryRow[], query: SummaryQuery, score: () => Promise<number>): Promise<RowsResult<HistoryPoint>> {
  // Data may start after `to`: then there is history, but none in the range.
  if (stored.length === 0) return Promise.resolve({ rows: [], total: 0 });
  const countsOf = (months: readonly string[]) => {
    let at = 0;
    return months.map((month) => {
      while (at + 1 < stored.length && stored[at + 1]!.month <= month) at++;
      const row = stored[at]!;
      return { backlinks_count: Number(row.backlinks_count), domains_count: Number(row.domains_count), follows_count: Number(row.follows_count) };
    });
  };
  return historyPage(stored[0]!.month, countsOf, query, score);
}

/** The months of the query's page, from the oldest month with data, with their counts and the target's score. */
async function historyPage(
  oldest: string,
  countsOf: (months: readonly string[]) => { backlinks_count: number; domains_count: number; follows_count: number }[],
  query: SummaryQuery,
  score: () => Promise<number>,
): Promise<RowsResult<HistoryPoint>> {
  const first = query.from !== undefined && query.from > oldest ? query.from : oldest;
  if (first > query.to) return { rows: [], total: 0 };
  const months = monthRange(first, query.to);
  // From a given date_from the first `limit` months; otherwise the latest `limit` (the last year by default).
  const shown = query.from !== undefined ? months.slice(0, query.limit) : months.slice(Math.max(0, months.length - query.limit));
  const targetScoreValue = await score();
  const counts = countsOf(shown);
  return { rows: shown.map((month, i) => ({ score: targetScoreValue, ...counts[i]!, month_date: `${month}-01` })), total: months.length };
}
