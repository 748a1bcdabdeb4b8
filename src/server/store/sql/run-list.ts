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
 * How a store reads a page's rows by their keys: the relation restricted to the given `_key`s.
 * With it, a page is read in two steps: its keys first (only the columns the filter and the order
 * need), then the whole rows of those keys. For column stores, where one step would read every
 * column of every row of the target before sorting.
 */
export type RowsOfKeys = (keys: readonly unknown[]) => Fragment;

/** How {@link runList} reads a list. */
export interface ListOptions {
  /** The unfiltered total, when known without counting (a rollup counter). */
  readonly total?: KnownTotal;
  /** Read a page keys first (see {@link RowsOfKeys}). */
  readonly rowsOf?: RowsOfKeys;
  /**
   * Read the whole filtered list in order in one query and page it here: for lists that are short
   * but costly to compute (competitors: a row per target domain, from a fan-out over the cluster),
   * which a page and a count would compute twice.
   */
  readonly whole?: boolean;
}

/** Reads one page of `relation` under `condition` (`null`: every row), in one step or keys first. */
async function readPage(connection: SqlConnection, relation: Fragment, condition: Fragment | null, page: Page, rowsOf: RowsOfKeys | undefined): Promise<Record<string, unknown>[]> {
  const tail = sql`${condition === null ? raw('') : sql`WHERE ${condition} `}ORDER BY ${orderOf(page)} LIMIT ${page.limit} OFFSET ${page.offset}`;
  if (rowsOf === undefined) return connection.all<Record<string, unknown>>(sql`SELECT * FROM ${relation} ${tail}`);
  const keys = await connection.all<{ _key: unknown }>(sql`SELECT _key FROM ${relation} ${tail}`);
  if (keys.length === 0) return [];
  return connection.all<Record<string, unknown>>(sql`SELECT * FROM (${rowsOf(keys.map((row) => row._key))}) x ORDER BY ${orderOf(page)}`);
}

/**
 * Pages through `rows` (a SELECT with a `_key` column) filtered by `where` (`null`: no filter).
 *
 * @example
 * ```ts
 * await runList(connection, groupedRows('anchors', target, clock, tkey), null, page, { total: 42 });
 * ```
 */
export async function runList(connection: SqlConnection, rows: Fragment, where: Fragment | null, page: Page, options: ListOptions = {}): Promise<RowsResult<Record<string, unknown>>> {
  const { total, rowsOf } = options;
  const relation = sql`(${rows}) x`;
  if (options.whole) {
    const all = await connection.all<Record<string, unknown>>(sql`SELECT * FROM ${relation}${where === null ? raw('') : sql` WHERE ${where}`} ORDER BY ${orderOf(page)}`);
    return { rows: all.slice(page.offset, page.offset + page.limit), total: all.length };
  }
  if (where === null && total !== undefined) {
    // The counter and the page at once: two readers, one round trip of waiting.
    const [count, found] = await Promise.all([
      typeof total === 'number' ? total : total(),
      readPage(connection, relation, null, page, rowsOf),
    ]);
    return { rows: count === 0 ? [] : found, total: count };
  }
  const condition = where ?? raw('1 = 1');
  // The page and the count as two statements: the page can stop early on an index that serves its
  // order, and neither materializes the relation (a window count would, in SQLite, for every row).
  const [found, counted] = await Promise.all([
    readPage(connection, relation, condition, page, rowsOf),
    connection.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${relation} WHERE ${condition}`),
  ]);
  return { rows: found, total: Number(counted[0]?.n ?? 0) };
}
