/**
 * Where a store lives and how to open it, as the `serve`, `seed` and `import` commands name it: a PostgreSQL URL (`--database-url`, or
 * `BACKLINK_QUERY_DATABASE_URL`) selects the PostgreSQL store, a `clickhouse://` URL the
 * ClickHouse store on a cluster, `sqlite:FILE` the SQLite store alone; otherwise (`--db FILE`, or
 * nothing) the embedded store: the SQLite file `FILE` and its column file `FILE.duckdb`.
 *
 * `clickhouse://[user[:password]@]host:port[,host:port...][/database][?cluster=NAME&ledger=WHERE]`
 * names each shard's HTTP address (the first is the entry point), the database (default
 * `backlinks`), the cluster of the servers' `remote_servers` (default `bq_cluster`), and where API
 * keys and balances live: a PostgreSQL URL or a SQLite file (default `.backlink-query/ledger.db`).
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

/** The environment variable naming the database when no option does. @internal */
export const DATABASE_URL_ENV = 'BACKLINK_QUERY_DATABASE_URL';

/** Where the data lives: a PostgreSQL URL, an embedded store's file, a SQLite file alone, or a ClickHouse cluster. @internal */
export type StoreLocation =
  | { readonly kind: 'postgres'; readonly url: string }
  | { readonly kind: 'embedded'; readonly file: string }
  | { readonly kind: 'sqlite'; readonly file: string }
  | ClickhouseLocation;

/** The files of a store on this machine (the embedded store's SQLite file and its column file), for `--force` and messages. @internal */
export function filesOf(location: StoreLocation): string[] {
  if (location.kind === 'embedded') return [location.file, `${location.file}-wal`, `${location.file}-shm`, `${location.file}.duckdb`, `${location.file}.duckdb.wal`];
  if (location.kind === 'sqlite') return [location.file, `${location.file}-wal`, `${location.file}-shm`];
  return [];
}

/** A ClickHouse cluster and the ledger of its keys. @internal */
export interface ClickhouseLocation {
  readonly kind: 'clickhouse';
  readonly url: string;
  readonly shards: readonly string[];
  readonly database: string;
  readonly cluster: string;
  readonly ledger: string;
  readonly user?: string;
  readonly password?: string;
}

/** The default ledger of a ClickHouse store. @internal */
export const DEFAULT_LEDGER = '.backlink-query/ledger.db';

const CLICKHOUSE_URL = /^clickhouse:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?@]+)(?:\/([^?]*))?(?:\?(.*))?$/i;

/** A `clickhouse://` URL as a location, or a usage error message. @internal */
export function clickhouseLocation(url: string): ClickhouseLocation | string {
  const match = CLICKHOUSE_URL.exec(url);
  const shown = JSON.stringify(url.replace(/\/\/[^@/]*@/, '//***@'));
  if (!match) return `--database-url clickhouse://host:port[,host:port...][/database] expected; got ${shown}.`;
  const [, user, password, hosts, database, query] = match;
  const shards = hosts!.split(',').map((host) => host.trim());
  if (shards.some((host) => !/^[^\s:]+:\d+$/.test(host))) return `--database-url: each ClickHouse shard is host:port (its HTTP port); got ${shown}.`;
  const params = new URLSearchParams(query ?? '');
  const name = database === undefined || database === '' ? 'backlinks' : decodeURIComponent(database);
  const cluster = params.get('cluster') ?? 'bq_cluster';
  for (const [what, value] of [['database', name], ['cluster', cluster]] as const) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) return `--database-url: the ClickHouse ${what} must be letters, digits and _; got ${JSON.stringify(value)}.`;
  }
  return {
    kind: 'clickhouse',
    url,
    shards: shards.map((host) => `http://${host}`),
    database: name,
    cluster,
    ledger: params.get('ledger') ?? DEFAULT_LEDGER,
    ...(user ? { user: decodeURIComponent(user) } : {}),
    ...(password ? { password: decodeURIComponent(password) } : {}),
  };
}

/** What names a store on the command line: `--database-url` and `--db`. @internal */
export interface StoreOptions {
  readonly 'database-url'?: string | undefined;
  readonly db?: string | undefined;
}

/**
 * The location named by `--database-url`, the environment or `--db`, or a usage error message.
 *
 * @internal
 */
export function storeLocation(options: StoreOptions, env: Readonly<Record<string, string | undefined>>, defaultFile: string): StoreLocation | string {
  const url = options['database-url'] ?? (options.db === undefined ? env[DATABASE_URL_ENV] : undefined);
  if (url !== undefined && url.trim() !== '') {
    if (isPostgresUrl(url)) return { kind: 'postgres', url };
    if (/^sqlite:/i.test(url)) return { kind: 'sqlite', file: url.replace(/^sqlite:(\/\/)?/i, '') };
    if (/^clickhouse:\/\//i.test(url)) return clickhouseLocation(url);
    return `--database-url must be postgres://..., clickhouse://... or sqlite:FILE; got ${JSON.stringify(url.replace(/\/\/[^@/]*@/, '//***@'))}.`;
  }
  return { kind: 'embedded', file: options.db ?? defaultFile };
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
  return openSqliteStore({ file: location.file, parser });
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

/** A location for messages, without a password. @internal */
export const describeLocation = (location: StoreLocation): string =>
  location.kind === 'sqlite' ? `sqlite:${location.file}` : location.kind === 'embedded' ? location.file : location.url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

/** Whether a `--database-url` (or a ClickHouse store's `ledger`) names PostgreSQL. */
const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//i.test(url);

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
