/**
 * Runs a list over a relation: filter, total before paging, order with a deterministic tie-break
 * (the hidden `_key`, unique per row), limit and offset; in one statement where it can.
 *
 * - Without a filter, the total is passed in (a rollup counter, or one count) and the page query
 *   reads only the first rows of the index that serves the order.
 * - With one, the page and the count run as two statements at once (on two connections where the
 *   store has them), or as one where the engine reports the rows a LIMIT cut off (ClickHouse).
 *
 * @module
 * @internal
 */
import type { Page, RowsResult } from '../store.js';
import type { SqlConnection } from '../connection.js';
import { ident, raw, sql, type Fragment } from '../fragment.js';
import { BoundedCache, ENTRY_BYTES } from '../../../shared/bounded-cache.js';

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
   * With `rowsOf`: the rows with only the fields the filter and the order name (and `_key`), which
   * the statements that choose a page's keys or count the list read instead of the whole rows (an
   * engine plans and reads fewer columns).
   */
  readonly keys?: Fragment;
  /**
   * With `rowsOf` and a window: the relation holds the whole rows, so a window's first read takes
   * its page's rows whole, with the count, in one statement (and keeps their keys and rows); the
   * reads past it take keys, and the rows of a page by key.
   */
  readonly wholeFirst?: boolean;
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
  /** Keep the list's first rows (or keys) and its total between calls, under this key (see {@link ListWindows}). */
  readonly window?: { readonly cache: ListWindows; readonly key: string };
}

/** The first rows (or keys) of one list in order, read ahead, and its total. */
interface Window {
  items: unknown[];
  /** Whether `items` is the whole list. */
  complete: boolean;
  total: Promise<number> | undefined;
  /** Of a list read keys first: the rows of the pages served so far, by key (the next call of a page reads none). */
  readonly rows: Map<unknown, Record<string, unknown>>;
  /** What the window is estimated to hold, in bytes. */
  bytes: number;
}

/** Rows (or keys) a window reads at least once past its first page: ten pages of the default limit. */
const WINDOW_ROWS = 1_000;

/** Estimated bytes of a key and of a row in a window. */
const KEY_BYTES = 16;
const ROW_BYTES = 400;

/**
 * Lists read ahead, for a caller paging through one filter and order: the first call reads what
 * its page needs and the list's count, in one statement (a cold first page costs no more than
 * it must); the next page past it reads the first {@link WINDOW_ROWS} rows (or keys) in order,
 * later pages inside that window cost no query (a list read keys first reads a page's rows once,
 * the first time the page is asked for), and a page past it reads a window twice as long. The store's read-cache holds them
 * (`cache/read-cache.ts`) and forgets them after every load. The windows are kept in a
 * {@link BoundedCache} by their estimated bytes.
 */
export class ListWindows {
  readonly #windows: BoundedCache<string, Window>;
  constructor(maxBytes: number) {
    this.#windows = new BoundedCache(maxBytes, (window) => window.bytes);
  }

  /** The window of a list, created empty (and kept) when missing; now the most recently used. */
  entry(key: string): Window {
    let window = this.#windows.get(key);
    if (window === undefined) this.#windows.set(key, (window = { items: [], complete: false, total: undefined, rows: new Map(), bytes: 0 }));
    return window;
  }

