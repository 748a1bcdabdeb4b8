/**
 * `runList` on a real SQLite database: every page, with and without a filter, in one step or keys
 * first, through a list window or not, against a plain sort of the same rows in JavaScript (the
 * field, then the hidden `_key` ascending). The windows are held to what docs/design-store.md says of
 * them ("Pages read ahead"): the first page reads the list's first 1,000 rows (or keys) and its
 * total, pages inside the window cost no query, a page past it reads a window twice as long, a
 * list read keys first reads a page's rows the first time that page is asked for; least recently
 * used lists go first; a load forgets them all.
 */
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { raw, sql, type Fragment } from '../../../../../src/server/store/fragment.js';
import { ListWindows, runList, type ListOptions } from '../../../../../src/server/store/reads/run-list.js';
import type { SqlConnection } from '../../../../../src/server/store/connection.js';
import { inThreadConnection } from '../../../../../src/server/store/engines/sqlite/connection.js';
import type { Page } from '../../../../../src/server/store/store.js';

/** 2,600 rows, scores 0-9 (many ties), keys not in insertion order. */
const N = 2_600;
const ROWS = Array.from({ length: N }, (_, i) => ({ _key: (i * 7_919) % 10_007, score: (i * 13) % 10, name: `n${String((i * 31) % 997).padStart(3, '0')}` }));
type Row = (typeof ROWS)[number];

const db = new Database(':memory:');
db.exec('CREATE TABLE t (_key INTEGER PRIMARY KEY, score INTEGER NOT NULL, name TEXT NOT NULL)');
const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?)');
db.transaction(() => ROWS.forEach((r) => insert.run(r._key, r.score, r.name)))();
afterAll(() => db.close());

/** The connection, with every statement it runs recorded, and the bound LIMIT of each that ends with one. */
function counted(): { connection: SqlConnection; statements: string[]; limits: unknown[] } {
  const real = inThreadConnection(db);
  const statements: string[] = [];
  const limits: unknown[] = [];
  const record = (query: Fragment) => {
    statements.push(query.sql);
    if (/LIMIT \?$/.test(query.sql)) limits.push(query.params.at(-1));
  };
  return {
    statements,
    limits,
    connection: { ...real, all: (query: Fragment) => (record(query), real.all(query)) } as SqlConnection,
  };
}

const RELATION = sql`SELECT _key, score, name FROM t`;
/** score >= 3: 1,820 of the rows. */
const WHERE = sql`score >= ${3}`;
const kept = (r: Row) => r.score >= 3;

/** The expected page, by a plain sort: the field, then `_key` ascending. */
function expected(page: Page, filtered: boolean): { rows: Row[]; total: number } {
  const all = ROWS.filter((r) => !filtered || kept(r));
  const field = page.orderBy as keyof Row;
  const sign = page.direction === 'ASC' ? 1 : -1;
  all.sort((a, b) => (a[field] === b[field] ? a._key - b._key : a[field] < b[field] ? -sign : sign));
  return { rows: all.slice(page.offset, page.offset + page.limit), total: all.length };
}

/** A page's rows without the count a window read carries on each row (`_total`; the store keeps only the fields asked for). */
const plain = async (result: Promise<{ rows: Record<string, unknown>[]; total: number }>) => {
  const { rows, total } = await result;
  return { rows: rows.map(({ _total, ...row }) => row), total };
};

const page = (offset: number, limit = 100, orderBy = 'score', direction: 'ASC' | 'DESC' = 'DESC'): Page => ({ orderBy, direction, limit, offset });

/** Reads rows by key from the table, in an order of its own (the page must put them back). */
function rowsOf(calls: unknown[][]) {
  return async (keys: readonly unknown[]) => {
    calls.push([...keys]);
    const list = sql`SELECT _key, score, name FROM t WHERE _key IN (${raw(keys.map(() => '?').join(', '))}) ORDER BY name DESC`;
    return db.prepare(list.sql).all(...keys) as Record<string, unknown>[];
  };
}

const OFFSETS = [0, 1, 99, 100, 900, 901, 999, 1_000, 1_500, 1_819, 1_820, 2_599, 2_600, 5_000];

