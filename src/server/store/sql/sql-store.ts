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
import type { SqlConnection } from './connection.js';
import { filterCondition } from './filter.js';
import { raw, sql, type Fragment } from './fragment.js';
import { competitors, matrix, scoreProfile } from './graph.js';
import { balance, charge, keywordMetrics, storedKeys, upsertKeys } from './keys.js';
import { groupedRows } from './relations.js';
import { toRecord } from './rows.js';
import { runList } from './run-list.js';
import { scopeCondition } from './scope.js';
import { createGraphWriter, type LinkSink, type RefreshOptions } from './writer.js';

/** Options of {@link createSqlStore}. */
export interface SqlStoreOptions {
  /** Answer from the rollups (default true); `false` groups the links on every call. */
  readonly rollups?: boolean;
  /** The public-suffix parser the writer derives registrable domains with. */
  readonly parser: DomainParser;
  /** The engine's fast way to write links (default: multi-row upserts). */
  readonly writeLinks?: LinkSink;
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
  const keyOf = (target: Target) => (useRollups ? rollupKey(target) : undefined);
  return {
    overview: (target, clock) => overview(connection, target, clock, keyOf(target)),
    summary: (query) => summary(connection, query, keyOf(query.target)),
    grouped: <Op extends GroupedOperation>(operation: Op, query: GroupedQuery) => grouped<Op>(connection, operation, query, keyOf(query.target)),
    scoreProfile: (target) => scoreProfile(connection, target, useRollups),
    competitors: (query) => competitors(connection, query, useRollups),
    matrix: (query) => matrix(connection, query, useRollups),
    keywordMetrics: (query) => keywordMetrics(connection, query),
    upsertKeys: (keys) => upsertKeys(connection, keys),
    keys: () => storedKeys(connection),
    charge: (keyId, units) => charge(connection, keyId, units),
    balance: (keyId) => balance(connection, keyId),
    hasLinks: async () => (await connection.all(sql`SELECT 1 AS one FROM links LIMIT 1`)).length > 0,
    writer: async (): Promise<GraphWriter> => createGraphWriter(connection, options.parser, options.writeLinks, options.refresh),
    close: async () => {
      await connection.close();
      await options.onClose?.();
    },
  };
}

async function grouped<Op extends GroupedOperation>(
  connection: SqlConnection,
  operation: Op,
  query: GroupedQuery,
  tkey: string | undefined,
): Promise<RowsResult<RowOf<Op>>> {
  const rows = groupedRows(operation, query.target, query.clock, tkey);
  const where = filterCondition(query.filter, operation, connection.dialect);
  const total = tkey === undefined ? undefined : () => rollupTotal(connection, operation, tkey);
  const result = await runList(connection, rows, where, query.page, { total });
  const record = operations[operation].record;
  return { total: result.total, rows: result.rows.map((row) => toRecord<RowOf<Op>>(row, record)) };
}

/** Where a list's unfiltered total comes from: a counter of `r_targets`, or one index range count. */
export const TOTALS: Readonly<Record<GroupedOperation, string>> = {
  links: 'SELECT backlinks_count AS n FROM r_targets WHERE tkey = ?',
  'ref-domains': 'SELECT domains_count AS n FROM r_targets WHERE tkey = ?',
  // One row of r_ref_ips per distinct IP of the key: its count is the key's ips_count.
  'ref-ips': 'SELECT ips_count AS n FROM r_targets WHERE tkey = ?',
  pages: 'SELECT count(*) AS n FROM r_pages WHERE tkey = ?',
  anchors: 'SELECT count(*) AS n FROM r_anchors WHERE tkey = ?',
};

/** A list's unfiltered total, read as {@link TOTALS} says. @internal */
export async function rollupTotal(connection: SqlConnection, operation: GroupedOperation, tkey: string): Promise<number> {
  const [row] = await connection.all<{ n: number }>({ sql: TOTALS[operation], params: [tkey] });
  return Number(row?.n ?? 0);
}

/**
 * How many of a key's links are new: the days after the day "new" starts, from `r_first_seen`
 * (at most 30 rows), plus that first day's links from its start time on, one index range of the
 * links (one day of them).
 */
export function newCountOfKey(tkey: string, target: Target, clock: Clock): Fragment {
  const { day, nextDay } = newDays(clock);
  return sql`SELECT (SELECT coalesce(sum(links_count), 0) FROM r_first_seen WHERE tkey = ${tkey} AND day > ${day})
    + (SELECT count(*) FROM links l WHERE ${scopeCondition(target)} AND l.first_seen_at >= ${clock.newSince} AND l.first_seen_at < ${nextDay}) AS n`;
}

