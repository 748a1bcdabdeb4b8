/**
 * The server's heavy packages (Fastify, better-sqlite3, tldts) are optional dependencies: npm
 * installs them with backlink-query, `npm install --omit=optional` leaves them out, and users who
 * only want the filter language or the client never load them. They are loaded here, with dynamic
 * `import()`, and a missing one becomes a message that says exactly what to install.
 *
 * The stores need better-sqlite3 and tldts ({@link loadStoreDeps}: `seed` and `import` need no
 * more); the HTTP server needs Fastify too ({@link loadServerDeps}).
 *
 * @module
 */
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import type { Server } from 'node:http';
import type BetterSqlite3 from 'better-sqlite3';
import { isMissing, loadOnce, MissingDependencyError, type MissingDependencyOptions } from '../peers.js';

export { MissingDependencyError, type MissingDependencyOptions };
/** What the server's messages about missing packages call it. @internal */
export const SERVER = 'The backlink-query server';

/** The subset of tldts the server uses. @internal */
export interface DomainParser {
  getDomain(host: string): string | null;
}

/** The loaded packages of the stores. @internal */
export interface StoreDeps {
  readonly Database: typeof BetterSqlite3;
  readonly tldts: DomainParser;
}

/** The loaded optional packages of the server. @internal */
export interface ServerDeps extends StoreDeps {
  readonly fastify: (options?: FastifyHttpOptions<Server>) => FastifyInstance;
}

/** Imports `name`, or adds it to `missing` when it is not installed. */
async function tryImport<T>(name: string, missing: string[]): Promise<T | undefined> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    if (isMissing(error, name)) {
      missing.push(name);
      return undefined;
    }
    throw error;
  }
}

/**
 * Loads better-sqlite3 and tldts once; throws {@link MissingDependencyError} naming every missing
 * package.
 *
 * @example
 * ```ts
 * const { Database, tldts } = await loadStoreDeps();
 * ```
 * @internal
 */
export const loadStoreDeps: () => Promise<StoreDeps> = loadOnce(async () => {
  const missing: string[] = [];
  const sqliteModule = await tryImport<{ default: typeof BetterSqlite3 }>('better-sqlite3', missing);
  const tldtsModule = await tryImport<DomainParser>('tldts', missing);
  if (!sqliteModule || !tldtsModule) throw new MissingDependencyError(SERVER, missing);
  return { Database: sqliteModule.default, tldts: tldtsModule };
});

/**
 * Loads Fastify, better-sqlite3 and tldts once; throws {@link MissingDependencyError} naming
 * every missing package.
 *
 * @example
 * ```ts
 * const { fastify } = await loadServerDeps();
 * ```
 */
export const loadServerDeps: () => Promise<ServerDeps> = loadOnce(async () => {
  const missing: string[] = [];
  const fastifyModule = await tryImport<{ default: ServerDeps['fastify'] }>('fastify', missing);
  const store = await loadStoreDeps().catch((error: unknown) => {
    if (!(error instanceof MissingDependencyError)) throw error;
    missing.push(...error.packages);
    return undefined;
  });
  if (!fastifyModule || !store) throw new MissingDependencyError(SERVER, missing);
  return { fastify: fastifyModule.default, ...store };
});