  /**
   * Records that a window now holds `items` (keys when `keys`, else rows) and its `rows`, measured
   * again in the cache; a window dropped meanwhile (by the bound, or forgotten after a load) is
   * not kept again.
   */
  resize(key: string, window: Window, items: unknown[], keys: boolean): void {
    window.items = items;
    window.bytes = ENTRY_BYTES + items.length * (keys ? KEY_BYTES : ROW_BYTES) + window.rows.size * ROW_BYTES;
    if (this.#windows.get(key) === window) this.#windows.set(key, window);
  }

  /** Forgets every list (the data changed). */
  forget(): void {
    this.#windows.clear();
  }
}

/** A page from the list's window, reading further ahead first when the page lies past it. */
async function windowed(
  connection: SqlConnection,
  relation: Fragment,
  keyRelation: Fragment,
  where: Fragment | null,
  page: Page,
  options: ListOptions & { readonly window: NonNullable<ListOptions['window']> },
): Promise<RowsResult<Record<string, unknown>>> {
  const { cache, key } = options.window;
  const window = cache.entry(key);
  const condition = where === null ? raw('') : sql` WHERE ${where}`;
  const known = where === null ? options.total : undefined;
  if (known !== undefined) window.total ??= Promise.resolve(typeof known === 'number' ? known : known());
  const end = page.offset + page.limit;
  // The first read takes what its page needs (with the count); a page past it reads far ahead.
  const limit = window.items.length === 0 ? end : Math.max(end, 2 * window.items.length, WINDOW_ROWS);
  let read: Promise<Record<string, unknown>[]> | undefined;
  const whole = options.rowsOf !== undefined && options.wholeFirst === true && window.items.length === 0;
  if (!window.complete && window.items.length < end) {
    // A window read while the total is not known counts in the same statement (`count(*) OVER ()`,
    // before the LIMIT): the filter runs once, not once for the rows and once for the count.
    const counted = window.total === undefined;
    const keysOnly = options.rowsOf !== undefined && !whole;
    const what = raw(`${keysOnly ? '_key' : '*'}${counted ? ', count(*) OVER () AS _total' : ''}`);
    read = connection.all<Record<string, unknown>>(sql`SELECT ${what} FROM ${keysOnly ? keyRelation : relation}${condition} ORDER BY ${orderOf(page, options.sortKeys)} LIMIT ${limit}`);
    if (counted) window.total = read.then((rows) => Number(rows[0]?.['_total'] ?? 0));
  }
  window.total ??= connection.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${keyRelation}${condition}`).then((rows) => Number(rows[0]?.n ?? 0));
  const total = window.total;
  // A count that failed (a timeout) is not kept; nor left unhandled while the rows are read.
  total.catch(() => {
    if (window.total === total) window.total = undefined;
  });
  if (read) {
    const rows = await read;
    window.complete = rows.length < limit;
    if (whole) for (const row of rows) window.rows.set(row['_key'], row);
    cache.resize(key, window, options.rowsOf ? rows.map((row) => row['_key']) : rows, options.rowsOf !== undefined);
  }
  const items = window.items.slice(page.offset, end);
  if (!options.rowsOf) return { rows: items as Record<string, unknown>[], total: await total };
  const missing = items.filter((key) => !window.rows.has(key));
  if (missing.length > 0) {
    for (const row of await options.rowsOf(missing)) window.rows.set(row['_key'], row);
    cache.resize(key, window, window.items, true);
  }
  return { rows: items.flatMap((key) => window.rows.get(key) ?? []) as Record<string, unknown>[], total: await total };
}

/** Reads one page of `relation` under `condition` (`null`: every row), in one step or keys first. */
async function readPage(connection: SqlConnection, relation: Fragment, keyRelation: Fragment, condition: Fragment | null, page: Page, options: ListOptions): Promise<Record<string, unknown>[]> {
  const tail = sql`${condition === null ? raw('') : sql`WHERE ${condition} `}ORDER BY ${orderOf(page, options.sortKeys)} LIMIT ${page.limit} OFFSET ${page.offset}`;
  if (options.rowsOf === undefined) return connection.all<Record<string, unknown>>(sql`SELECT * FROM ${relation} ${tail}`);
  const keys = (await connection.all<{ _key: unknown }>(sql`SELECT _key FROM ${keyRelation} ${tail}`)).map((row) => row._key);
  return rowsOfKeys(keys, options.rowsOf);
}

/** The rows of a page's keys, in the order of the keys. */
async function rowsOfKeys(keys: readonly unknown[], rowsOf: RowsOfKeys): Promise<Record<string, unknown>[]> {
  if (keys.length === 0) return [];
  const position = new Map(keys.map((key, i) => [key, i]));
  const rows = await rowsOf(keys);
  return rows.sort((a, b) => position.get(a['_key'])! - position.get(b['_key'])!);
}

/** Pages through `rows` (a SELECT with a `_key` column) filtered by `where` (`null`: no filter). */
export async function runList(connection: SqlConnection, rows: Fragment, where: Fragment | null, page: Page, options: ListOptions = {}): Promise<RowsResult<Record<string, unknown>>> {
  const { total } = options;
  const relation = sql`(${rows}) x`;
  // The statements that read only keys, or count, read the narrowed rows where there are some.
  const keyRelation = options.rowsOf !== undefined && options.keys !== undefined ? sql`(${options.keys}) x` : relation;
  if (options.window) return windowed(connection, relation, keyRelation, where, page, { ...options, window: options.window });
  if (options.whole) {
    const all = await connection.all<Record<string, unknown>>(
      sql`SELECT * FROM ${relation}${where === null ? raw('') : sql` WHERE ${where}`} ORDER BY ${orderOf(page, options.sortKeys)}`,
    );
    return { rows: all.slice(page.offset, page.offset + page.limit), total: all.length };
  }
  const condition = where ?? raw('1 = 1');
  if (connection.countsBeforeLimit) {
    // The page and its total in one statement, where the engine counts the rows its LIMIT cut off
    // (even when a counter knows the total: a statement costs more than the sort it counts).
    const tail = sql`WHERE ${condition} ORDER BY ${orderOf(page, options.sortKeys)} LIMIT ${page.limit} OFFSET ${page.offset}`;
    if (options.rowsOf === undefined) {
      const { rows, beforeLimit } = await connection.allBeforeLimit<Record<string, unknown>>(sql`SELECT * FROM ${relation} ${tail}`);
      return { rows, total: beforeLimit };
    }
    const { rows: keys, beforeLimit } = await connection.allBeforeLimit<{ _key: unknown }>(sql`SELECT _key FROM ${keyRelation} ${tail}`);
    return { rows: await rowsOfKeys(keys.map((row) => row._key), options.rowsOf), total: beforeLimit };
  }
  if (where === null && total !== undefined) {
    // The counter and the page at once: two readers, one round trip of waiting.
    const [count, found] = await Promise.all([typeof total === 'number' ? total : total(), readPage(connection, relation, keyRelation, null, page, options)]);
    return { rows: count === 0 ? [] : found, total: count };
  }
  // The page and the count as two statements: the page can stop early on an index that serves its
  // order, and neither materializes the relation (a window count would, in SQLite, for every row).
  const [found, counted] = await Promise.all([
    readPage(connection, relation, keyRelation, condition, page, options),
    connection.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${keyRelation} WHERE ${condition}`),
  ]);
  return { rows: found, total: Number(counted[0]?.n ?? 0) };
}