async function overview(connection: SqlConnection, target: Target, clock: Clock, tkey: string | undefined): Promise<RowOf<'overview'>> {
  let counts: Record<string, unknown> | undefined;
  if (tkey !== undefined) {
    const [row] = await connection.all<Record<string, unknown>>(sql`SELECT * FROM r_targets WHERE tkey = ${tkey}`);
    const [fresh] = row ? await connection.all<{ n: number }>(newCountOfKey(tkey, target, clock)) : [{ n: 0 }];
    counts = { ...row, new_count: fresh?.n ?? 0 };
  } else {
    [counts] = await connection.all<Record<string, unknown>>(linkCounters(raw('links l'), target, clock));
  }
  return overviewRecord(counts, await targetScore(connection, target));
}

/** The overview's counters grouped from the links of `from` (aliased `l`), for targets without a rollup key. @internal */
export function linkCounters(from: Fragment, target: Target, clock: Clock): Fragment {
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
      sum(CASE WHEN l.is_lost THEN 1 ELSE 0 END) AS lost_count
    FROM ${from} WHERE ${scopeCondition(target)}`;
}

/** The overview record from its counters (numbers or numeric text) and the target's score. @internal */
export function overviewRecord(counts: Readonly<Record<string, unknown>> | undefined, score: number): RowOf<'overview'> {
  const record: Record<string, number> = {};
  for (const field of [...OVERVIEW_COUNTERS, 'new_count'] as const) record[field] = Number(counts?.[field] ?? 0);
  return { ...(record as Omit<RowOf<'overview'>, 'score'>), score };
}

/**
 * The target's score: the page score for PAGE, else the domain score of the host (falling back
 * to the registrable domain), or of the registrable domain for ROOT_DOMAIN; 0 when unknown.
 */
async function targetScore(connection: SqlConnection, target: Target): Promise<number> {
  if (target.scope === 'PAGE') {
    const [page] = await connection.all<{ page_score: number }>(sql`SELECT page_score FROM target_pages WHERE host = ${target.host} AND path = ${target.path}`);
    return Number(page?.page_score ?? 0);
  }
  const names = target.scope === 'ROOT_DOMAIN' ? [target.domain] : [target.host, target.domain];
  for (const name of names) {
    const [row] = await connection.all<{ domain_score: number }>(sql`SELECT domain_score FROM domains WHERE domain = ${name}`);
    if (row) return Number(row.domain_score);
  }
  return 0;
}

/**
 * The months of a summary: from the later of `from` and the oldest month with data, to `to`,
 * ascending; the first `limit` of them when `from` is given, else the last `limit`; `total`
 * counts them all. From the rollups: the stored rows are the months where a count changes, and
 * every month in between repeats the row before it.
 */
async function summary(connection: SqlConnection, query: SummaryQuery, tkey: string | undefined): Promise<RowsResult<HistoryPoint>> {
  const score = () => targetScore(connection, query.target);
  if (tkey !== undefined) {
    const stored = await connection.all<StoredHistoryRow>(
      sql`SELECT month, backlinks_count, domains_count, follows_count FROM r_history WHERE tkey = ${tkey} AND month <= ${query.to} ORDER BY month`,
    );
    return historyFromRollup(stored, query, score);
  }
  const links = await connection.all<HistoryLink>(
    sql`SELECT l.first_seen_at, l.last_seen_at, l.is_lost, l.is_nofollow, l.source_domain FROM links l WHERE ${scopeCondition(query.target)}`,
  );
  if (links.length === 0) return { rows: [], total: 0 };
  const oldest = links.reduce((min, link) => (link.first_seen_at < min ? link.first_seen_at : min), links[0]!.first_seen_at).slice(0, 7);
  return historyPage(oldest, (months) => monthlyCounts(links, months), query, score);
}

/** A stored row of `r_history`: the counts from `month` until the key's next row. @internal */
export interface StoredHistoryRow {
  readonly month: string;
  readonly backlinks_count: number | string;
  readonly domains_count: number | string;
  readonly follows_count: number | string;
}

/** The summary from a key's stored history rows up to `to`, in month order (every store's rollup path). @internal */
export function historyFromRollup(stored: readonly StoredHistoryRow[], query: SummaryQuery, score: () => Promise<number>): Promise<RowsResult<HistoryPoint>> {
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

/** The months of the query's page, from the oldest month with data, with their counts and the target's score. @internal */
export async function historyPage(
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