describe('runList without a window', () => {
  it.each([
    ['every row, total counted', null, {}],
    ['every row, total known', null, { total: N }],
    ['every row, total by a function', null, { total: async () => N }],
    ['filtered', WHERE, {}],
    ['filtered, keys first', WHERE, { rowsOf: rowsOf([]) }],
    ['every row, keys first', null, { rowsOf: rowsOf([]) }],
    ['filtered, whole list', WHERE, { whole: true }],
  ] as const)('%s: each page is the sort of the rows, with the total', async (_label, where, options: ListOptions) => {
    const { connection } = counted();
    for (const offset of OFFSETS) {
      for (const [orderBy, direction] of [['score', 'DESC'], ['name', 'ASC'], ['_key', 'DESC']] as const) {
        const p = page(offset, 100, orderBy, direction);
        expect(await runList(connection, RELATION, where, p, options), `${orderBy} ${direction} offset ${offset}`).toEqual(expected(p, where !== null));
      }
    }
  });

  it('a known total of 0 gives no rows, whatever the page reads', async () => {
    const { connection } = counted();
    expect(await runList(connection, RELATION, null, page(0), { total: 0 })).toEqual({ rows: [], total: 0 });
  });

  it('orders by the column a sort key names instead of the field', async () => {
    const { connection, statements } = counted();
    const p = page(0, 10, 'label', 'ASC');
    expect(await runList(connection, RELATION, WHERE, p, { sortKeys: { label: 'name' } })).toEqual(expected(page(0, 10, 'name', 'ASC'), true));
    expect(statements[0]).toContain('ORDER BY "name" ASC, _key ASC');
  });
});

