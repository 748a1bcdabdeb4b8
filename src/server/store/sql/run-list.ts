/**
 * Runs a list over a relation: filter, total before paging, order with a deterministic tie-break
 * (the hidden `_key`, unique per row), limit and offset; in one statement where it can.
 *
 * - Without a filter, the total is passed in (a rollup counter, or one count) and the page query
 *   reads only the first rows of the index that serves the order.
 * - With one, the page and the count run as two statements at once (on two connections where the
 *   store has them).
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
    // The counter and the page at once: two readers, one round trip of waiting.
    const [count, found] = await Promise.all([
      typeof total === 'number' ? total : total(),
      connection.all<Record<string, unknown>>(sql`SELECT * FROM ${relation} ORDER BY ${orderOf(page)} LIMIT ${page.limit} OFFSET ${page.offset}`),
    ]);
    return { rows: count === 0 ? [] : found, total: count };
  }
  const condition = where ?? raw('1 = 1');
  // The page and the count as two statements: the page can stop early on an index that serves its
  // order, and neither materializes the relation (a window count would, in SQLite, for every row).
  const [found, counted] = await Promise.all([
    connection.all<Record<string, unknown>>(sql`SELECT * FROM ${relation} WHERE ${condition} ORDER BY ${orderOf(page)} LIMIT ${page.limit} OFFSET ${page.offset}`),
    connection.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${relation} WHERE ${condition}`),
  ]);
  return { rows: found, total: Number(counted[0]?.n ?? 0) };
}
