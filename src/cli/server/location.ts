/**
 * Where a store lives, as the `serve`, `seed` and `import` commands name it: a PostgreSQL URL
 * (`--database-url`, or `BACKLINK_QUERY_DATABASE_URL`) selects the PostgreSQL store, a
 * `clickhouse://` URL the ClickHouse store on a cluster, `sqlite:FILE` the SQLite store alone;
 * otherwise (`--db FILE`, or nothing) the embedded store: the SQLite file `FILE` and its column file
 * `FILE.duckdb`. The server opens a location (`openStoreAt`); naming one is the command line's.
 *
 * `clickhouse://[user[:password]@]host:port[,host:port...][/database][?cluster=NAME&ledger=WHERE&spread_above=N]`
 * names each shard's HTTP address (the first is the entry point, the others in the order of the
 * cluster's shards), the database (default `backlinks`), the cluster of the servers'
 * `remote_servers` (default `bq_cluster`), where API keys and balances live: a PostgreSQL URL or a
 * SQLite file (default `.backlink-query/ledger.db`), and the links of a registrable domain past
 * which a load spreads them over every shard (default 1,000,000; `never`).
 *
 * @module
 * @internal
 */
import { isPostgresUrl, type ClickhouseLocation, type StoreLocation } from '../../server/index.js';

/** The environment variable naming the database when no option does. @internal */
export const DATABASE_URL_ENV = 'BACKLINK_QUERY_DATABASE_URL';

/** The ledger of a ClickHouse store when its URL names none. @internal */
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
  const spread = params.get('spread_above');
  if (spread !== null && spread !== 'never' && !/^[1-9][0-9]{0,11}$/.test(spread)) {
    return `--database-url: spread_above is a number of links (1 or more) or never; got ${JSON.stringify(spread)}.`;
  }
  return {
    kind: 'clickhouse',
    url,
    shards: shards.map((host) => `http://${host}`),
    database: name,
    cluster,
    ledger: params.get('ledger') ?? DEFAULT_LEDGER,
    ...(spread === null ? {} : { spreadAbove: spread === 'never' ? Infinity : Number(spread) }),
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

/** A location for messages, without a password. @internal */
export const describeLocation = (location: StoreLocation): string =>
  location.kind === 'sqlite' ? `sqlite:${location.file}` : location.kind === 'embedded' ? location.file : location.url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

/** The files of a store on this machine (the embedded store's SQLite file and its column file), for `--force` and messages. @internal */
export function filesOf(location: StoreLocation): string[] {
  if (location.kind === 'embedded') return [location.file, `${location.file}-wal`, `${location.file}-shm`, `${location.file}.duckdb`, `${location.file}.duckdb.wal`];
  if (location.kind === 'sqlite') return [location.file, `${location.file}-wal`, `${location.file}-shm`];
  return [];
}

