/**
 * Where a store lives and how to open it: the PostgreSQL store at a URL, the ClickHouse store on a
 * cluster (its keys and balances in a PostgreSQL database or a SQLite file), the SQLite store alone,
 * or the embedded store (the SQLite file `FILE` and its column file `FILE.duckdb`). How the command
 * line names them (`--db`, `--database-url`) is the CLI's (`src/cli/server/location.ts`).
 *
 * @module
 * @internal
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { isMissingDependencyError } from '../../peers.js';
import { loadParser, loadServerDeps, loadStoreDeps, MissingDependencyError, SERVER, type DomainParser } from '../deps.js';
import { loadDuckdb } from './engines/duckdb/connection.js';
import { loadPg } from './engines/postgres/connection.js';
import type { Ledger } from './ledger.js';
import type { Store } from './store.js';

/** Where the data lives: a PostgreSQL URL, an embedded store's file, a SQLite file alone, or a ClickHouse cluster. @internal */
export type StoreLocation =
  | { readonly kind: 'postgres'; readonly url: string }
  | { readonly kind: 'embedded'; readonly file: string }
  | { readonly kind: 'sqlite'; readonly file: string }
  | ClickhouseLocation;

/** A ClickHouse cluster and the ledger of its keys. @internal */
export interface ClickhouseLocation {
  readonly kind: 'clickhouse';
  readonly url: string;
  readonly shards: readonly string[];
  readonly database: string;
  readonly cluster: string;
  readonly ledger: string;
  /** The links of a domain past which a load spreads them over every shard (`spread_above`). */
  readonly spreadAbove?: number;
  readonly user?: string;
  readonly password?: string;
}

/**
 * Opens (creating and migrating when needed) the store at a location; `serving`: for a server,
 * which writes only its ledger (the embedded store's column file is then opened read-only);
 * `memoryLimit`: DuckDB's memory limit for the embedded store's column file (such as `'1GB'`;
 * other stores have none).
 *
 * @internal
 */
export async function openStoreAt(location: StoreLocation, parser: DomainParser, options: { readonly serving?: boolean; readonly memoryLimit?: string } = {}): Promise<Store> {
  if (location.kind === 'postgres') {
    const { openPostgresStore } = await import('./engines/postgres/postgres-store.js');
    return openPostgresStore({ url: location.url, parser });
  }
  if (location.kind === 'clickhouse') {
    const { openClickhouseStore } = await import('./engines/clickhouse/clickhouse-store.js');
    const ledger = await openLedgerAt(ledgerOf(location), parser);
    try {
      return await openClickhouseStore({
        urls: location.shards,
        database: location.database,
        cluster: location.cluster,
        parser,
        ledger,
        ...(location.spreadAbove === undefined ? {} : { spreadAbove: location.spreadAbove }),
        ...(location.user === undefined ? {} : { user: location.user }),
        ...(location.password === undefined ? {} : { password: location.password }),
      });
    } catch (error) {
      await ledger.close();
      throw error;
    }
  }
  if (location.file !== ':memory:') mkdirSync(dirname(location.file), { recursive: true });
  if (location.kind === 'embedded') {
    const { openEmbeddedStore } = await import('./engines/embedded/embedded-store.js');
    // A server reads the column file, which other servers may read too; loads write it.
    return openEmbeddedStore({
      file: location.file,
      parser,
      ...(options.serving ? { readOnly: true } : {}),
      ...(options.memoryLimit === undefined ? {} : { columns: { memoryLimit: options.memoryLimit } }),
    });
  }
  const { openSqliteStore } = await import('./engines/sqlite/sqlite-store.js');
  return openSqliteStore({ file: location.file, parser, ...(options.serving ? { serving: true } : {}) });
}

/**
 * Opens (creating and migrating when needed) a ledger kept on its own, in the SQLite file or the
 * PostgreSQL database at `location` (as a ClickHouse store's `ledger=` names it); its `close`
 * closes that database. (`parser`: the store's own, unused by the ledger; default tldts.)
 *
 * @example
 * ```ts
 * const ledger = await openLedgerAt({ kind: 'sqlite', file: '.backlink-query/ledger.db' });
 * ```
 * @internal
 */
export async function openLedgerAt(location: LedgerLocation, parser?: DomainParser): Promise<Ledger> {
  const store = await openStoreAt(location, parser ?? (await loadParser()));
  const { ledger } = store;
  return {
    upsertKeys: (keys) => ledger.upsertKeys(keys),
    apiKeys: () => ledger.apiKeys(),
    charge: (keyId, units) => ledger.charge(keyId, units),
    balance: (keyId) => ledger.balance(keyId),
    ping: () => ledger.ping(),
    close: () => store.close(),
  };
}

/** Where a ledger kept on its own lives: a PostgreSQL database or a SQLite file. @internal */
export type LedgerLocation = Extract<StoreLocation, { readonly kind: 'postgres' | 'sqlite' }>;

/** Whether a URL (a store's, or a ClickHouse store's `ledger`) names PostgreSQL. @internal */
export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//i.test(url);

/** Where a ClickHouse store keeps its keys and balances: a PostgreSQL database or a SQLite file. */
const ledgerOf = (location: ClickhouseLocation): LedgerLocation =>
  isPostgresUrl(location.ledger) ? { kind: 'postgres', url: location.ledger } : { kind: 'sqlite', file: location.ledger };

/** The order packages are named in, in a message about several. */
const INSTALL_ORDER = ['fastify', 'fastify-plugin', '@fastify/cors', 'better-sqlite3', 'tldts', '@duckdb/node-api', 'pg'];

/**
 * The optional packages that serving (`http`) or loading a store at `location` needs, loaded once;
 * throws one {@link MissingDependencyError} naming every missing package: every store needs tldts,
 * the HTTP server Fastify and its plugins, a SQLite file (the embedded and SQLite stores, a
 * ClickHouse store's default ledger) better-sqlite3, the embedded store DuckDB, and a PostgreSQL
 * database (or ledger) pg; nothing else. `command`: the command named in the message's `npx` line.
 *
 * @internal
 */
export async function loadDepsFor(location: StoreLocation, options: { readonly http: boolean; readonly command?: string }): Promise<{ readonly tldts: DomainParser }> {
  const missing = new Set<string>();
  const load = async <T>(what: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await what();
    } catch (error) {
      if (!isMissingDependencyError(error)) throw error;
      for (const name of error.packages) missing.add(name);
      return undefined;
    }
  };
  // A ClickHouse store needs what its ledger's store needs.
  const kinds = new Set([location.kind, ...(location.kind === 'clickhouse' ? [ledgerOf(location).kind] : [])]);
  if (options.http) await load(loadServerDeps);
  if (kinds.has('embedded') || kinds.has('sqlite')) await load(loadStoreDeps);
  const tldts = await load(loadParser);
  if (kinds.has('embedded')) await load(loadDuckdb);
  if (kinds.has('postgres')) await load(loadPg);
  if (tldts !== undefined && missing.size === 0) return { tldts };
  const named = [...missing].sort((a, b) => INSTALL_ORDER.indexOf(a) - INSTALL_ORDER.indexOf(b));
  throw new MissingDependencyError(SERVER, named, options.command === undefined ? {} : { command: options.command });
}
