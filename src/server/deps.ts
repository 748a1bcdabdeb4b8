/**
 * The server's heavy dependencies (Fastify, better-sqlite3, tldts) are optional peers: users who
 * only want the filter language or the client never install them. They are loaded here, with
 * dynamic `import()`, and a missing one becomes a message that says exactly what to install.
 *
 * @module
 */
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import type { Server } from 'node:http';
import type BetterSqlite3 from 'better-sqlite3';
import { isMissing, MissingDependencyError } from '../peers.js';

export { MissingDependencyError };
/** What the server's messages about missing packages call it. @internal */
export const SERVER = 'The backlink-query server';

/** The subset of tldts the server uses. @internal */
export interface DomainParser {
  getDomain(host: string): string | null;
}

/** The loaded optional peers. @internal */
export interface ServerDeps {
  readonly fastify: (options?: FastifyHttpOptions<Server>) => FastifyInstance;
  readonly Database: typeof BetterSqlite3;
  readonly tldts: DomainParser;
}

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

let loaded: Promise<ServerDeps> | undefined;

/**
 * Loads Fastify, better-sqlite3 and tldts once; throws {@link MissingDependencyError} naming
 * every missing package.
 *
 * @example
 * ```ts
 * const { fastify } = await loadServerDeps();
 * ```
 */
export function loadServerDeps(): Promise<ServerDeps> {
  loaded ??= loadAll().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

async function loadAll(): Promise<ServerDeps> {
  const missing: string[] = [];
  const fastifyModule = await tryImport<{ default: ServerDeps['fastify'] }>('fastify', missing);
  const sqliteModule = await tryImport<{ default: typeof BetterSqlite3 }>('better-sqlite3', missing);
  const tldtsModule = await tryImport<DomainParser>('tldts', missing);
  if (missing.length > 0 || !fastifyModule || !sqliteModule || !tldtsModule) throw new MissingDependencyError(SERVER, missing);
  return { fastify: fastifyModule.default, Database: sqliteModule.default, tldts: tldtsModule };
}
