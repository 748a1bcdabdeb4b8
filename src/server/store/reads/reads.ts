/**
 * The reads of one target, written once over a {@link ReadPlace}: a list as its engine plans it,
 * the overview and the summary. From the rollups when given the target's rollup key; without one
 * (a SUBFOLDER below the host, or an engine answering without rollups) grouped from the links per
 * call: the slow, obviously right path the rollup differential suites compare the rollups with.
 *
 * @module
 * @internal
 */
import { operations } from '../../../catalogue/operations.js';
import type { RowOf } from '../../../catalogue/types.js';
import { newDays } from '../../clock.js';
import { monthlyCounts, monthRange, type HistoryLink } from '../../history.js';
import type { Target } from '../../target.js';
import { printFilter } from '../../../print/printer.js';
import { fieldNames } from '../../../ast/visitor.js';
import type { Clock, GroupedOperation, GroupedQuery, HistoryPoint, RowsResult, SummaryQuery } from '../store.js';
import type { SqlConnection } from '../connection.js';
import type { ListPlan, RowsByKey } from '../engine.js';
import { filterCondition } from './filter.js';
import { join, raw, sql, type Fragment } from '../fragment.js';
import { groupedRows, listSortKeys, SQL_SOURCES, type ReadPlace, type RelationSources } from './relations.js';
import { toRecord } from './records.js';
import { runList, type ListWindows, type RowsOfKeys } from './run-list.js';
import { scopeCondition } from './scope.js';

const OVERVIEW_COUNTERS = [
  'backlinks_count', 'domains_count', 'urls_count', 'follows_count', 'nofollows_count', 'sponsored_count', 'ugc_count', 'frames_count',
  'forms_count', 'images_count', 'texts_count', 'ips_count', 'ip_class_c_count', 'lost_count',
] as const;

/**
 * A page of a list as an engine's {@link ListPlan} says to read it: the relation of the list at
 * the plan's place, the filter lowered for its dialect, the unfiltered total from the rollup
 * counters where the plan names them, keys first where it says so, through the read-cache's
 * window where it keeps one (the rows' `is_new` then taken again at this call's clock).
 */
export async function readList<Op extends GroupedOperation>(
  plan: ListPlan,
  operation: Op,
  query: GroupedQuery,
  rollupKey: string | undefined,
  windows: ListWindows,
): Promise<RowsResult<RowOf<Op>>> {
  const { connection, sources } = plan.keys;
  const relation = groupedRows(operation, query.target, query.clock, rollupKey, sources);
  const where = filterCondition(query.filter, operation, connection.dialect);
  const counters = plan.totals;
  const total = counters && rollupKey !== undefined ? () => rollupTotal(counters.connection, operation, rollupKey, query.target, counters.sources) : undefined;
  const rowsOf = plan.rows ? rowsByKey(plan.rows, connection, relation, query) : undefined;
  // A page's keys are chosen from the rows with only what the filter and the order name.
  const keys = rowsOf ? groupedRows(operation, query.target, query.clock, rollupKey, sources, [...(query.filter ? fieldNames(query.filter) : []), query.page.orderBy]) : undefined;
  // Only the links relation carries the columns that sort as its text fields do.
  const sortKeys = operation === 'links' ? listSortKeys(sources) : undefined;
  const window = plan.window ? { cache: windows, key: windowKey(operation, query) } : undefined;
  // Rows read by key from the same relation: a window's first page is read whole at once.
  const wholeFirst = plan.rows?.kind === 'same-relation';
  const result =
    (plan.kept && counters && rollupKey !== undefined && query.filter === null ? await keptPage(plan.kept, counters.sources, operation, query, rollupKey) : undefined) ??
    (await runList(connection, relation, where, query.page, {
      ...(total ? { total } : {}),
      ...(rowsOf ? { rowsOf, wholeFirst, keys } : {}),
      ...(sortKeys ? { sortKeys } : {}),
      ...(window ? { window } : {}),
    }));
  const record = operations[operation].record;
  const clocked = window !== undefined && CLOCKED in record;
  return { total: result.total, rows: result.rows.map((row) => (clocked ? withNewAt(toRecord<RowOf<Op>>(row, record), query.clock) : toRecord<RowOf<Op>>(row, record))) };
}

