/**
 * The embedded store, the default of `serve`, `seed` and `import`: rows in SQLite (`FILE`: links,
 * domains, pages, keywords, keys, the rollups read by key), columns in DuckDB (`FILE.duckdb`: the
 * links' fields with ranks, the list rollups), composed as one engine's table. The column file is
 * derived data, rebuilt when it is not the SQLite file's current copy, and never written in place:
 * a load writes the next generation beside it (`FILE.duckdb.next`) and moves it into place after
 * its commit, while servers keep reading the one they have open, and move to the new one at their
 * next call. What lives where and why: docs/design-store.md, "The embedded store: rows in SQLite,
 * columns in DuckDB".
 *
 * @module
 */
import type { Database } from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { constants, existsSync, renameSync, rmSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { loadStoreDeps, type DomainParser } from '../../../deps.js';
import { isNativeOrderSafe } from '../../../../evaluate/text-order.js';
import type { Target } from '../../../target.js';
import { loadMemoryLimits, openDuckdbConnection, type DuckdbConnection, type DuckdbConnectionOptions } from '../duckdb/connection.js';
import { StoreError } from '../../errors.js';
import { computeRollups, STAGE_LINK_COLUMNS, STAGE_PAGE_COLUMNS, STAGE_SOURCE_COLUMNS, stageInputTables } from '../duckdb/rollups.js';
import { COLUMN_ROLLUPS, COLUMN_SCHEMA_VERSION, columnTables, moveIntoPlace, RANKED_LINK_FIELDS, rankColumn, setAside, setAsideTables } from '../duckdb/schema.js';
import type { ReferrerList } from '../../memory/matrix-merge.js';
import type { SqlConnection } from '../../connection.js';
import { createStore } from '../../create-store.js';
import type { Engine, ListPlan, LoadSink, RowsByKey } from '../../engine.js';
import { sqlLedger } from '../../ledger.js';
import { CompetitorIndex } from '../../memory/competitor-graph.js';
import { join, raw, sql } from '../../fragment.js';
import { SQL_SOURCES, type ReadPlace, type RelationSources } from '../../reads/relations.js';
import { folderPageKeys, rangedScopeCondition } from '../../reads/scope.js';
import { ROLLUP_COLUMNS, ROLLUP_TABLES, rollupDeletes } from '../../loads/rollups.js';
import { refreshRollups, type RefreshSteps } from '../../loads/refresh.js';
import type { WorkerConnectionOptions } from '../sqlite/connection.js';
import { dataGeneration, followGenerations, type GenerationStore } from '../sqlite/generations.js';
import { openSqliteFile, sqliteLoad, type SqliteFile } from '../sqlite/sqlite-store.js';
import { sqlEngine } from '../sql-engine.js';
import type { GroupedOperation, Store } from '../../store.js';

/** Options of {@link openEmbeddedStore}. */
export interface EmbeddedStoreOptions extends WorkerConnectionOptions {
  /** The SQLite file; `:memory:` (the default) for a throwaway store, both halves in memory. */
  readonly file?: string;
  /** The DuckDB file (default: the SQLite file's name plus `.duckdb`). */
  readonly columnsFile?: string;
  /** Answer SQLite's queries on worker threads (default: true for a file). */
  readonly workers?: boolean;
  /** Answer from the rollups and columns (default true); `false` groups the links in SQLite on every call (tests). */
  readonly rollups?: boolean;
  /** The public-suffix parser (default: tldts). */
  readonly parser?: DomainParser;
  /**
   * Options of the column side's connections. A store that loads gives DuckDB 512 MiB, and 2 GiB
   * once for a group of domains that needs more (each at most a quarter of the machine's memory),
   * unless `columns.memoryLimit` names a limit, which is never raised; opened `readOnly` (a
   * server), half the machine's memory.
   */
  readonly columns?: DuckdbConnectionOptions;
  /**
   * Serving: each call is answered from one generation of the data, and a load committed by
   * another process (`import`) is followed at the next call. When the column file is not the
   * SQLite file's current copy it is rebuilt first. Such a store has no writer.
   */
  readonly readOnly?: boolean;
  /** A load's memory limits when `columns.memoryLimit` names none (default: `loadMemoryLimits()`; small in tests). @internal */
  readonly loadLimits?: { readonly first: string; readonly most: string };
  /** Links per group of domains whose rollups a refresh computes at once (default {@link GROUP_LINKS}; small in tests, for many groups). @internal */
  readonly groupLinks?: number;
}

/** The embedded store, with its two halves for bulk work and tests. */
export interface EmbeddedStore extends Store {
  /** The SQLite handle on the calling thread. */
  readonly db: Database;
  /** The SQLite connection row queries run on. */
  readonly connection: SqlConnection;
  /** The column side. */
  readonly columns: DuckdbConnection;
}

/** The rollups SQLite keeps in the embedded layout (read by key); the list rollups are the column side's. */
const ROW_ROLLUPS = ROLLUP_TABLES.filter((table) => !(COLUMN_ROLLUPS as readonly string[]).includes(table));

/** The rank column of each text field of the links, by field. */
const LINK_SORT_KEYS: Readonly<Record<string, string>> = Object.fromEntries(RANKED_LINK_FIELDS.map((field) => [field, rankColumn(field)]));

/**
 * Where a column-side query reads a target: only its registrable domain's rows (zone maps skip the
 * rest), tested in the same WHERE as its scope (a subquery of the domain's rows costs DuckDB more
 * to plan). A SUBFOLDER below the host is read with its pages' rollup rows (`pageRows`), which hold
 * its referring domains' records and its pages' own data (the column side has neither table), and
 * its links within the one range of paths the folder lies in first.
 */
function columnSources(target: Target): RelationSources {
  return {
    ...SQL_SOURCES,
    rollupRows: (tkey) => sql`r.tdomain = ${target.domain} AND r.tkey = ${tkey}`,
    pageRows: (folder) => sql`r.tdomain = ${folder.domain} AND ${folderPageKeys(folder)}`,
    sortKeys: LINK_SORT_KEYS,
    scope: (of) => (of.scope === 'ROOT_DOMAIN' ? rangedScopeCondition(of) : sql`l.target_domain = ${of.domain} AND ${rangedScopeCondition(of)}`),
  };
}

/**
 * A link's /24 network, as the links of SQLite hold it (`classC` of `inputs.ts`: the first three
 * parts of an IP of four, else the IP), which the column side does not copy.
 */
const CLASS_C = `CASE WHEN len(string_split(ip_address, '.')) = 4 THEN array_to_string(list_slice(string_split(ip_address, '.'), 1, 3), '.') ELSE ip_address END`;

/** Where the column side counts a target's links for its overview: the links with their /24 network. */
function countingSources(target: Target): RelationSources {
  return { ...columnSources(target), links: sql`(SELECT *, ${raw(CLASS_C)} AS ip_class_c FROM links WHERE target_domain = ${target.domain}) l` };
}

/** The list operations whose unfiltered total is a counter of `r_targets` (pages and anchors are counted on the column side). */
const COUNTED_IN_TARGETS: ReadonlySet<GroupedOperation> = new Set(['links', 'ref-domains', 'ref-ips']);

/**
 * Opens (creating when needed) the embedded store: the SQLite file, migrated, and its column file,
 * rebuilt first when it is not the SQLite file's current copy. Opened `readOnly` (a server), the
 * store answers each call from one generation of the data and moves to the next when a load in
 * another process commits it.
 *
 * @example
 * ```ts
 * const store = await openEmbeddedStore({ file: '.backlink-query/sample.db' });
 * await store.close();
 * ```
 */
export async function openEmbeddedStore(options: EmbeddedStoreOptions = {}): Promise<EmbeddedStore> {
  const file = options.file ?? ':memory:';
  if (file === ':memory:') return openInMemory(options);
  return options.readOnly ? openServing(options) : openWriting(options);
}

/**
 * Where a file store's column file lives: `FILE.duckdb`, the copy of the SQLite file's current
 * generation, never written in place; and `FILE.duckdb.next`, the next generation a load writes
 * (a copy of the current one, brought up to date) and moves into place once its SQLite transaction
 * has committed. Readers of the old file keep it open until they let it go.
 */
interface ColumnPlace {
  readonly file: string;
  readonly next: string;
  /** Options of the read-only connections. */
  readonly reading: DuckdbConnectionOptions;
  /** Options of the connection a load writes the next generation with. */
  readonly writing: DuckdbConnectionOptions;
  /** The memory limit a group of domains that needs more is given once (none when the load named its limit). */
  readonly most: string | undefined;
}

/** The column files of a store that loads (`loading`: its reads bounded by the load's memory limit too) or serves. */
function placeOf(options: EmbeddedStoreOptions, file: string, loading: boolean): ColumnPlace {
  const columnsFile = options.columnsFile ?? `${file}.duckdb`;
  const limits = options.loadLimits ?? loadMemoryLimits();
  const memoryLimit = options.columns?.memoryLimit ?? limits.first;
  return {
    file: columnsFile,
    next: `${columnsFile}.next`,
    reading: { ...options.columns, readOnly: true, ...(loading ? { memoryLimit } : {}) },
    writing: { ...options.columns, readOnly: false, memoryLimit },
    most: options.columns?.memoryLimit === undefined ? limits.most : undefined,
  };
}

/** A throwaway store: both halves in memory, the column side written in place. */
async function openInMemory(options: EmbeddedStoreOptions): Promise<EmbeddedStore> {
  const parser = options.parser ?? (await loadStoreDeps()).tldts;
  const memoryLimit = options.columns?.memoryLimit;
  const columns = await openDuckdbConnection(':memory:', { ...options.columns, readOnly: false });
  let rows: SqliteFile;
  try {
    rows = await openSqliteFile({ ...options, file: ':memory:' });
  } catch (error) {
    await columns.close();
    throw error;
  }
  const side = new ColumnSide(columns, rows, options.groupLinks ?? GROUP_LINKS, memoryLimit ?? "half the machine's memory", undefined);
  try {
    await side.openInPlace();
  } catch (error) {
    await side.close();
    throw error;
  }
  return assemble(rows, side, options, parser);
}

/**
 * A store that loads (`import`, `seed`): the column file is read-only here too, so that servers
 * may read it meanwhile; a load writes the next generation beside it. A column file that is not
 * the SQLite file's current copy is rebuilt first, the same way (a load of nothing, every rollup
 * again).
 */
async function openWriting(options: EmbeddedStoreOptions): Promise<EmbeddedStore> {
  const file = options.file!;
  const parser = options.parser ?? (await loadStoreDeps()).tldts;
  const place = placeOf(options, file, true);
  const rows = await openSqliteFile({ ...options, file });
  try {
    const { db } = rows;
    if (readMeta(db, 'file_id') === undefined) writeMeta(db, 'file_id', randomUUID());
    await removeStaleNext(place, db);
    const columns = await openCurrentColumns(place, db, { promote: true });
    const side = new ColumnSide(columns, rows, options.groupLinks ?? GROUP_LINKS, place.writing.memoryLimit!, place);
    if (!columns) await side.rebuild();
    return assemble(rows, side, options, parser);
  } catch (error) {
    await rows.close();
    throw error;
  }
}

/** The store of one generation of the data (a server's), or of a store that loads. */
function assemble(rows: SqliteFile, side: ColumnSide, options: EmbeddedStoreOptions, parser: DomainParser, readOnly = false): EmbeddedStore {
  const engine = embeddedEngine(rows, side, { rollups: options.rollups !== false, readOnly });
  return createStore(engine, { parser, ledger: sqlLedger(rows.connection, { closeConnection: false }) }, {
    db: rows.db,
    connection: rows.connection,
    get columns() {
      return side.columns;
    },
  });
}

/** Marks a column file as the copy of the SQLite file `fileId`'s `generation`. */
async function recordGeneration(columns: DuckdbConnection, fileId: string, generation: string): Promise<void> {
  await columns.transaction([
    raw('DELETE FROM meta'),
    sql`INSERT INTO meta VALUES ('schema', ${String(COLUMN_SCHEMA_VERSION)}), ('source', ${fileId}), ('generation', ${generation})`,
  ]);
}

/** Moves the next generation's column file into place; one another process has moved already is left as it is. */
function moveNextIntoPlace(place: ColumnPlace): void {
  try {
    renameSync(place.next, place.file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Removes a column file and its write-ahead log, when there. */
function removeColumnFile(path: string): void {
  for (const suffix of ['', '.wal']) rmSync(`${path}${suffix}`, { force: true });
}

/** Whether a column file (its `meta` table) is the copy of the SQLite file `fileId`'s `generation`. */
async function isCopyOf(columns: DuckdbConnection, fileId: string, generation: string): Promise<boolean> {
  const [tables] = await columns.all<{ n: number }>(raw(`SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'meta'`));
  if (tables!.n === 0) return false;
  const meta = new Map((await columns.all<{ key: string; value: string }>(raw('SELECT key, value FROM meta'))).map((row) => [row.key, row.value]));
  return meta.get('schema') === String(COLUMN_SCHEMA_VERSION) && meta.get('source') === fileId && meta.get('generation') === generation;
}

/**
 * The column file of the SQLite file's current generation, opened read-only: `FILE.duckdb`, or
 * `FILE.duckdb.next` when a load committed it and stopped before moving it into place (with
 * `promote`, moved now: only a holder of the SQLite write lock, or a store that is about to take it, may).
 * `undefined` when neither is the copy (the column file must be rebuilt).
 */
async function openCurrentColumns(place: ColumnPlace, db: Database, how: { readonly promote: boolean }): Promise<DuckdbConnection | undefined> {
  const fileId = readMeta(db, 'file_id');
  if (fileId === undefined || readMeta(db, 'layout') !== 'embedded') return undefined;
  const generation = dataGeneration(db);
  // The file, the next one, and the file again: a load may move the next one into place meanwhile.
  for (const path of [place.file, place.next, place.file]) {
    if (!existsSync(path)) continue;
    let columns: DuckdbConnection;
    try {
      columns = await openDuckdbConnection(path, place.reading);
    } catch (error) {
      // The next one, moved away or being written by a load that has not committed.
      if (path === place.next) continue;
      throw error;
    }
    if (await isCopyOf(columns, fileId, generation)) {
      if (path === place.file || !how.promote) return columns;
      await columns.close();
      moveNextIntoPlace(place);
      return openDuckdbConnection(place.file, place.reading);
    }
    await columns.close();
  }
  return undefined;
}

/**
 * Removes the next generation's column file a load left when it stopped before its commit (its
 * process killed), which would otherwise stay on disk until the next load. Only when no load runs:
 * under SQLite's write lock, taken without waiting (a load holds it from its start to its commit),
 * the current column file is found again (a next generation committed and not moved is moved into
 * place then), and what is left beside it is stale.
 */
async function removeStaleNext(place: ColumnPlace, db: Database): Promise<void> {
  if (!existsSync(place.next)) return;
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch {
    // A load runs: the file is its own.
    return;
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
  try {
    await (await openCurrentColumns(place, db, { promote: true }))?.close();
    removeColumnFile(place.next);
  } finally {
    db.exec('ROLLBACK');
  }
}

/**
 * Opens the store of the current generation of the data (rows read only while they are of that
 * generation, the column file of that generation read-only), rebuilding the column file first
 * when there is none.
 */
async function openGeneration(options: EmbeddedStoreOptions, parser: DomainParser): Promise<GenerationStore<EmbeddedStore>> {
  const file = options.file!;
  const place = placeOf(options, file, false);
  for (let attempt = 1; ; attempt++) {
    const rows = await openSqliteFile({ ...options, file, oneGeneration: true });
    let columns: DuckdbConnection | undefined;
    try {
      columns = await openCurrentColumns(place, rows.db, { promote: false });
    } catch (error) {
      await rows.close();
      throw error;
    }
    if (columns) {
      const side = new ColumnSide(columns, rows, options.groupLinks ?? GROUP_LINKS, "half the machine's memory", place);
      return { generation: rows.generation!, store: assemble(rows, side, options, parser, true) };
    }
    const moved = dataGeneration(rows.db) !== rows.generation;
    await rows.close();
    if (attempt >= 5) throw new StoreError('read_only', `${place.file} could not be opened as the copy of ${file}'s data.`);
    // Not moved on (a load committed meanwhile): the column file is missing or stale, and is rebuilt, beside any other reader.
    if (!moved) await (await openWriting({ ...options, readOnly: false })).close();
  }
}

/**
 * A server's store (`readOnly`): each call answered from one generation of the data, following
 * the loads other processes commit (`../sqlite/generations.ts`).
 */
async function openServing(options: EmbeddedStoreOptions): Promise<EmbeddedStore> {
  const parser = options.parser ?? (await loadStoreDeps()).tldts;
  const own = await openSqliteFile({ ...options, readers: 1 });
  try {
    await removeStaleNext(placeOf(options, options.file!, false), own.db);
  } catch (error) {
    await own.close();
    throw error;
  }
  const store = await followGenerations(own, () => openGeneration(options, parser));
  return Object.defineProperties(store, {
    db: { get: () => store.current().db },
    connection: { get: () => store.current().connection },
    columns: { get: () => store.current().columns },
  }) as typeof store & Pick<EmbeddedStore, 'db' | 'connection' | 'columns'>;
}

/**
 * The embedded engine: SQLite's engine for what is read by key (and every answer without
 * rollups); the column side for lists (keys, or whole rollup rows; a page of links takes its rows
 * from SQLite by id), competitors and the matrix. A load is SQLite's (`sqliteLoad`), whose refresh
 * brings the column file up to date (`ColumnSide.refresh`).
 */
function embeddedEngine(rows: SqliteFile, side: ColumnSide, options: { readonly rollups: boolean; readonly readOnly: boolean }): Engine {
  const base = sqlEngine(rows.connection, { kind: 'embedded', rollups: options.rollups });
  const onRows: ReadPlace = { connection: rows.connection, sources: SQL_SOURCES };
  const whole: ListPlan = { keys: onRows, totals: onRows, window: false };
  const linksById: RowsByKey = {
    kind: 'links-by-id',
    at: onRows,
    linksOfIds: (_target, ids) => sql`(SELECT * FROM links WHERE id IN (${join(ids.map((id) => sql`${id}`), ', ')})) l`,
  };
  // Keys first here too past the first page: DuckDB hands whole rows to JavaScript slowly, and a
  // page's rows by key are one more scan of the key's rows, once per page (the window keeps them);
  // the first page, read cold, comes whole with its count in one statement (`wholeFirst` of
  // run-list.ts). The figures, and bench/server/embedded-probes.ts that times the forms:
  // docs/design-store.md, "Measurements behind the store's code".
  const sameRelation: RowsByKey = { kind: 'same-relation', keyIn: (keys) => sql`_key IN (SELECT unnest(${side.columns.textList(keys.map(String))}))` };
  return {
    ...base,
    list: (operation, query, rollupKey) => {
      if (!options.rollups) return whole;
      const onColumns: ReadPlace = { connection: side.columns, sources: columnSources(query.target) };
      if (operation === 'links') {
        // The default order without a filter is SQLite's index, read from its start: the window's keys there.
        const fromIndex = query.filter === null && rollupKey !== undefined && query.page.orderBy === 'page_score' && query.page.direction === 'DESC';
        return { keys: fromIndex ? onRows : onColumns, rows: linksById, totals: onRows, window: true };
      }
      // A subfolder below the host has no rollup key: its rows are grouped on the column side per
      // call (from its pages' rollup rows where they add up), and the window keeps them whole: a
      // page's rows by key would group them all again.
      if (rollupKey === undefined) return { keys: onColumns, window: true };
      return { keys: onColumns, rows: sameRelation, ...(COUNTED_IN_TARGETS.has(operation) ? { totals: onRows } : {}), window: true };
    },
    // A SUBFOLDER below the host: its links counted on the column side; its referring domains
    // listed there from its pages' rollup rows, and their scores counted in SQLite (a referring
    // domain without a record is not counted: only SQLite knows which have one).
    countedAt: (target) => ({ connection: side.columns, sources: countingSources(target) }),
    scoreProfileOf: async (target) => {
      const [names] = await side.columns.columnsOf(sql`SELECT DISTINCT r.source_domain FROM r_ref_domains r WHERE r.tdomain = ${target.domain} AND ${folderPageKeys(target)}`);
      if (!names || names.length === 0) return [];
      const counted = await rows.connection.all<{ s: number; n: number }>(
        sql`SELECT d.domain_score AS s, count(*) AS n FROM domains d WHERE d.domain IN (SELECT value FROM json_each(${JSON.stringify(names)}))
          GROUP BY d.domain_score ORDER BY s ASC`,
      );
      return counted.map((row) => ({ domain_score: Number(row.s), domains_count: Number(row.n) }));
    },
    competitors: { kind: 'graph', read: () => side.competitorGraph() },
    matrix: { kind: 'lists', list: (target, rollupKey) => side.referrers(target, rollupKey) },
    load: {
      begin: () => {
        if (options.readOnly) throw new StoreError('read_only', `${rows.file} is open for serving: load it through a store opened for loading (the import command), which may run beside this one.`);
        return side.load();
      },
      // The column file the load began from (the next generation is written at its finish).
      linkedFrom: {
        get connection() {
          return side.columns;
        },
        sources: SQL_SOURCES,
      },
    },
    ping: async () => {
      await base.ping();
      await side.columns.all(raw('SELECT 1 AS one'));
    },
    close: async () => {
      await rows.close();
      await side.close();
    },
  };
}

/** Facts of the SQLite file (`store_meta`): its id, its layout, the generation of its data. */
const readMeta = (db: Database, key: string): string | undefined => (db.prepare('SELECT value FROM store_meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
const writeMeta = (db: Database, key: string, value: string) => db.prepare('INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);

/** A domain's links as DuckDB's rollups read them (`STAGE_LINK_COLUMNS`: those the column side copies, then `ip_class_c`). */
const STAGE_SELECT = `SELECT ${STAGE_LINK_COLUMNS.map((column) => `l.${column.name}`).join(', ')} FROM links l WHERE l.target_domain = ?`;
const STAGE_LINK_TYPES = STAGE_LINK_COLUMNS.map((column) => column.type);
const STAGE_SOURCE_AT = STAGE_LINK_COLUMNS.findIndex((column) => column.name === 'source_domain');
const STAGE_HOST_AT = STAGE_LINK_COLUMNS.findIndex((column) => column.name === 'target_host');

/** The rows of a query by key (one bound key, as `SELECT ... WHERE key = ?`) for each of `keys`, as arrays. */
function* byKeys(db: Database, query: string, keys: Iterable<string>): Generator<unknown[]> {
  const statement = db.prepare(query).raw();
  for (const key of keys) yield* statement.all(key) as unknown[][];
}

/** SQLite's page cache through a load, in KiB: the refresh reads each domain's links once, and the memory is DuckDB's to use. */
const LOAD_CACHE_KIB = 256 * 1024;

/** Whether DuckDB ran out of the memory it may use. */
const isOutOfMemory = (error: unknown): boolean => /Out of Memory Error/.test(String((error as Error | undefined)?.message));

/** Rows per statement of {@link rowInserts}. */
const ROWS_PER_INSERT = 64;

/**
 * Inserts rows given by column (a chunk of a DuckDB result) into a rollup table of SQLite, in
 * statements of {@link ROWS_PER_INSERT} rows: faster than a row at a time (docs/design-store.md,
 * "Measurements behind the store's code").
 */
function rowInserts(db: Database, table: (typeof ROW_ROLLUPS)[number]): (columns: readonly (readonly unknown[])[]) => void {
  const names = ROLLUP_COLUMNS[table];
  const tuple = `(${names.map(() => '?').join(', ')})`;
  const prefix = `INSERT INTO ${table} (${names.join(', ')}) VALUES `;
  const one = db.prepare(prefix + tuple);
  const many = db.prepare(prefix + Array.from({ length: ROWS_PER_INSERT }, () => tuple).join(', '));
  const values: unknown[] = new Array(ROWS_PER_INSERT * names.length);
  return (columns) => {
    const count = columns[0]?.length ?? 0;
    let row = 0;
    for (; row + ROWS_PER_INSERT <= count; row += ROWS_PER_INSERT) {
      let k = 0;
      for (let r = row; r < row + ROWS_PER_INSERT; r++) for (const column of columns) values[k++] = column[r];
      many.run(values);
    }
    for (; row < count; row++) one.run(columns.map((column) => column[row]));
  };
}

/**
 * Links of a refresh's group of domains (whole domains: a domain of more links is a group of its
 * own), whose rollups DuckDB computes at once.
 */
const GROUP_LINKS = 250_000;

/** The column side: its queries, how a refresh writes it, and the generation that ties it to the SQLite file. */
class ColumnSide {
  #columns: DuckdbConnection | undefined;
  /** The next generation of a file store's column file, while a load writes it. */
  #next: DuckdbConnection | undefined;

  constructor(
    columns: DuckdbConnection | undefined,
    readonly rows: SqliteFile,
    readonly groupLinks: number,
    /** DuckDB's memory limit, for messages (raised with it, see `#computeGroup`). */
    public memoryLimit: string,
    /** Where a file store's column file lives; `undefined` in memory, where it is written in place. */
    readonly place: ColumnPlace | undefined,
  ) {
    this.#columns = columns;
  }

  /** The column file calls read: the current generation's (read-only for a file store). */
  get columns(): DuckdbConnection {
    if (!this.#columns) throw new StoreError('read_only', `${this.place?.file ?? 'The column file'} is not open: a rebuild of it failed.`);
    return this.#columns;
  }

  async close(): Promise<void> {
    await this.#next?.close();
    if (this.#columns !== this.#next) await this.#columns?.close();
  }

  /** In memory: rebuilds the column side from SQLite unless it is the copy of SQLite's current generation. */
  async openInPlace(): Promise<void> {
    const { db } = this.rows;
    let fileId = readMeta(db, 'file_id');
    if (fileId === undefined) writeMeta(db, 'file_id', (fileId = randomUUID()));
    const generation = dataGeneration(db);
    if ((await isCopyOf(this.columns, fileId, generation)) && readMeta(db, 'layout') === 'embedded') return;
    await this.columns.transaction(columnTables().map(raw));
    const hasLinks = db.prepare('SELECT 1 FROM links LIMIT 1').get() !== undefined;
    // A SQLite file of the plain layout (or a column file that is not its copy): every rollup again, the list rollups into the columns.
    if (hasLinks) await this.refresh(db, 'all');
    else await this.rows.local.transaction(ROLLUP_TABLES.map((table) => raw(`DELETE FROM ${table}`)));
    writeMeta(db, 'layout', 'embedded');
    await recordGeneration(this.columns, fileId, generation);
  }

  /** A file store's column file rebuilt from SQLite: a load of nothing, whose next generation holds every rollup again. */
  async rebuild(): Promise<void> {
    await (await this.load()).finish([]);
  }

  /**
   * A load: SQLite's (one transaction, which adds one to the data's generation before its refresh). In memory, the
   * columns are refreshed in place. A file store writes the next generation of its column file at
   * the load's finish (a copy of the current one, refreshed), closes it before the SQLite commit and
   * moves it into place after: readers (servers in other processes) read the old generation until
   * the commit, then the new one; a load stopped at any point leaves the current file as it was.
   */
  async load(): Promise<LoadSink> {
    const { db } = this.rows;
    const place = this.place;
    const inner = await sqliteLoad(db, this.rows.local, (domains, onProgress) => (place ? this.#writeNext(db, domains, onProgress) : this.refresh(db, domains, onProgress)), LOAD_CACHE_KIB);
    // Under the load's write lock: the column file of the generation the load begins from.
    if (place) {
      try {
        await this.#settle(db, place);
      } catch (error) {
        // The load does not begin: its transaction and the next generation are let go.
        if (db.inTransaction) db.exec('ROLLBACK');
        if (this.#next) await this.#next.close();
        if (this.#columns === this.#next) this.#columns = undefined;
        this.#next = undefined;
        removeColumnFile(place.next);
        throw error;
      }
    }
    return {
      ...inner,
      finish: async (domains, onProgress) => {
        if (!place) {
          await inner.finish(domains, onProgress);
          await recordGeneration(this.columns, readMeta(db, 'file_id')!, dataGeneration(db));
          return;
        }
        try {
          await inner.finish(domains, onProgress);
        } catch (error) {
          removeColumnFile(place.next);
          this.#columns ??= await openCurrentColumns(place, db, { promote: false });
          throw error;
        }
        // Committed: the next generation is the current one.
        moveNextIntoPlace(place);
        await this.#use(await openDuckdbConnection(place.file, place.reading));
      },
    };
  }

  /**
   * The current generation's column file, found (and moved into place, were it left beside it) under
   * the load's write lock; when there is none, the next generation is built now from every rollup
   * again, in the load's transaction, and read meanwhile.
   */
  async #settle(db: Database, place: ColumnPlace): Promise<void> {
    const found = await openCurrentColumns(place, db, { promote: true });
    if (found) return this.#use(found);
    writeMeta(db, 'layout', 'embedded');
    const next = await this.#openNext(place, false);
    this.#next = next;
    await this.refresh(db, 'all', undefined, next);
    await this.#use(next);
  }

  /** Reads from `columns` from now on. */
  async #use(columns: DuckdbConnection): Promise<void> {
    const before = this.#columns;
    this.#columns = columns;
    if (before && before !== columns && before !== this.#next) await before.close();
  }

  /** The next generation's file, a copy of the current one (or empty), opened for writing. */
  async #openNext(place: ColumnPlace, copy: boolean): Promise<DuckdbConnection> {
    removeColumnFile(place.next);
    if (copy) {
      // A copy-on-write clone where the file system makes them, else a copy.
      await copyFile(place.file, place.next, constants.COPYFILE_FICLONE);
      if (existsSync(`${place.file}.wal`)) await copyFile(`${place.file}.wal`, `${place.next}.wal`);
    }
    const next = await openDuckdbConnection(place.next, place.writing);
    if (!copy) await next.transaction(columnTables().map(raw));
    return next;
  }

  /** The load's refresh, into the next generation, which is complete and closed when this returns (before the SQLite commit). */
  async #writeNext(db: Database, domains: readonly string[] | 'all', onProgress?: (done: number, total: number) => void): Promise<void> {
    const next = this.#next ?? (this.#next = await this.#openNext(this.place!, true));
    try {
      await this.refresh(db, domains, onProgress, next);
      await recordGeneration(next, readMeta(db, 'file_id')!, dataGeneration(db));
      await next.checkpoint();
    } finally {
      this.#next = undefined;
      if (this.#columns === next) this.#columns = undefined;
      await next.close();
    }
  }

  /**
   * Brings the rollups of the given registrable domains (`'all'`: every one) up to date, group by
   * group (`#steps`); readers see the old columns or the new. A group too large for DuckDB's memory
   * limit fails with a StoreError `out_of_memory` and changes nothing.
   */
  async refresh(db: Database, domains: readonly string[] | 'all', onProgress?: (done: number, total: number) => void, columns = this.columns): Promise<void> {
    // A load's refresh writes SQLite in the load's transaction; a rebuild when the store opens, in one of its own.
    const own = !db.inTransaction;
    if (own) db.exec('BEGIN IMMEDIATE');
    try {
      await refreshRollups(this.#steps(db, columns), domains, onProgress);
      if (own) db.exec('COMMIT');
    } catch (error) {
      if (own && db.inTransaction) db.exec('ROLLBACK');
      if (!isOutOfMemory(error)) throw error;
      throw new StoreError(
        'out_of_memory',
        `The column file's rollups needed more memory than DuckDB may use (${this.memoryLimit}); nothing was changed. ` +
          "A larger limit (the embedded store's columns.memoryLimit) lets it through.",
        { cause: error },
      );
    }
  }

  /**
   * A step of the refresh on DuckDB (a group's staging, its rollups with those read by key written
   * into SQLite, the columns moved into place), under a SQLite savepoint: a step that needs more
   * memory than the load's first limit is given the most a load may take (`ColumnPlace.most`) and
   * run again; from then on the refresh keeps that limit. A limit the caller named is never raised.
   */
  async #withRoom(db: Database, columns: DuckdbConnection, step: () => Promise<void>): Promise<void> {
    db.exec('SAVEPOINT rollup_step');
    try {
      await step();
    } catch (error) {
      db.exec('ROLLBACK TO rollup_step');
      db.exec('RELEASE rollup_step');
      const most = this.place?.most;
      if (!isOutOfMemory(error) || most === undefined || most === this.memoryLimit) throw error;
      // A limit of this module's own making (never the caller's text).
      await columns.all(raw(`SET memory_limit = '${most}'`));
      this.memoryLimit = most;
      return this.#withRoom(db, columns, step);
    }
    db.exec('RELEASE rollup_step');
  }

  /**
   * The refresh's steps: groups of whole domains of about `groupLinks` links, each read from SQLite
   * once and handed to DuckDB, which computes every rollup of the group (`duckdb/rollups.ts`); the
   * rollups read by key go into SQLite, the links and list rollups are set aside, and at the end
   * replace the domains' rows in the columns. Why memory does not grow with the load:
   * docs/design-store.md, "The embedded store: rows in SQLite, columns in DuckDB".
   */
  #steps(db: Database, columns: DuckdbConnection): RefreshSteps {
    let rebuild = false;
    let groups = 0;
    const read = db.prepare(STAGE_SELECT).raw();
    const inserts = Object.fromEntries(ROW_ROLLUPS.map((table) => [table, rowInserts(db, table)])) as Record<(typeof ROW_ROLLUPS)[number], ReturnType<typeof rowInserts>>;
    return {
      allDomains: async () => db.prepare('SELECT DISTINCT target_domain FROM links ORDER BY target_domain').pluck().all() as string[],
      begin: async (list, all) => {
        rebuild = all;
        // Before the first change to the column file, it stops being the copy of any generation: a
        // refresh that stops half way (the SQLite side rolled back, or committed without this file
        // catching up) leaves it to be rebuilt at the next open, never read as current.
        await columns.transaction([raw('CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)'), raw(`DELETE FROM meta WHERE key = 'generation'`)]);
        if (rebuild) await columns.transaction(columnTables().map(raw));
        // The rollups read by key: the domains' rows in SQLite go first. A rebuild empties every
        // rollup SQLite has (a file of the plain layout holds the list rollups too).
        if (!rebuild) for (const domain of list) for (const statement of rollupDeletes(domain, ROW_ROLLUPS)) db.prepare(statement.sql).run(statement.params as unknown[]);
        else for (const table of ROLLUP_TABLES) db.exec(`DELETE FROM ${table}`);
        if (list.length === 0) return list;
        // Tables a refresh that failed on this connection set aside go first (temporary tables live as long as the connection).
        await columns.writeTransaction(async (tx) => {
          const left: string[] = [];
          for await (const [names] of tx.chunksOf(raw(`SELECT table_name FROM duckdb_tables() WHERE temporary AND starts_with(table_name, 'aside_')`))) left.push(...(names as string[]));
          for (const name of left) await tx.run(raw(`DROP TABLE temp."${name}"`));
          for (const statement of setAsideTables()) await tx.run(raw(statement));
        });
        return list;
      },
      group: async (list, from, counted) => {
        const group = groups++;
        let done = from;
        const sources = new Set<string>();
        const hosts = new Set<string>();
        // The stage committed before DuckDB reads it (temporary tables: no reader sees them): rows
        // appended in the same transaction read more slowly (docs/design-store.md, "Measurements behind the store's code").
        const stageGroup = () => columns.writeTransaction(async (tx) => {
          // From the group's first domain again when the stage is run again (`#withRoom`).
          done = from;
          sources.clear();
          hosts.clear();
          for (const statement of stageInputTables()) await tx.run(raw(statement));
          // Rows go from SQLite's iterator to DuckDB's appender a chunk at a time, with no await between.
          const stage = await tx.appender('temp.stage_links', STAGE_LINK_TYPES);
          try {
            let staged = 0;
            while (done < list.length && staged < this.groupLinks) {
              // A domain counts once its links are staged (the last one once the columns are in place).
              if (done > 0) counted(done);
              for (const row of read.iterate(list[done++]) as IterableIterator<unknown[]>) {
                sources.add(row[STAGE_SOURCE_AT] as string);
                hosts.add(row[STAGE_HOST_AT] as string);
                stage.add(row);
                staged++;
              }
            }
          } finally {
            stage.close();
          }
          await tx.append('temp.aside_domains', ['varchar'], list.slice(from, done).map((domain) => [domain]));
          await tx.append('temp.stage_sources', STAGE_SOURCE_COLUMNS.map((c) => c.type), byKeys(db, 'SELECT domain, ip_address, country, domain_score FROM domains WHERE domain = ?', sources));
          await tx.append('temp.stage_pages', STAGE_PAGE_COLUMNS.map((c) => c.type), byKeys(db, `SELECT ${STAGE_PAGE_COLUMNS.map((c) => c.name).join(', ')} FROM target_pages WHERE host = ?`, hosts));
        });
        await this.#withRoom(db, columns, stageGroup);
        await this.#withRoom(db, columns, () =>
          columns.writeTransaction(async (tx) => {
            for (const statement of [...computeRollups(), ...setAside(group)]) await tx.run(raw(statement));
            // In the order of each table's primary key (its first two columns): SQLite then appends to its B-tree.
            for (const table of ROW_ROLLUPS) {
              const names = ROLLUP_COLUMNS[table];
              for await (const chunk of tx.chunksOf(raw(`SELECT ${names.join(', ')} FROM new_${table} ORDER BY ${names.slice(0, 2).join(', ')}`))) inserts[table](chunk);
            }
          }),
        );
        return done;
      },
      end: async (list, counted) => {
        if (list.length === 0) return;
        await this.#withRoom(db, columns, () =>
          columns.writeTransaction(async (tx) => {
            for (const statement of moveIntoPlace(rebuild, groups)) await tx.run(raw(statement));
          }),
        );
        counted(list.length);
        await columns.checkpoint();
      },
    };
  }

  /** The graph competitors are counted over (the read-cache keeps it until the next load). */
  async competitorGraph(): Promise<CompetitorIndex> {
    const [names] = await this.columns.columnsOf(raw(`SELECT DISTINCT tdomain FROM r_ref_domains WHERE tkey = 'd:' || tdomain ORDER BY tdomain`));
    const [targets, sources] = await this.columns.columnsOf(
      raw(`SELECT CAST(dense_rank() OVER (ORDER BY tdomain) - 1 AS INTEGER) AS t, sid FROM r_ref_domains WHERE tkey = 'd:' || tdomain`),
    );
    const sourceIds = Int32Array.from(sources as number[]);
    const sourceCount = sourceIds.reduce((max, id) => (id >= max ? id + 1 : max), 0);
    return new CompetitorIndex(Int32Array.from(targets as number[]), sourceIds, names as string[], sourceCount);
  }

  /** A target's referring-domain list, for the matrix (the read-cache keeps it until the next load). */
  async referrers(target: Target, rollupKey: string): Promise<ReferrerList> {
    // By domain, by code point (UTF-8 bytes), as the union merges them.
    const [ids, domains, backlinks, scores, ips, countries] = await this.columns.columnsOf(
      sql`SELECT sid, source_domain, backlinks_count, domain_score, ip_address, country FROM r_ref_domains
        WHERE tdomain = ${target.domain} AND tkey = ${rollupKey} ORDER BY source_domain COLLATE "binary"`,
    );
    return {
      nativeOrder: [domains, ips, countries].every((texts) => (texts as string[]).every(isNativeOrderSafe)),
      ids: Int32Array.from(ids as number[]),
      domains: domains as string[],
      backlinks: Float64Array.from(backlinks as (number | bigint)[], Number),
      scores: Float64Array.from(scores as (number | bigint)[], Number),
      ips: ips as string[],
      countries: countries as string[],
    };
  }
}
