/**
 * The database of the server's commands: a PostgreSQL URL (`--database-url`, or
 * `BACKLINK_QUERY_DATABASE_URL`) selects the PostgreSQL store; otherwise a SQLite file.
 *
 * @module
 * @internal
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CliIo } from '../../cli/command.js';
import { loadServerDeps, MissingDependencyError, type DomainParser, type ServerDeps } from '../deps.js';
import type { Store } from '../store/store.js';

/** The environment variable naming the database when no option does. @internal */
export const DATABASE_URL_ENV = 'BACKLINK_QUERY_DATABASE_URL';

/** Where the data lives: a PostgreSQL URL or a SQLite file. @internal */
export type StoreLocation = { readonly kind: 'postgres'; readonly url: string } | { readonly kind: 'sqlite'; readonly file: string };

/**
 * The location named by `--database-url`, the environment or `--db`, or a usage error message.
 *
 * @internal
 */
export function storeLocation(options: Readonly<Record<string, string | true>>, env: Readonly<Record<string, string | undefined>>, defaultFile: string): StoreLocation | string {
  const url = typeof options['database-url'] === 'string' ? options['database-url'] : options['db'] === undefined ? env[DATABASE_URL_ENV] : undefined;
  if (url !== undefined && url.trim() !== '') {
    if (/^postgres(ql)?:\/\//i.test(url)) return { kind: 'postgres', url };
    if (/^sqlite:/i.test(url)) return { kind: 'sqlite', file: url.replace(/^sqlite:(\/\/)?/i, '') };
    return `--database-url must be postgres://... (or sqlite:FILE); got ${JSON.stringify(url.replace(/\/\/[^@/]*@/, '//***@'))}.`;
  }
  return { kind: 'sqlite', file: typeof options['db'] === 'string' ? options['db'] : defaultFile };
}

/**
 * Opens (creating and migrating when needed) the store at a location.
 *
 * @internal
 */
export async function openStoreAt(location: StoreLocation, parser: DomainParser): Promise<Store> {
  if (location.kind === 'postgres') {
    const { openPostgresStore } = await import('../store/postgres/postgres-store.js');
    return openPostgresStore({ url: location.url, parser });
  }
  if (location.file !== ':memory:') mkdirSync(dirname(location.file), { recursive: true });
  const { openSqliteStore } = await import('../store/sqlite/sqlite-store.js');
  return openSqliteStore({ file: location.file, parser });
}

/** A location for messages, without a password. @internal */
export const describeLocation = (location: StoreLocation): string =>
  location.kind === 'postgres' ? location.url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@') : location.file;

/**
 * The server's optional packages, or `undefined` after telling the user on stderr what to install.
 *
 * @internal
 */
export async function loadDepsOrExplain(io: Pick<CliIo, 'stderr'>): Promise<ServerDeps | undefined> {
  try {
    return await loadServerDeps();
  } catch (error) {
    if (!(error instanceof MissingDependencyError)) throw error;
    io.stderr.write(`${error.message}\n`);
    return undefined;
  }
}
