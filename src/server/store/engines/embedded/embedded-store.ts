/**
 * The embedded store, the default of `serve`, `seed` and `import`: rows in SQLite (`FILE`: links,
 * domains, pages, keywords, keys, the rollups read by key), columns in DuckDB (`FILE.duckdb`: the
 * links' fields with ranks, the list rollups), composed as one engine's table. The column file is
 * derived data, rebuilt when it is not the SQLite file's current copy; servers open it read-only,
 * and a load while one runs is refused before it writes anything. What lives where and why:
 * docs/design-store.md, "The embedded store: rows in SQLite, columns in DuckDB".
 *
 * @module
 */
import type { Database } from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { loadStoreDeps, type DomainParser } from '../../../deps.js';
import { errorBrand } from '../../../../shared/brand.js';
import { isNativeOrderSafe } from '../../../../evaluate/text-order.js';
import type { Target } from '../../../target.js';
import { loadMemoryLimit, openDuckdbConnection, type DuckdbConnection, type DuckdbConnectionOptions } from '../duckdb/connection.js';
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
import { ROLLUP_COLUMNS, ROLLUP_TABLES, rollupDeletes } from '../../loads/rollups.js';
import { refreshRollups, type RefreshSteps } from '../../loads/refresh.js';
import type { WorkerConnectionOptions } from '../sqlite/connection.js';
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
   * Options of the column side's connections. Opened for writing (a load), a store's column file
   * may take 2 GiB of memory, or a quarter of the machine's when that is less, unless
   * `columns.memoryLimit` says otherwise; opened `readOnly` (a server), half the machine's memory.
   */
  readonly columns?: DuckdbConnectionOptions;
  /**
   * Serving only: the column file is opened for reading, which other processes may do at the same
   * time (DuckDB lets a file have many readers or one writer). When the column file is not the
   * SQLite file's current copy it is rebuilt first, with the file opened for writing, then opened
   * for reading. Such a store has no writer.
   */
  readonly readOnly?: boolean;
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

/** Where a column-side query reads a target: only its registrable domain's rows (zone maps skip the rest). */
function columnSources(target: Target): RelationSources {
  return {
    ...SQL_SOURCES,
    links: sql`(SELECT * FROM links WHERE target_domain = ${target.domain}) l`,
    rollupRows: (tkey) => sql`r.tdomain = ${target.domain} AND r.tkey = ${tkey}`,
    sortKeys: LINK_SORT_KEYS,
  };
}

/** The list operations whose unfiltered total is a counter of `r_targets` (pages and anchors are counted on the column side). */
const COUNTED_IN_TARGETS: ReadonlySet<GroupedOperation> = new Set(['links', 'ref-domains', 'ref-ips']);

/**
 * Opens (creating when needed) the embedded store: the SQLite file, migrated, and its column file,
 * rebuilt first when it is not the SQLite file's current copy.
 *
 * @example
 * ```ts
 * const store = await openEmbeddedStore({ file: '.backlink-query/sample.db' });
 * await store.close();
 * ```
 */
export async function openEmbeddedStore(options: EmbeddedStoreOptions = {}): Promise<EmbeddedStore> {
  const file = options.file ?? ':memory:';
  if (options.readOnly && file !== ':memory:') {
    try {
      return await openHalves(options, true);
    } catch (error) {
      if (!STALE_COLUMNS.is(error)) throw error;
      // Rebuilt with the file open for writing, then served from it open for reading.
      await (await openHalves(options, false)).close();
      return openHalves(options, true);
    }
  }
  return openHalves(options, false);
}

const STALE_COLUMNS = /* @__PURE__ */ errorBrand<StaleColumnsError>('StaleColumnsError');

/**
 * The column file is missing or not the SQLite file's current copy, and may not be written now
 * (opened read-only): {@link openEmbeddedStore} rebuilds it and opens the store again. Never leaves
 * this module.
 */
class StaleColumnsError extends Error {
  override readonly name = 'StaleColumnsError';
  constructor() {
    super('The column file is not the current copy of the SQLite file.');
    STALE_COLUMNS.mark(this);
  }
}

