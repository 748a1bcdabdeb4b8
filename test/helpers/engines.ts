/**
 * Connections to the five real SQL engines the differential and injection suites run on, behind
 * one small interface: SQLite (better-sqlite3, in memory), PostgreSQL (pg), MariaDB/MySQL (mysql2,
 * server-side prepared statements), DuckDB (@duckdb/node-api, in memory) and ClickHouse
 * (@clickhouse/client over HTTP; no bound parameters on the 18.16 server, so rows go in as
 * JSONEachRow data and filters come from the literal dialect). PostgreSQL, MariaDB and ClickHouse
 * come from the global setup (`inject('postgresUrl')`, `inject('mysqlUrl')`,
 * `inject('clickhouseUrl')`); a suite that cannot reach one fails, it never skips.
 *
 * @internal
 * @module
 */
import { createClient } from '@clickhouse/client';
import { DuckDBInstance, listValue, type DuckDBValue } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { inject } from 'vitest';

/** The engines, by the name of the SQL dialect they speak. @internal */
export type EngineName = 'sqlite' | 'postgres' | 'mysql' | 'duckdb' | 'clickhouse';
/** Every engine, in the order the suites run them. @internal */
export const ENGINE_NAMES: readonly EngineName[] = ['sqlite', 'postgres', 'mysql', 'duckdb', 'clickhouse'];

/**
 * The collation text columns get when a table names none: the engine's own default, or a
 * linguistic one (case-insensitive, ordered by language rules) under which a lowering that forgets
 * its collation clause selects the wrong rows. @internal
 */
export type Collation = 'default' | 'linguistic';

/**
 * Why ClickHouse has no `linguistic` variant: its `String` is bytes, compared byte by byte (code
 * point order on UTF-8), and there is no column, table, database or session collation that could
 * change what `=`, `<` or `LIKE` do (`ORDER BY ... COLLATE` only sorts). A linguistic ClickHouse
 * suite would be the default one under another name, so there is none, and
 * `openEngine('clickhouse', 'linguistic')` throws this sentence. @internal
 */
export const CLICKHOUSE_HAS_NO_COLLATION =
  'ClickHouse strings are bytes compared byte by byte (code point order on UTF-8) and ClickHouse has no column, database or session collation (ORDER BY ... COLLATE only sorts), so there is no linguistic ClickHouse session or suite';

/**
 * What `linguistic` means on each engine, for reports and docs. PostgreSQL and MariaDB get a
 * database of their own whose default is that collation; DuckDB a session setting; SQLite, which
 * has no database-wide default, text columns declared with it; ClickHouse has no collations at
 * all ({@link CLICKHOUSE_HAS_NO_COLLATION}). @internal
 */
export const LINGUISTIC: Readonly<Record<EngineName, string>> = {
  sqlite: 'text columns declared COLLATE NOCASE',
  postgres: "a database whose default collation is ICU 'en-US', string columns a case-insensitive nondeterministic ICU collation",
  mysql: 'a database whose default collation is utf8mb4_uca1400_ai_ci',
  duckdb: "SET default_collation = 'nocase'",
  clickhouse: `none: ${CLICKHOUSE_HAS_NO_COLLATION}`,
};

/** The engines that have a linguistic collation, so a linguistic session and suite. @internal */
export const LINGUISTIC_ENGINES: readonly EngineName[] = ENGINE_NAMES.filter((name) => name !== 'clickhouse');

