/**
 * The database options the server's commands (`serve`, `seed`, `import`) share: `--db` and
 * `--database-url`, their help lines, and opening the store they name, with a message (not a
 * stack) when a package is missing or the database cannot be reached; and the loads' (`seed`,
 * `import`) `--memory-limit`, and their message when the store cannot do a load.
 *
 * @module
 * @internal
 */
import {
  isMissingDependencyError,
  isStoreError,
  isStoreUnavailable,
  loadDepsFor,
  openStoreAt,
  type DomainParser,
  type Store,
  type StoreErrorCode,
  type StoreLocation,
} from '../../server/index.js';
import { stringOption, UsageError, type OptionTable, type ParsedArgs } from '../args.js';
import { DATABASE_URL_ENV, describeLocation, storeLocation } from './location.js';
import type { CliIo } from '../command.js';
import { DEFAULT_SAMPLE_DB } from './sample.js';

/** The options `--db FILE` and `--database-url URL`. @internal */
export const DATABASE_OPTIONS = { db: { type: 'string' }, 'database-url': { type: 'string' } } as const satisfies OptionTable;

/**
 * The help lines of `--db` and `--database-url`; `db` says what `--db` defaults to.
 *
 * @internal
 */
export function databaseOptionsHelp(db: string | undefined, indent = 23): string {
  const pad = (text: string) => `${' '.repeat(indent)}${text}`;
  const option = (name: string, text: string) => (name.length + 2 < indent ? [`  ${name.padEnd(indent - 2)}${text}`] : [`  ${name}`, pad(text)]);
  return [
    ...option('--db FILE', 'the embedded store: SQLite file FILE and its column file FILE.duckdb'),
    pad(db === undefined ? '(no default: name the database, with this or --database-url)' : `(default ${db})`),
    ...option('--database-url URL', 'instead: postgres://user:password@host:port/database,'),
    pad('clickhouse://host:port[,host:port...]/database[?cluster=NAME&ledger=WHERE]'),
    pad('(a cluster, sharded by target domain), or sqlite:FILE (SQLite alone, no'),
    pad('column file) (default: $BACKLINK_QUERY_DATABASE_URL)'),
  ].join('\n');
}

/**
 * The store the options name, `defaultFile` when they name none (`undefined`: none may be left
 * unnamed); throws {@link UsageError} for a URL of no known kind or a database left unnamed.
 *
 * @internal
 */
export function locationOf(values: ParsedArgs['values'], env: CliIo['env'], defaultFile: string | undefined, command?: string): StoreLocation {
  const db = stringOption(values, 'db');
  const location = storeLocation({ db, 'database-url': stringOption(values, 'database-url') }, env, defaultFile ?? '');
  if (typeof location === 'string') throw new UsageError(location);
  // No default file: the embedded store only when --db names it (no URL was given or set).
  if (defaultFile === undefined && location.kind === 'embedded' && db === undefined) {
    throw new UsageError(
      `name the database to write into: --db FILE (the embedded store, created when missing), --database-url URL, ` +
        `or ${DATABASE_URL_ENV}. ${command ?? 'This command'} never writes into the sample database (${DEFAULT_SAMPLE_DB}) unless named: --db ${DEFAULT_SAMPLE_DB}.`,
    );
  }
  return location;
}

/**
 * The optional packages a command needs at `location`, or `undefined` after telling the user on
 * stderr, in one message, what to install.
 *
 * @internal
 */
export async function loadDepsOrExplain(io: Pick<CliIo, 'stderr'>, command: 'serve' | 'seed' | 'import', location: StoreLocation): Promise<{ readonly tldts: DomainParser } | undefined> {
  try {
    return await loadDepsFor(location, { http: command === 'serve', command });
  } catch (error) {
    if (!isMissingDependencyError(error)) throw error;
    io.stderr.write(`${error.message}\n`);
    return undefined;
  }
}

/**
 * Opens the store for a command, or `undefined` after telling the user on stderr why it cannot be
 * opened now (another process holds the embedded store's column file, the database is down).
 *
 * @internal
 */