/**
 * An unfiltered page from the rows the load keeps (see {@link ListPlan.kept}), with the total from
 * the counters (`counters`: their sources, at the same place) in the same statement; `undefined`
 * when they do not hold the whole page (none kept for the key, which has no more rows than the
 * load keeps, or a page past them): the count of kept rows the page's statement reports says which.
 */
async function keptPage(kept: ReadPlace, counters: RelationSources, operation: GroupedOperation, query: GroupedQuery, rollupKey: string): Promise<RowsResult<Record<string, unknown>> | undefined> {
  const { table, count } = TOTALS[operation];
  const total = sql`(SELECT ${raw(count)} FROM ${counters.rollup(table)} WHERE ${counters.rollupRows(rollupKey, query.target)})`;
  const rows = sql`SELECT *, ${total} AS _total FROM (${groupedRows(operation, query.target, query.clock, rollupKey, kept.sources)}) k`;
  const page = await runList(kept.connection, rows, null, query.page);
  return page.total >= query.page.offset + query.page.limit ? { rows: page.rows, total: Number(page.rows[0]!['_total']) } : undefined;
}

/** How the rows of a page's keys are read, as the plan says. */
function rowsByKey(how: RowsByKey, connection: SqlConnection, relation: Fragment, query: GroupedQuery): RowsOfKeys {
  if (how.kind === 'same-relation') return (keys) => connection.all<Record<string, unknown>>(sql`SELECT * FROM (${relation}) x WHERE ${how.keyIn(keys)}`);
  const { connection: rows, sources } = how.at;
  // The ids were chosen for the target already: no scope condition, so that the rows are looked up by id.
  return (ids) =>
    rows.all<Record<string, unknown>>(groupedRows('links', query.target, query.clock, undefined, { ...sources, links: how.linksOfIds(query.target, ids), scope: () => raw('1 = 1') }));
}

/**
 * What a list's window depends on: the operation, the target as matched, the filter, the order
 * and, when the filter or the order names `is_new`, the instant "new" starts (otherwise a window
 * outlives the clock's seconds).
 */
export function windowKey(operation: GroupedOperation, query: GroupedQuery): string {
  const filter = query.filter === null ? '' : printFilter(query.filter);
  const clock = query.page.orderBy === 'is_new' || filter.includes('is_new') ? query.clock.newSince : '';
  return JSON.stringify([operation, query.target.scope, query.target.effectiveUrl, filter, query.page.orderBy, query.page.direction, clock]);
}

/** The one field of a record that depends on the clock. */
const CLOCKED = 'is_new';

/**
 * A row as of `clock`: a window keeps the rows of the pages it served, read at an earlier call's
 * clock, and is keyed by the clock only where the filter or the order names `is_new` (its keys'
 * order and number depend on it there); elsewhere the rows' `is_new` is taken again from their
 * `first_seen_at` (new: first seen at or after `newSince`, the link's or, for a referring domain,
 * its first link's), so that a window outlives the clock's seconds without going stale.
 */