async function openHalves(options: EmbeddedStoreOptions, readOnly: boolean): Promise<EmbeddedStore> {
  const file = options.file ?? ':memory:';
  const columnsFile = options.columnsFile ?? (file === ':memory:' ? ':memory:' : `${file}.duckdb`);
  const parser = options.parser ?? (await loadStoreDeps()).tldts;
  if (readOnly && !existsSync(columnsFile)) throw new StaleColumnsError();
  // The column file first: one another process holds is refused before anything is written.
  const memoryLimit = options.columns?.memoryLimit ?? (readOnly || columnsFile === ':memory:' ? undefined : loadMemoryLimit());
  const columns = await openDuckdbConnection(columnsFile, { ...options.columns, readOnly, ...(memoryLimit === undefined ? {} : { memoryLimit }) });
  let rows: SqliteFile;
  try {
    rows = await openSqliteFile({ ...options, file });
  } catch (error) {
    await columns.close();
    throw error;
  }
  const side = new ColumnSide(columns, rows, options.groupLinks ?? GROUP_LINKS, memoryLimit ?? "half the machine's memory");
  try {
    await side.open(readOnly);
  } catch (error) {
    await rows.close();
    await columns.close();
    throw error;
  }
  const engine = embeddedEngine(rows, side, { rollups: options.rollups !== false, readOnly });
  return createStore(engine, { parser, ledger: sqlLedger(rows.connection, { closeConnection: false }) }, { db: rows.db, connection: rows.connection, columns });
}

/**
 * The embedded engine: SQLite's engine for what is read by key (and every answer without
 * rollups); the column side for lists (keys, or whole rollup rows; a page of links takes its rows
 * from SQLite by id), competitors and the matrix. A load is SQLite's (`sqliteLoad`), whose refresh
 * brings the column file up to date (`ColumnSide.refresh`).
 */
