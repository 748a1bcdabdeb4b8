/**
 * Connections to the four real SQL engines the differential and injection suites run on, behind
 * one small interface: SQLite (better-sqlite3, in memory), PostgreSQL (pg), MariaDB/MySQL (mysql2,
 * server-side prepared statements) and DuckDB (@duckdb/node-api, in memory). PostgreSQL and
 * MariaDB come from the global setup (`inject('postgresUrl')`, `inject('mysqlUrl')`); a suite
 * that cannot reach one fails, it never skips.
 *
 * @internal
 * @module
 */
import { DuckDBInstance, listValue, type DuckDBValue } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { inject } from 'vitest';

/** The engines, by the name of the SQL dialect they speak. @internal */
export type EngineName = 'sqlite' | 'postgres' | 'mysql' | 'duckdb';
/** Every engine, in the order the suites run them. @internal */
export const ENGINE_NAMES: readonly EngineName[] = ['sqlite', 'postgres', 'mysql', 'duckdb'];

/** One open connection to a real engine. @internal */
export interface EngineSession {
  readonly name: EngineName;
  /** Runs statements without parameters (DDL); several statements are not allowed. */
  exec(sql: string): Promise<void>;
  /** Runs one statement with bound parameters and returns its rows as objects. */
  query(sql: string, parameters: readonly unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/**
 * The URL the global setup provided for a server, or a loud failure naming why it is missing.
 *
 * @internal
 */
export function engineUrl(key: 'postgresUrl' | 'mysqlUrl'): string {
  const url = inject(key);
  if (!url) {
    throw new Error(
      `${key} was not provided: the global setup started no database engine for this run. ` +
        `Put the test file under one of ENGINE_FOLDERS in test/setup/engine-selection.ts, or run with BQ_ENGINES=always.`,
    );
  }
  return url;
}

function openSqlite(): EngineSession {
  const db = new Database(':memory:');
  return {
    name: 'sqlite',
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

async function openPostgres(): Promise<EngineSession> {
  const client = new pg.Client({ connectionString: engineUrl('postgresUrl') });
  await client.connect();
  return {
    name: 'postgres',
    exec: async (sql) => void (await client.query(sql)),
    query: async (sql, parameters) => (await client.query(sql, parameters as unknown[])).rows as Record<string, unknown>[],
    close: () => client.end(),
  };
}

async function openMysql(): Promise<EngineSession> {
  // `execute` sends the statement and the values separately (server-side prepared statements);
  // `query` would splice escaped values into the text on the client, which proves nothing.
  const connection = await mysql.createConnection({ uri: engineUrl('mysqlUrl'), charset: 'utf8mb4_general_ci' });
  return {
    name: 'mysql',
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

async function openDuckdb(): Promise<EngineSession> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  return {
    name: 'duckdb',
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

const OPENERS: Readonly<Record<EngineName, () => EngineSession | Promise<EngineSession>>> = {
  sqlite: openSqlite,
  postgres: openPostgres,
  mysql: openMysql,
  duckdb: openDuckdb,
};

/**
 * Opens a session on one engine.
 *
 * @internal
 */
export async function openEngine(name: EngineName): Promise<EngineSession> {
  return OPENERS[name]();
}
