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

/**
 * Thrown when an optional peer is missing; its message names the npm command to run.
 *
 * @example
 * ```ts
 * try { await loadServerDeps(); } catch (error) { if (error instanceof MissingDependencyError) console.error(error.message); }
 * ```
 */
export class MissingDependencyError extends Error {
  override readonly name = 'MissingDependencyError';
  /** The packages that could not be loaded. */
  readonly packages: readonly string[];
  constructor(packages: readonly string[]) {
    super(
      `The backlink-query server needs optional packages that are not installed: ${packages.join(', ')}.\n` +
        `Install them with:\n  npm install ${packages.join(' ')}`,
    );
    this.packages = packages;
  }
}

const isMissing = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && ['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND'].includes(String((error as { code?: unknown }).code));

async function tryImport<T>(name: string, missing: string[]): Promise<T | undefined> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    if (isMissing(error)) {
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
  if (missing.length > 0 || !fastifyModule || !sqliteModule || !tldtsModule) throw new MissingDependencyError(missing);
  return { fastify: fastifyModule.default, Database: sqliteModule.default, tldts: tldtsModule };
}