function withNewAt<Row>(row: Row, clock: Clock): Row {
  const fields = row as Record<string, unknown>;
  fields[CLOCKED] = (fields['first_seen_at'] as string) >= clock.newSince;
  return row;
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
 * (at most 30 rows), plus that first day's links from its start time on: one index range of the
 * links (one day of them), or what the sources count it from (`firstDayNew`). An expression (two
 * scalar subqueries), for the overview's one query.
 */
function newCountOfKey(tkey: string, target: Target, clock: Clock, sources: RelationSources): Fragment {
  const { day, nextDay } = newDays(clock);
  const firstDay =
    sources.firstDayNew?.(tkey, target, clock.newSince, day) ??
    sql`(SELECT count(*) FROM ${sources.links} WHERE ${scopeCondition(target)} AND l.first_seen_at >= ${clock.newSince} AND l.first_seen_at < ${nextDay})`;
  return sql`(SELECT coalesce(sum(r.links_count), 0) FROM ${sources.rollup('r_first_seen')} WHERE ${sources.rollupRows(tkey, target)} AND r.day > ${day})
    + ${firstDay}`;
}

/** The overview: the rollup key's counters, its new links and the target's score in one query. */
export async function overview({ connection, sources }: ReadPlace, target: Target, clock: Clock, tkey: string | undefined): Promise<RowOf<'overview'>> {
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
  const [counts] = await connection.all<Record<string, unknown>>(linkCounters(sources.links, scopeCondition(target), clock.newSince, score));
  return overviewRecord(counts, Number(counts?.['target_score'] ?? 0));
}

/**
 * The overview of a target without a rollup key, its links counted at `counted` (a column side)
 * and its score read at `place`, at once. Its counters but the new links do not depend on the
 * clock: `keep` may keep them between calls (the read-cache); the new links are counted each call.
 */
export async function countedOverview(
  place: ReadPlace,
  counted: ReadPlace,
  target: Target,
  clock: Clock,
  keep: (read: () => Promise<Record<string, unknown> | undefined>) => Promise<Record<string, unknown> | undefined>,
): Promise<RowOf<'overview'>> {
  const { connection, sources } = counted;
  const scope = sources.scope(target);
  const [counts, [fresh], [scored]] = await Promise.all([
    keep(async () => (await connection.all<Record<string, unknown>>(linkCounters(sources.links, scope, null, raw('0'), sources.sortKeys)))[0]),
    connection.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${sources.links} WHERE ${scope} AND l.first_seen_at >= ${clock.newSince}`),
    place.connection.all<{ s: number }>(sql`SELECT ${targetScore(target, place.sources)} AS s`),
  ]);
  return { ...overviewRecord(counts, Number(scored?.s ?? 0)), new_count: Number(fresh?.n ?? 0) };
}

/**
 * A link's IP and its /24 network where known, else NULL, which `count(DISTINCT ...)` skips: an
 * export without IPs stores the empty value (docs/importing.md, "Unknown values"), and that is no
 * IP. An IP's network is empty exactly when the IP is. Each counted as `column` (the IP's own
 * column, or one that sorts exactly as it, one value per IP).
 */
const knownIp = (column: string) => raw(`CASE WHEN l.ip_address <> '' THEN l.${column} END`);
const KNOWN_CLASS_C = raw(`CASE WHEN l.ip_class_c <> '' THEN l.ip_class_c END`);

/**
 * The overview's counters grouped from the links of `from` (aliased `l`) in `scope`, for targets
 * without a rollup key, the links first seen at or after `newSince` (none when `null`), and `score`
 * as `target_score`. Distinct values are counted as the columns that sort exactly as their fields
 * where `sortKeys` names them (integer ranks, one per value of the links' registrable domain).
 */
function linkCounters(from: Fragment, scope: Fragment, newSince: string | null, score: Fragment, sortKeys: Readonly<Record<string, string>> = {}): Fragment {
  const as = (field: string) => sortKeys[field] ?? field;
  const newCount = newSince === null ? raw('0') : sql`sum(CASE WHEN l.first_seen_at >= ${newSince} THEN 1 ELSE 0 END)`;
  return sql`SELECT count(*) AS backlinks_count,
      count(DISTINCT l.${raw(as('source_domain'))}) AS domains_count,
      count(DISTINCT l.${raw(as('source_url'))}) AS urls_count,
      sum(CASE WHEN l.is_nofollow THEN 0 ELSE 1 END) AS follows_count,
      sum(CASE WHEN l.is_nofollow THEN 1 ELSE 0 END) AS nofollows_count,
      sum(CASE WHEN l.is_sponsored THEN 1 ELSE 0 END) AS sponsored_count,
      sum(CASE WHEN l.is_ugc THEN 1 ELSE 0 END) AS ugc_count,
      sum(CASE WHEN l.is_frame THEN 1 ELSE 0 END) AS frames_count,
      sum(CASE WHEN l.is_form THEN 1 ELSE 0 END) AS forms_count,
      sum(CASE WHEN l.is_image THEN 1 ELSE 0 END) AS images_count,
      sum(CASE WHEN l.is_image THEN 0 ELSE 1 END) AS texts_count,
      count(DISTINCT ${knownIp(as('ip_address'))}) AS ips_count,
      count(DISTINCT ${KNOWN_CLASS_C}) AS ip_class_c_count,
      ${newCount} AS new_count,
      sum(CASE WHEN l.is_lost THEN 1 ELSE 0 END) AS lost_count,
      ${score} AS target_score
    FROM ${from} WHERE ${scope}`;
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
export async function summary({ connection, sources }: ReadPlace, query: SummaryQuery, tkey: string | undefined): Promise<RowsResult<HistoryPoint>> {
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