export async function openStoreOrExplain(
  io: Pick<CliIo, 'stderr'>,
  location: StoreLocation,
  parser: DomainParser,
  options: { readonly serving?: boolean; readonly memoryLimit?: string } = {},
): Promise<Store | undefined> {
  try {
    return await openStoreAt(location, parser, options);
  } catch (error) {
    if (!isStoreUnavailable(error)) throw error;
    io.stderr.write(`${describeLocation(location)}: ${error.message}\n`);
    return undefined;
  }
}

/** The loads' option `--memory-limit SIZE`. @internal */
export const MEMORY_LIMIT_OPTION = { 'memory-limit': { type: 'string' } } as const satisfies OptionTable;

/** The help lines of `--memory-limit`, for a command that loads (`what`: "the import", "the seed"). @internal */
export const memoryLimitHelp = (what: string): string => `  --memory-limit SIZE  the embedded store's column side (DuckDB) during ${what}, such as 1GB or
                       512MB; past it, its working tables spill to files beside FILE.duckdb
                       (default 512MiB, raised once to 2GiB for domains that need more;
                       at most a quarter of the machine's memory)`;

/** Bytes per unit of a memory size, as DuckDB reads them (KB = 1,000 bytes, KiB = 1,024). */
const MEMORY_UNITS: Readonly<Record<string, number>> = { kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };

/**
 * The smallest `--memory-limit`, below which DuckDB computes next to nothing (what a load took
 * near it: docs/importing.md, section "Large files and interrupted imports").
 */
const MIN_MEMORY_BYTES = 128 * 2 ** 20;

/**
 * The options of a load's store from `--memory-limit`, checked (a size of at least 128 MiB, and the
 * embedded store), as DuckDB takes it: none when it is not given.
 *
 * @internal
 */
export function loadStoreOptions(values: ParsedArgs['values'], kind: StoreLocation['kind']): { readonly memoryLimit?: string } {
  const value = stringOption(values, 'memory-limit');
  if (value === undefined) return {};
  if (kind !== 'embedded') throw new UsageError('--memory-limit is the embedded store\'s (--db FILE): SQLite, PostgreSQL and ClickHouse manage their own memory.');
  const size = /^(\d+(?:\.\d+)?)\s*([KMGT]i?B)$/i.exec(value.trim());
  const bytes = size ? Number(size[1]) * MEMORY_UNITS[size[2]!.toLowerCase()]! : NaN;
  if (!(bytes >= MIN_MEMORY_BYTES)) throw new UsageError(`--memory-limit must be a size of at least 128MiB, such as 512MB, 2GB or 1.5GiB; got ${JSON.stringify(value)}.`);
  return { memoryLimit: `${size![1]}${size![2]}` };
}

/**
 * What to do about a StoreError on the command line, by its code. The store is a library: its
 * message says what is wrong in its own terms, and the command adds the option or command that
 * mends it. `undefined`: nothing to add.
 */
const STORE_ERROR_HINTS: Readonly<Record<StoreErrorCode, string | undefined>> = {
  out_of_memory: 'Give it more: --memory-limit SIZE on import or seed.',
  wrong_layout: 'That is --db FILE, not --database-url sqlite:FILE.',
  read_only: 'Load with import or seed, beside the server: it answers from the new data once the load commits.',
  schema_too_new: 'Open it with the version of backlink-query that wrote it, or a later one.',
  invalid_record: undefined,
};

/**
 * A StoreError's message followed by the command line's hint for its code (the option to use);
 * `undefined` for any other error. The server's commands describe their errors with it.
 *
 * @internal
 */
export function describeStoreError(error: unknown): string | undefined {
  if (!isStoreError(error)) return undefined;
  const hint = STORE_ERROR_HINTS[error.code];
  return hint === undefined ? error.message : `${error.message} ${hint}`;
}

/**
 * A load's error that the store cannot do it (out of memory for the column file, a store opened
 * read-only), said plainly on stderr with the option that mends it, not as a bug: returns `true`;
 * any other error, `false`.
 *
 * @internal
 */
export function explainStoreError(io: Pick<CliIo, 'stderr'>, location: StoreLocation, error: unknown): boolean {
  const description = describeStoreError(error);
  if (description === undefined) return false;
  io.stderr.write(`\n${describeLocation(location)}: ${description}\n`);
  return true;
}