describe('runList through a list window', () => {
  const windows = () => new ListWindows(64 * 2 ** 20);

  it.each([
    ['filtered', WHERE, {}],
    ['every row, total known', null, { total: N }],
    ['filtered, keys first', WHERE, { rowsOf: rowsOf([]) }],
  ] as const)('%s: every page, in any order, equals the sort, across the ends of what was read ahead', async (_label, where, options: ListOptions) => {
    const { connection } = counted();
    const cache = windows();
    // Forward, straddling 1,000 and 2,000, then back, then the last partial page and past the end.
    for (const offset of [0, 950, 1_000, 1_990, 500, 1_750, 2_550, 1_815, 5_000, 0]) {
      for (const limit of [100, 7]) {
        const p = page(offset, limit);
        expect(await plain(runList(connection, RELATION, where, p, { ...options, window: { cache, key: 'list' } })), `offset ${offset} limit ${limit}`).toEqual(expected(p, where !== null));
      }
    }
  });

  it('reads the first page with the count in one statement, the next page 1,000 rows without it; a page that ends at 1,000 reads nothing more, one past it reads 2,000', async () => {
    const { connection, statements, limits } = counted();
    const cache = windows();
    const at = (offset: number, limit = 100) => plain(runList(connection, RELATION, WHERE, page(offset, limit), { window: { cache, key: 'list' } }));
    expect(await at(0)).toEqual(expected(page(0), true));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/count\(\*\) OVER \(\) AS _total .* LIMIT \?$/);
    expect(limits).toEqual([100]);
    // Inside the first page: nothing more.
    expect(await at(50, 50)).toEqual(expected(page(50, 50), true));
    expect(statements).toHaveLength(1);
    expect(await at(100)).toEqual(expected(page(100), true));
    expect(statements).toHaveLength(2);
    // The total is known by now: the second read does not count again, and reads 1,000 ahead.
    expect(statements[1]).not.toContain('count(*)');
    expect(limits).toEqual([100, 1_000]);
    expect(await at(900)).toEqual(expected(page(900), true));
    expect(statements).toHaveLength(2);
    expect(await at(901)).toEqual(expected(page(901), true));
    expect(statements).toHaveLength(3);
    expect(limits).toEqual([100, 1_000, 2_000]);
    // 2,000 rows ahead: 1,820 match, so the list is whole and no later page reads anything.
    for (const offset of [1_700, 1_800, 1_900, 0]) expect(await at(offset)).toEqual(expected(page(offset), true));
    expect(statements).toHaveLength(3);
  });

  it('a list read whole (fewer rows than it asked for) never reads again', async () => {
    const { connection, statements } = counted();
    const cache = windows();
    const few = sql`score = ${9}`; // 260 rows
    const p = (offset: number) => ({ ...page(offset), limit: 50 });
    const all = ROWS.filter((r) => r.score === 9).sort((a, b) => a._key - b._key);
    for (const offset of [0, 200, 250, 260, 1_000, 0]) {
      expect(await plain(runList(connection, RELATION, few, p(offset), { window: { cache, key: 'few' } }))).toEqual({ rows: all.slice(offset, offset + 50), total: 260 });
    }
    // The first page (50 rows and the count), then 1,000 ahead, which holds all 260.
    expect(statements).toHaveLength(2);
    // A list shorter than its first page is whole at once.
    const fewer = sql`score = ${9} AND _key < ${300}`;
    const short = ROWS.filter((r) => r.score === 9 && r._key < 300).sort((a, b) => a._key - b._key);
    expect(short.length).toBeGreaterThan(0);
    expect(short.length).toBeLessThan(50);
    for (const offset of [0, 10, 50]) {
      expect(await plain(runList(connection, RELATION, fewer, p(offset), { window: { cache, key: 'fewer' } }))).toEqual({ rows: short.slice(offset, offset + 50), total: short.length });
    }
    expect(statements).toHaveLength(3);
  });

  it('keys first: a page reads its rows by key the first time only, and only the keys it lacks', async () => {
    const { connection } = counted();
    const cache = windows();
    const calls: unknown[][] = [];
    const options = { rowsOf: rowsOf(calls), window: { cache, key: 'keys' } };
    const first = expected(page(0, 10), true);
    expect(await runList(connection, RELATION, WHERE, page(0, 10), options)).toEqual(first);
    expect(calls.map((keys) => keys.length)).toEqual([10]);
    expect(await runList(connection, RELATION, WHERE, page(0, 10), options)).toEqual(first);
    expect(calls.map((keys) => keys.length)).toEqual([10]);
    // Rows 5-14: only 10-14 are missing.
    expect(await runList(connection, RELATION, WHERE, page(5, 10), options)).toEqual(expected(page(5, 10), true));
    expect(calls.map((keys) => keys.length)).toEqual([10, 5]);
    expect(calls[1]).toEqual(expected(page(10, 5), true).rows.map((r) => r._key));
  });

  it('keys first, whole first: the first page is one statement of whole rows with the count; later pages read keys, then the rows of a page by key once', async () => {
    const { connection, statements, limits } = counted();
    const cache = windows();
    const calls: unknown[][] = [];
    const options = { rowsOf: rowsOf(calls), wholeFirst: true, window: { cache, key: 'whole' } };
    const at = (offset: number) => plain(runList(connection, RELATION, WHERE, page(offset), options));
    expect(await at(0)).toEqual(expected(page(0), true));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^SELECT \*, count\(\*\) OVER \(\) AS _total .* LIMIT \?$/);
    expect(limits).toEqual([100]);
    expect(calls).toEqual([]);
    // Again: nothing read.
    expect(await at(0)).toEqual(expected(page(0), true));
    expect(statements).toHaveLength(1);
    // The next page: 1,000 keys (no count, no whole rows), then its rows by key.
    expect(await at(100)).toEqual(expected(page(100), true));
    expect(statements).toHaveLength(2);
    expect(statements[1]).toMatch(/^SELECT _key FROM .* LIMIT \?$/);
    expect(limits).toEqual([100, 1_000]);
    expect(calls.map((keys) => keys.length)).toEqual([100]);
    expect(calls[0]).toEqual(expected(page(100), true).rows.map((r) => r._key));
    // The first page again: its rows are kept, none read by key.
    expect(await at(0)).toEqual(expected(page(0), true));
    expect(statements).toHaveLength(2);
    expect(calls).toHaveLength(1);
  });

  it('whole first is ignored without keys first: a list read whole reads its rows as it does', async () => {
    const { connection, statements } = counted();
    const cache = windows();
    expect(await plain(runList(connection, RELATION, WHERE, page(0), { wholeFirst: true, window: { cache, key: 'rows' } }))).toEqual(expected(page(0), true));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^SELECT \*, count\(\*\) OVER \(\) AS _total /);
  });

  it('keeps one window per key, and forgets them all on forget()', async () => {
    const { connection, statements } = counted();
    const cache = windows();
    const read = (key: string, where: Fragment) => plain(runList(connection, RELATION, where, page(0), { window: { cache, key } }));
    await read('a', WHERE);
    await read('b', sql`score < ${3}`);
    expect(statements).toHaveLength(2);
    await read('a', WHERE);
    await read('b', sql`score < ${3}`);
    expect(statements).toHaveLength(2);
    cache.forget();
    expect(await read('a', WHERE)).toEqual(expected(page(0), true));
    expect(statements).toHaveLength(3);
  });

  it('drops the least recently used list past its bound, never the one just read', async () => {
    const { connection, statements } = counted();
    // Room for far less than one window: each read keeps its own window and drops the others.
    const cache = new ListWindows(1);
    const read = (key: string) => runList(connection, RELATION, WHERE, page(0), { window: { cache, key } });
    await read('a');
    await read('a');
    expect(statements).toHaveLength(1);
    await read('b');
    await read('b');
    expect(statements).toHaveLength(2);
    await read('a');
    expect(statements).toHaveLength(3);
    // Room for exactly two windows of a first page, 100 rows (400 bytes a row and 64 for the entry, by the estimate): a third drops the oldest.
    const roomy = new ListWindows(2 * (100 * 400 + 64));
    const count = statements.length;
    const readIn = (key: string, where: Fragment) => runList(connection, RELATION, where, page(0), { window: { cache: roomy, key } });
    await readIn('a', WHERE);
    await readIn('b', sql`score < ${8}`);
    await readIn('a', WHERE); // a is now the most recently used
    expect(statements.length - count).toBe(2);
    await readIn('c', sql`score > ${0}`); // drops b
    await readIn('a', WHERE);
    expect(statements.length - count).toBe(3);
    await readIn('b', sql`score < ${8}`);
    expect(statements.length - count).toBe(4);
    // Forgotten, the bound is whole again: two lists fit.
    roomy.forget();
    await readIn('a', WHERE);
    await readIn('b', sql`score < ${8}`);
    await readIn('a', WHERE);
    expect(statements.length - count).toBe(6);
  });

  it('does not keep a window read while forget() was called: the next call reads again', async () => {
    const { connection, statements } = counted();
    const cache = windows();
    const read = () => plain(runList(connection, RELATION, WHERE, page(0), { window: { cache, key: 'list' } }));
    const during = read();
    cache.forget(); // a load finished while the window was read
    expect(await during).toEqual(expected(page(0), true));
    expect(statements).toHaveLength(1);
    expect(await read()).toEqual(expected(page(0), true));
    expect(statements).toHaveLength(2);
    expect(await read()).toEqual(expected(page(0), true));
    expect(statements).toHaveLength(2);
  });

  it('does not keep a count that failed: the next call counts again', async () => {
    const real = inThreadConnection(db);
    let fail = true;
    const statements: string[] = [];
    const connection = {
      ...real,
      all: async (query: Fragment) => {
        statements.push(query.sql);
        if (fail && query.sql.startsWith('SELECT count(*)')) throw new Error('timed out');
        return real.all(query);
      },
    } as SqlConnection;
    const cache = windows();
    // A known total that fails, on a list without a filter.
    let calls = 0;
    const total = async () => {
      calls++;
      if (fail) throw new Error('timed out');
      return N;
    };
    await expect(runList(connection, RELATION, null, page(0), { total, window: { cache, key: 'x' } })).rejects.toThrow('timed out');
    fail = false;
    expect(await runList(connection, RELATION, null, page(0), { total, window: { cache, key: 'x' } })).toEqual(expected(page(0), false));
    expect(calls).toBe(2);
  });
});