/** One open connection to a real engine. @internal */
export interface EngineSession {
  readonly name: EngineName;
  /** The default collation of its text columns. */
  readonly collation: Collation;
  /** Runs statements without parameters (DDL); several statements are not allowed. */
  exec(sql: string): Promise<void>;
  /**
   * Runs one statement with bound parameters and returns its rows as objects. An engine without
   * bound parameters (ClickHouse 18.16) throws when `parameters` is not empty: values are never
   * spliced into the SQL text here.
   */
  query(sql: string, parameters: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /**
   * Sends rows to a table as data, never as SQL text (ClickHouse: `INSERT ... FORMAT
   * JSONEachRow`, each row an object keyed by column name). Only engines without bound
   * parameters have it; `ENGINE_TRAITS[name].insert` says which path an engine takes.
   */
  insertData?(quotedTable: string, rows: readonly Readonly<Record<string, unknown>>[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * The URL the global setup provided for a server, or a loud failure naming why it is missing.
 *
 * @internal
 */
export function engineUrl(key: 'postgresUrl' | 'mysqlUrl' | 'clickhouseUrl'): string {
  const url = inject(key);
  if (!url) {
    throw new Error(
      `${key} was not provided: the global setup started no database engine for this run. ` +
        `List the test file in ENGINE_FILES in test/setup/engine-selection.ts, or run with BQ_ENGINES=always.`,
    );
  }
  return url;
}

function openSqlite(collation: Collation): EngineSession {
  const db = new Database(':memory:');
  return {
    name: 'sqlite',
    collation,
    exec: async (sql) => void db.exec(sql),
    query: async (sql, parameters) => {
      const statement = db.prepare(sql);
      if (statement.reader) return statement.all(...parameters) as Record<string, unknown>[];
      statement.run(...parameters);
      return [];
    },
    close: async () => void db.close(),
  };
}

/** Database names of the linguistic variants (made once per server, kept until it stops). */
const ICU_DATABASE = 'bq_linguistic_icu_en_us';
const UCA_DATABASE = 'bq_linguistic_uca1400';

/** `url` with another database name. */
function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Runs `create`, accepting that a concurrent test file made the same database first. */
async function createOnce(create: () => Promise<unknown>, alreadyThere: (error: { code?: string; errno?: number }) => boolean): Promise<void> {
  try {
    await create();
  } catch (error) {
    if (!alreadyThere(error as { code?: string })) throw error;
  }
}

async function postgresUrlFor(collation: Collation): Promise<string> {
  const url = engineUrl('postgresUrl');
  if (collation === 'default') return url;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [ICU_DATABASE]);
    if (exists.rowCount === 0) {
      await createOnce(
        () => admin.query(`CREATE DATABASE ${ICU_DATABASE} TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US'`),
        // 42P04 duplicate_database; 23505 when two CREATE DATABASE race on pg_database's index.
        (error) => error.code === '42P04' || error.code === '23505',
      );
    }
  } finally {
    await admin.end();
  }
  const icu = withDatabase(url, ICU_DATABASE);
  // Case-insensitive and nondeterministic: '=' and '<' ignore case, and LIKE is an error unless
  // the query names a deterministic collation of its own.
  const client = new pg.Client({ connectionString: icu });
  await client.connect();
  try {
    await createOnce(
      () => client.query("CREATE COLLATION IF NOT EXISTS bq_nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false)"),
      (error) => error.code === '42710' || error.code === '23505',
    );
  } finally {
    await client.end();
  }
  return icu;
}

async function openPostgres(collation: Collation): Promise<EngineSession> {
  const client = new pg.Client({ connectionString: await postgresUrlFor(collation) });
  await client.connect();
  return {
    name: 'postgres',
    collation,
    exec: async (sql) => void (await client.query(sql)),
    query: async (sql, parameters) => (await client.query(sql, parameters as unknown[])).rows as Record<string, unknown>[],
    close: () => client.end(),
  };
}

async function openMysql(collation: Collation): Promise<EngineSession> {
  let uri = engineUrl('mysqlUrl');
  if (collation === 'linguistic') {
    const admin = await mysql.createConnection({ uri });
    try {
      await admin.query(`CREATE DATABASE IF NOT EXISTS ${UCA_DATABASE} CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_ai_ci`);
    } finally {
      await admin.end();
    }
    uri = withDatabase(uri, UCA_DATABASE);
  }
  // `execute` sends the statement and the values separately (server-side prepared statements);
  // `query` would splice escaped values into the text on the client, which proves nothing.
  const connection = await mysql.createConnection({ uri, charset: 'utf8mb4_general_ci' });
  return {
    name: 'mysql',
    collation,
    exec: async (sql) => void (await connection.query(sql)),
    query: async (sql, parameters) => {
      const [rows] = await connection.execute(sql, parameters as never[]);
      await connection.unprepare(sql); // keeps the server's prepared statement count bounded
      return rows as Record<string, unknown>[];
    },
    close: () => connection.end(),
  };
}

/**
 * JS values as DuckDB binds them: arrays become LIST values, their integers BIGINT (a list's type
 * is inferred from its elements, and a JS integer alone would make it INTEGER, too small for counts).
 *
 * @internal
 */
function toDuckValue(value: unknown): DuckDBValue {
  if (Array.isArray(value)) return listValue(value.map((item) => (Number.isInteger(item) ? BigInt(item as number) : toDuckValue(item))));
  return value as DuckDBValue;
}

async function openDuckdb(collation: Collation): Promise<EngineSession> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  if (collation === 'linguistic') await connection.run("SET default_collation = 'nocase'");
  return {
    name: 'duckdb',
    collation,
    exec: async (sql) => void (await connection.run(sql)),
    query: async (sql, parameters) => {
      const reader = await connection.runAndReadAll(sql, parameters.map(toDuckValue));
      return reader.getRowObjectsJS() as Record<string, unknown>[];
    },
    close: async () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/**
 * JSON of a row for `INSERT ... FORMAT JSONEachRow`, as `JSON.stringify` writes it except that a
 * negative zero stays `-0` (JSON.stringify writes `0`, and ClickHouse would store +0).
 */
function clickhouseJson(value: unknown): string {
  if (typeof value === 'number' && Object.is(value, -0)) return '-0';
  if (Array.isArray(value)) return `[${value.map(clickhouseJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${clickhouseJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * ClickHouse over HTTP. The Debian server (18.16) has no server-side query parameters, so
 * `query` refuses any, the suites lower filters with the `clickhouse-literals` dialect (values
 * written into the SQL text by its one escaping function, `parameters` empty), and rows go in as
 * JSONEachRow data through `insertData`. UInt64 results (`count()`) and Int64 columns come back
 * as JSON numbers (`output_format_json_quote_64bit_integers: 0`); the suites' integers stay within
 * 2^53-1, so that is exact.
 */
async function openClickhouse(collation: Collation): Promise<EngineSession> {
  if (collation === 'linguistic') throw new Error(`openEngine('clickhouse', 'linguistic'): ${CLICKHOUSE_HAS_NO_COLLATION}.`);
  const client = createClient({
    url: engineUrl('clickhouseUrl'),
    // 18.16 knows neither compressed requests from this client nor newer settings; keep it plain.
    compression: { request: false, response: false },
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
    json: { parse: JSON.parse, stringify: clickhouseJson },
  });
  return {
    name: 'clickhouse',
    collation,
    exec: async (sql) => void (await client.command({ query: sql })),
    query: async (sql, parameters) => {
      if (parameters.length > 0) {
        throw new Error(
          `ClickHouse 18.16 has no server-side bound parameters, and this session never writes values into SQL text; ` +
            `got ${parameters.length} parameter(s) for: ${sql.slice(0, 200)}`,
        );
      }
      const result = await client.query({ query: sql, format: 'JSONEachRow' });
      return result.json<Record<string, unknown>>();
    },
    insertData: async (quotedTable, rows) => {
      await client.insert({ table: quotedTable, values: rows as Record<string, unknown>[], format: 'JSONEachRow' });
    },
    close: () => client.close(),
  };
}

const OPENERS: Readonly<Record<EngineName, (collation: Collation) => EngineSession | Promise<EngineSession>>> = {
  sqlite: openSqlite,
  postgres: openPostgres,
  mysql: openMysql,
  duckdb: openDuckdb,
  clickhouse: openClickhouse,
};

/**
 * Opens a session on one engine, with the engine's default collation or a linguistic one
 * ({@link LINGUISTIC}; ClickHouse has none and throws).
 *
 * @internal
 */
export async function openEngine(name: EngineName, collation: Collation = 'default'): Promise<EngineSession> {
  return OPENERS[name](collation);
}
