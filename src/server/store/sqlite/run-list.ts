/**
 * Runs a list over a relation: filter, total before paging, order with a deterministic tie-break
 * (the hidden `_key`, unique per row), limit and offset.
 *
 * @module
 * @internal
 */
import type { Database } from 'better-sqlite3';
import type { Page, RowsResult } from '../store.js';
import { ident, sql, type Fragment } from './fragment.js';

/**
 * Pages through `rows` (a SELECT with a `_key` column) filtered by `where`.
 *
 * @example
 * ```ts
 * runList(db, groupedRows('anchors', target, clock), raw('1'), page);
 * ```
 */
export function runList(db: Database, rows: Fragment, where: Fragment, page: Page): RowsResult<Record<string, unknown>> {
  const direction = page.direction === 'ASC' ? 'ASC' : 'DESC';
  const count = sql`WITH rows AS (${rows}) SELECT count(*) AS n FROM rows WHERE ${where}`;
  const total = (db.prepare(count.sql).get(...count.params) as { n: number }).n;
  if (total === 0 || page.offset >= total) return { rows: [], total };
  const select = sql`WITH rows AS (${rows}) SELECT * FROM rows WHERE ${where}
    ORDER BY ${ident(page.orderBy)} ${{ sql: direction, params: [] }}, _key ASC LIMIT ${page.limit} OFFSET ${page.offset}`;
  const found = db.prepare(select.sql).all(...select.params) as Record<string, unknown>[];
  return { rows: found, total };
}
