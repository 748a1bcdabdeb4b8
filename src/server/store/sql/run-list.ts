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

/**
 * The ORDER BY of a page: the field (or the column that sorts exactly as it, see
 * {@link ListOptions.sortKeys}), then the hidden `_key` ascending.
 */
const orderOf = (page: Page, sortKeys?: Readonly<Record<string, string>>): Fragment =>
  sql`${ident(sortKeys?.[page.orderBy] ?? page.orderBy)} ${raw(page.direction === 'ASC' ? 'ASC' : 'DESC')}, _key ASC`;

/**
 * How a store reads a page's rows by their keys, when the relation it pages through holds only
 * what the filter and the order need: the whole rows of the given `_key`s, in any order (the page
 * puts them back in the order of the keys). A page is then read in two steps: its keys first,
 * then its rows; for column stores, where one step would read every column of every row of the
 * target before sorting, and for stores whose rows live elsewhere.
 */
export type RowsOfKeys = (keys: readonly unknown[]) => Promise<Record<string, unknown>[]>;

/** How {@link runList} reads a list. */
export interface ListOptions {
  /** The unfiltered total, when known without counting (a rollup counter). */
  readonly total?: KnownTotal;
  /** Read a page keys first (see {@link RowsOfKeys}). */
  readonly rowsOf?: RowsOfKeys;
  /**
   * Columns of the relation that sort exactly as a field does (with the same tie-break), by field:
   * a page ordered by the field is ordered by the column instead (integer ranks of text fields).
   */
  readonly sortKeys?: Readonly<Record<string, string>>;
  /**
   * Read the whole filtered list in order in one query and page it here: for lists that are short
   * but costly to compute (competitors: a row per target domain, from a fan-out over the cluster),
   * which a page and a count would compute twice.
   */
  readonly whole?: boolean;
}

/** Reads one page of `relation` under `condition` (`null`: every row), in one step or keys first. */
async function readPage(connection: SqlConnection, relation: Fragment, condition: Fragment | null, page: Page, options: ListOptions): Promise<Record<string, unknown>[]> {
  const tail = sql`${condition === null ? raw('') : sql`WHERE ${condition} `}ORDER BY ${orderOf(page, options.sortKeys)} LIMIT ${page.limit} OFFSET ${page.offset}`;
  if (options.rowsOf === undefined) return connection.all<Record<string, unknown>>(sql`SELECT * FROM ${relation} ${tail}`);
  const keys = (await connection.all<{ _key: unknown }>(sql`SELECT _key FROM ${relation} ${tail}`)).map((row) => row._key);
  if (keys.length === 0) return [];
  const position = new Map(keys.map((key, i) => [key, i]));
  const rows = await options.rowsOf(keys);
  return rows.sort((a, b) => position.get(a['_key'])! - position.get(b['_key'])!);
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
  const { total } = options;
  const relation = sql`(${rows}) x`;
  if (options.whole) {
    const all = await connection.all<Record<string, unknown>>(
      sql`SELECT * FROM ${relation}${where === null ? raw('') : sql` WHERE ${where}`} ORDER BY ${orderOf(page, options.sortKeys)}`,
    );
    return { rows: all.slice(page.offset, page.offset + page.limit), total: all.length };
  }
  if (where === null && total !== undefined) {
    // The counter and the page at once: two readers, one round trip of waiting.
    const [count, found] = await Promise.all([typeof total === 'number' ? total : total(), readPage(connection, relation, null, page, options)]);
    return { rows: count === 0 ? [] : found, total: count };
  }
  const condition = where ?? raw('1 = 1');
  // The page and the count as two statements: the page can stop early on an index that serves its
  // order, and neither materializes the relation (a window count would, in SQLite, for every row).
  const [found, counted] = await Promise.all([
    readPage(connection, relation, condition, page, options),
    connection.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${relation} WHERE ${condition}`),
  ]);
  return { rows: found, total: Number(counted[0]?.n ?? 0) };
}