function embeddedEngine(rows: SqliteFile, side: ColumnSide, options: { readonly rollups: boolean; readonly readOnly: boolean }): Engine {
  const { columns } = side;
  const base = sqlEngine(rows.connection, { kind: 'embedded', rollups: options.rollups });
  const onRows: ReadPlace = { connection: rows.connection, sources: SQL_SOURCES };
  const whole: ListPlan = { keys: onRows, totals: onRows, window: false };
  const linksById: RowsByKey = {
    kind: 'links-by-id',
    at: onRows,
    linksOfIds: (_target, ids) => sql`(SELECT * FROM links WHERE id IN (${join(ids.map((id) => sql`${id}`), ', ')})) l`,
  };
  // Keys first here too: DuckDB hands whole rows to JavaScript slowly, and a page's rows by key are
  // one more scan of the key's rows, once per page (the window keeps them). The figures, and
  // bench/server/embedded-probes.ts that times the forms: docs/design-store.md, "Measurements behind the store's code".
  const sameRelation: RowsByKey = { kind: 'same-relation', keyIn: (keys) => sql`_key IN (SELECT unnest(${columns.textList(keys.map(String))}))` };
  return {
    ...base,
    list: (operation, query, rollupKey) => {
      if (!options.rollups) return whole;
      const onColumns: ReadPlace = { connection: columns, sources: columnSources(query.target) };
      if (operation === 'links') {
        // The default order without a filter is SQLite's index, read from its start: the window's keys there.
        const fromIndex = query.filter === null && rollupKey !== undefined && query.page.orderBy === 'page_score' && query.page.direction === 'DESC';
        return { keys: fromIndex ? onRows : onColumns, rows: linksById, totals: onRows, window: true };
      }
      // A subfolder below the host has no rollup key: its groups come from SQLite's links, per call.
      if (rollupKey === undefined) return whole;
      return { keys: onColumns, rows: sameRelation, ...(COUNTED_IN_TARGETS.has(operation) ? { totals: onRows } : {}), window: true };
    },
    competitors: { kind: 'graph', read: () => side.competitorGraph() },
    matrix: { kind: 'lists', list: (target, rollupKey) => side.referrers(target, rollupKey) },
    load: {
      begin: () => {
        if (options.readOnly) throw new StoreError('read_only', `${rows.file} is open for serving (its column file read-only, shared with other readers): a load needs it opened for writing, by no other process.`);
        return side.load();
      },
      linkedFrom: { connection: columns, sources: SQL_SOURCES },
    },
    ping: async () => {
      await base.ping();
      await columns.all(raw('SELECT 1 AS one'));
    },
    close: async () => {
      await rows.close();
      await columns.close();
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

/** SQLite's page cache while a refresh runs, in KiB (see `ColumnSide.refresh`). */
const REFRESH_CACHE_KIB = 256 * 1024;

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
  constructor(
    readonly columns: DuckdbConnection,
    readonly rows: SqliteFile,
    readonly groupLinks: number,
    /** DuckDB's memory limit, for messages. */
    readonly memoryLimit: string,
  ) {}

  /** Rebuilds the column file from SQLite unless it is the copy of SQLite's current generation. */
  async open(readOnly: boolean): Promise<void> {
    const { db } = this.rows;
    let fileId = readMeta(db, 'file_id');
    if (fileId === undefined) writeMeta(db, 'file_id', (fileId = randomUUID()));
    const generation = readMeta(db, 'columns_generation') ?? '0';
    const [tables] = await this.columns.all<{ n: number }>(raw(`SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'meta'`));
    const meta = tables!.n > 0 ? new Map((await this.columns.all<{ key: string; value: string }>(raw('SELECT key, value FROM meta'))).map((row) => [row.key, row.value])) : new Map<string, string>();
    const current = meta.get('schema') === String(COLUMN_SCHEMA_VERSION) && meta.get('source') === fileId && meta.get('generation') === generation;
    if (current && readMeta(db, 'layout') === 'embedded') return;
    if (readOnly) throw new StaleColumnsError();
    await this.columns.transaction(columnTables().map(raw));
    const hasLinks = db.prepare('SELECT 1 FROM links LIMIT 1').get() !== undefined;
    // A SQLite file of the plain layout (or a column file that is not its copy): every rollup again, the list rollups into the columns.
    if (hasLinks) await this.refresh(db, 'all');
    else await this.rows.local.transaction(ROLLUP_TABLES.map((table) => raw(`DELETE FROM ${table}`)));
    writeMeta(db, 'layout', 'embedded');
    await this.#recordGeneration(fileId, generation);
  }

  async #recordGeneration(fileId: string, generation: string): Promise<void> {
    await this.columns.transaction([
      raw('DELETE FROM meta'),
      sql`INSERT INTO meta VALUES ('schema', ${String(COLUMN_SCHEMA_VERSION)}), ('source', ${fileId}), ('generation', ${generation})`,
    ]);
  }

  /**
   * A load: SQLite's (one transaction), marking the column file stale while it writes and current
   * again once refreshed.
   */
  async load(): Promise<LoadSink> {
    const { db } = this.rows;
    const inner = await sqliteLoad(db, this.rows.local, (domains, onProgress) => this.refresh(db, domains, onProgress));
    let marked = false;
    const mark = () => {
      if (marked) return;
      marked = true;
      // In the load's SQLite transaction: a load that stops before its commit leaves the old
      // generation, and the column file, untouched until the refresh, its copy; a refresh detaches
      // the column file first, so one that stops half way has it rebuilt.
      writeMeta(db, 'columns_generation', String(Number(readMeta(db, 'columns_generation') ?? '0') + 1));
    };
    return {
      fresh: inner.fresh,
      recorded: inner.recorded,
      domains: async (rows) => (mark(), inner.domains(rows)),
      pages: async (rows) => (mark(), inner.pages(rows)),
      links: async (rows) => (mark(), inner.links(rows)),
      keywords: async (rows) => (mark(), inner.keywords(rows)),
      finish: async (domains, onProgress) => {
        mark();
        await inner.finish(domains, onProgress);
        await this.#recordGeneration(readMeta(db, 'file_id')!, readMeta(db, 'columns_generation')!);
      },
    };
  }

  /**
   * Brings the rollups of the given registrable domains (`'all'`: every one) up to date, group by
   * group (`#steps`); readers see the old columns or the new. A group too large for DuckDB's memory
   * limit fails with a StoreError `out_of_memory` and changes nothing.
   */
  async refresh(db: Database, domains: readonly string[] | 'all', onProgress?: (done: number, total: number) => void): Promise<void> {
    // A load's refresh writes SQLite in the load's transaction; a rebuild when the store opens, in one of its own.
    const own = !db.inTransaction;
    if (own) db.exec('BEGIN IMMEDIATE');
    // The refresh reads each domain's links once and appends rollup rows in key order: a load's
    // larger SQLite cache (in KiB, negative) is made small meanwhile, and the memory it gives back
    // is DuckDB's to use (the peaks: docs/design-store.md, "Measurements behind the store's code").
    const cache = db.pragma('cache_size', { simple: true }) as number;
    if (cache < -REFRESH_CACHE_KIB) db.pragma(`cache_size = -${REFRESH_CACHE_KIB}`);
    try {
      await refreshRollups(this.#steps(db), domains, onProgress);
      if (own) db.exec('COMMIT');
    } catch (error) {
      if (own && db.inTransaction) db.exec('ROLLBACK');
      if (!/Out of Memory Error/.test(String((error as Error | undefined)?.message))) throw error;
      throw new StoreError(
        'out_of_memory',
        `The column file's rollups needed more memory than DuckDB may use (${this.memoryLimit}); nothing was changed. ` +
          "A larger limit (the embedded store's columns.memoryLimit) lets it through.",
        { cause: error },
      );
    } finally {
      db.pragma(`cache_size = ${cache}`);
    }
  }

  /**
   * The refresh's steps: groups of whole domains of about `groupLinks` links, each read from SQLite
   * once and handed to DuckDB, which computes every rollup of the group (`duckdb/rollups.ts`); the
   * rollups read by key go into SQLite, the links and list rollups are set aside, and at the end
   * replace the domains' rows in the columns. Why memory does not grow with the load:
   * docs/design-store.md, "The embedded store: rows in SQLite, columns in DuckDB".
   */
  #steps(db: Database): RefreshSteps {
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
        await this.columns.transaction([raw('CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)'), raw(`DELETE FROM meta WHERE key = 'generation'`)]);
        if (rebuild) await this.columns.transaction(columnTables().map(raw));
        // The rollups read by key: the domains' rows in SQLite go first. A rebuild empties every
        // rollup SQLite has (a file of the plain layout holds the list rollups too).
        if (!rebuild) for (const domain of list) for (const statement of rollupDeletes(domain, ROW_ROLLUPS)) db.prepare(statement.sql).run(statement.params as unknown[]);
        else for (const table of ROLLUP_TABLES) db.exec(`DELETE FROM ${table}`);
        if (list.length === 0) return list;
        // Tables a refresh that failed on this connection set aside go first (temporary tables live as long as the connection).
        await this.columns.writeTransaction(async (tx) => {
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
        await this.columns.writeTransaction(async (tx) => {
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
        await this.columns.writeTransaction(async (tx) => {
          for (const statement of [...computeRollups(), ...setAside(group)]) await tx.run(raw(statement));
          // In the order of each table's primary key (its first two columns): SQLite then appends to its B-tree.
          for (const table of ROW_ROLLUPS) {
            const columns = ROLLUP_COLUMNS[table];
            for await (const chunk of tx.chunksOf(raw(`SELECT ${columns.join(', ')} FROM new_${table} ORDER BY ${columns.slice(0, 2).join(', ')}`))) inserts[table](chunk);
          }
        });
        return done;
      },
      end: async (list, counted) => {
        if (list.length === 0) return;
        await this.columns.writeTransaction(async (tx) => {
          for (const statement of moveIntoPlace(rebuild, groups)) await tx.run(raw(statement));
        });
        counted(list.length);
        await this.columns.checkpoint();
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
