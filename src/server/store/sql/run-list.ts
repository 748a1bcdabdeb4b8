/**
 * Runs a list over a relation: filter, total before paging, order with a deterministic tie-break
 * (the hidden `_key`, unique per row), limit and offset; in one statement where it can.
 *
 * - With a filter, the page and the total come from one query (`count(*) OVER ()`): every row has
 *   to be tested anyway.
 * - Without one, the total is passed in (a rollup counter, or one count) and the page query is
 *   free to read only the first rows of the index that serves the order.
 *
 * @module
 * @internal
 */
import type { Page, RowsResult } from '../store.js';
import type { SqlConnection } from './connection.js';
import { ident, raw, sql, type Fragment } from './fragment.js';

/** A total known without scanning (a rollup counter), or how to count it. */
export type KnownTotal = number | (() => Promise<number>);

const orderOf = (page: Page): Fragment => sql`${ident(page.orderBy)} ${raw(page.direction === 'ASC' ? 'ASC' : 'DESC')}, _key ASC`;

/**
 * Pages through `rows` (a SELECT with a `_key` column) filtered by `where` (`null`: no filter).
 *
 * @example
 * ```ts
 * await runList(connection, groupedRows('anchors', target, clock, tkey), null, page, 42);
 * ```
 */
export async function runList(
  connection: SqlConnection,
  rows: Fragment,
  where: Fragment | null,
  page: Page,
  total?: KnownTotal,
): Promise<RowsResult<Record<string, unknown>>> {
  const relation = sql`(${rows}) x`;
  if (where === null && total !== undefined) {
    const count = typeof total === 'number' ? total : await total();
    if (count === 0 || page.offset >= count) return { rows: [], total: count };
    const found = await connection.all<Record<string, unknown>>(
      sql`SELECT * FROM ${relation} ORDER BY ${orderOf(page)} LIMIT ${page.limit} OFFSET ${page.offset}`,
    );
    return { rows: found, total: count };
  }
  const condition = where ?? raw('1 = 1');
  const found = await connection.all<Record<string, unknown> & { _total: number }>(
    sql`SELECT x.*, count(*) OVER () AS _total FROM ${relation} WHERE ${condition}
      ORDER BY ${orderOf(page)} LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
  if (found.length > 0) return { rows: found, total: Number(found[0]!._total) };
  if (page.offset === 0) return { rows: [], total: 0 };
  // Past the end: the page is empty, so the window gave no total; count on its own.
  const [counted] = await connection.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${relation} WHERE ${condition}`);
  return { rows: [], total: Number(counted?.n ?? 0) };
}