describe('runList keys first, with the rows narrowed for its keys (`keys`)', () => {
  const windows = () => new ListWindows(64 * 2 ** 20);
  /** The rows with only what the filter (score) and the orders used here (score, _key) name. */
  const KEYS = sql`SELECT _key, score FROM t`;
  const fromKeys = (statement: string) => statement.includes('FROM (SELECT _key, score FROM t) x');
  const fromWhole = (statement: string) => statement.includes('FROM (SELECT _key, score, name FROM t) x');

  it('without a window: the keys and the count are read from the narrowed rows, the page is right', async () => {
    for (const where of [WHERE, null]) {
      const { connection, statements } = counted();
      const calls: unknown[][] = [];
      for (const offset of [0, 150, 1_819]) {
        const p = page(offset, 100, 'score', 'ASC');
        expect(await runList(connection, RELATION, where, p, { rowsOf: rowsOf(calls), keys: KEYS }), `offset ${offset}`).toEqual(expected(p, where !== null));
      }
      expect(statements.length).toBeGreaterThan(0);
      expect(statements.filter((statement) => !fromKeys(statement))).toEqual([]);
    }
  });

  it('through a window: the first page and the pages past it read keys and the count from the narrowed rows; whole first reads its page from the whole rows', async () => {
    const { connection, statements } = counted();
    const calls: unknown[][] = [];
    const options = { rowsOf: rowsOf(calls), keys: KEYS, window: { cache: windows(), key: 'k' } };
    expect(await runList(connection, RELATION, WHERE, page(0), options)).toEqual(expected(page(0), true));
    expect(await runList(connection, RELATION, WHERE, page(100), options)).toEqual(expected(page(100), true));
    expect(statements).toHaveLength(2);
    expect(statements.every(fromKeys)).toBe(true);

    const whole = counted();
    const wholeOptions = { rowsOf: rowsOf([]), wholeFirst: true, keys: KEYS, window: { cache: windows(), key: 'w' } };
    expect(await plain(runList(whole.connection, RELATION, WHERE, page(0), wholeOptions))).toEqual(expected(page(0), true));
    expect(await plain(runList(whole.connection, RELATION, WHERE, page(100), wholeOptions))).toEqual(expected(page(100), true));
    expect(whole.statements).toHaveLength(2);
    expect(fromWhole(whole.statements[0]!)).toBe(true);
    expect(fromKeys(whole.statements[1]!)).toBe(true);
  });

  it('is not used without keys first: a list of whole rows reads the whole rows', async () => {
    const { connection, statements } = counted();
    expect(await plain(runList(connection, RELATION, WHERE, page(0), { keys: KEYS }))).toEqual(expected(page(0), true));
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.every(fromWhole)).toBe(true);
  });
});
