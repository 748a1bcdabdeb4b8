/**
 * Monthly history: the target's links are read once and counted per month in memory (see
 * `history.ts` for the rule; docs/operations.md). The score is today's (no score history is kept).
 *
 * @module
 * @internal
 */
import type { Database } from 'better-sqlite3';
import { monthlyCounts, monthRange, type HistoryLink } from '../../history.js';
import type { HistoryPoint, RowsResult, SummaryQuery } from '../store.js';
import { sql } from './fragment.js';
import { targetScore } from './overview-sql.js';
import { scopeCondition } from './scope-sql.js';

/**
 * The months of a summary: from the later of `from` and the oldest month with data, to `to`,
 * ascending; the first `limit` of them when `from` is given, else the last `limit`; `total`
 * counts them all.
 *
 * @example
 * ```ts
 * history(db, { target, from: undefined, to: '2026-05', limit: 12 });
 * ```
 */
export function history(db: Database, query: SummaryQuery): RowsResult<HistoryPoint> {
  const select = sql`SELECT l.first_seen_at, l.last_seen_at, l.is_lost, l.is_nofollow, l.source_domain FROM links l WHERE ${scopeCondition(query.target)}`;
  const links = db.prepare(select.sql).all(...select.params) as HistoryLink[];
  if (links.length === 0) return { rows: [], total: 0 };
  const oldest = links.reduce((min, link) => (link.first_seen_at < min ? link.first_seen_at : min), links[0]!.first_seen_at).slice(0, 7);
  const first = query.from !== undefined && query.from > oldest ? query.from : oldest;
  if (first > query.to) return { rows: [], total: 0 };
  const months = monthRange(first, query.to);
  // From a given date_from the first `limit` months; otherwise the latest `limit` (the last year by default).
  const shown = query.from !== undefined ? months.slice(0, query.limit) : months.slice(Math.max(0, months.length - query.limit));
  const score = targetScore(db, query.target);
  const counts = monthlyCounts(links, shown);
  return { rows: shown.map((month, i) => ({ score, ...counts[i]!, month_date: `${month}-01` })), total: months.length };
}
