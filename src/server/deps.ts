/**
 * The server's heavy packages (Fastify and its plugins, better-sqlite3, tldts) are optional
 * dependencies: npm installs them with backlink-query, `npm install --omit=optional` leaves them
 * out, and users who only want the filter language or the client never load them. They are loaded
 * here, with dynamic `import()`, and a missing one becomes a message that says exactly what to
 * install.
 *
 * Every store reads domains with tldts ({@link loadParser}); the SQLite file of the embedded and
 * SQLite stores (and of a ClickHouse store's default ledger) needs better-sqlite3 too
 * ({@link loadStoreDeps}); the HTTP server needs Fastify, fastify-plugin and @fastify/cors and
 * tldts ({@link loadServerDeps}), whatever its store.
 *
 * @module
 */
import { createRequire } from 'node:module';
import type { FastifyHttpOptions, FastifyInstance, FastifyPluginAsync, FastifyPluginOptions } from 'fastify';
import type FastifyCors from '@fastify/cors';
import type FastifyPlugin from 'fastify-plugin';
import type { Server } from 'node:http';
import type BetterSqlite3 from 'better-sqlite3';
import { isMissing, isMissingDependencyError, loadOnce, MissingDependencyError, type MissingDependencyOptions } from '../peers.js';

export { isMissingDependencyError, MissingDependencyError, type MissingDependencyOptions };
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

/** The loaded optional packages of the HTTP server (its store's are loaded by the store). @internal */
export interface ServerDeps {
  readonly tldts: DomainParser;
  readonly fastify: (options?: FastifyHttpOptions<Server>) => FastifyInstance;
  /** @fastify/cors: the CORS headers and the preflight answer (`plugins/cors.ts`). */
  readonly cors: typeof FastifyCors;
}

/**
 * Imports `name`, or adds it to `missing` when it is not installed. A package that fails because
 * one already in `missing` is (@fastify/cors needs fastify-plugin) is not named again.
 */
async function tryImport<T>(name: string, missing: string[]): Promise<T | undefined> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    if (isMissing(error, name)) {
      missing.push(name);
      return undefined;
    }
    if (missing.some((other) => isMissing(error, other))) return undefined;
    throw error;
  }
}

/**
 * Loads tldts once, which every store and the server read domains with; throws
 * {@link MissingDependencyError} when it is missing.
 *
 * @internal
 */
export const loadParser: () => Promise<DomainParser> = loadOnce(async () => {
  const missing: string[] = [];
  const tldtsModule = await tryImport<DomainParser>('tldts', missing);
  if (!tldtsModule) throw new MissingDependencyError(SERVER, missing);
  return tldtsModule;
});

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
 * Loads Fastify, fastify-plugin, @fastify/cors and tldts once; throws
 * {@link MissingDependencyError} naming every missing package.
 *
 * @example
 * ```ts
 * const { fastify } = await loadServerDeps();
 * ```
 */
export const loadServerDeps: () => Promise<ServerDeps> = loadOnce(async () => {
  const missing: string[] = [];
  const fastifyModule = await tryImport<{ default: ServerDeps['fastify'] }>('fastify', missing);
  // The server's plugins are defined with fastify-plugin when their modules load (serverPlugin,
  // below); it is imported here too, so that a missing copy is named with the others.
  const pluginModule = await tryImport<{ default: typeof FastifyPlugin }>('fastify-plugin', missing);
  const corsModule = await tryImport<{ default: ServerDeps['cors'] }>('@fastify/cors', missing);
  const tldtsModule = await tryImport<DomainParser>('tldts', missing);
  if (!fastifyModule || !pluginModule || !corsModule || !tldtsModule) throw new MissingDependencyError(SERVER, missing);
  return { fastify: fastifyModule.default, cors: corsModule.default, tldts: tldtsModule };
});

/** What {@link serverPlugin} declares of a plugin: its name, and the plugins it needs registered before it. @internal */
export interface ServerPluginMeta {
  readonly name: string;
  readonly dependencies?: readonly string[];
}

/**
 * fastify-plugin, or undefined when it is not installed. The server's plugins are exported values
 * (`backlinkQueryApp`, `validationPlugin`), made when their modules load, before anything
 * asynchronous could run: so this one package is loaded with require(), once, when the first
 * plugin is made (both builds can: tsup shims `import.meta.url` in the CommonJS one).
 */
function requireFastifyPlugin(): typeof FastifyPlugin | undefined {
  if (fastifyPluginLoad) return fastifyPluginLoad.fp;
  try {
    fastifyPluginLoad = { fp: createRequire(import.meta.url)('fastify-plugin') as typeof FastifyPlugin };
  } catch (error) {
    if (!isMissing(error, 'fastify-plugin')) throw error;
    fastifyPluginLoad = { fp: undefined };
  }
  return fastifyPluginLoad.fp;
}
let fastifyPluginLoad: { readonly fp: typeof FastifyPlugin | undefined } | undefined;

/**
 * One of the server's plugins, made with fastify-plugin: Fastify checks its `dependencies` when it
 * is registered (one registered later, or never, fails `ready()` naming both), and its hooks,
 * decorations and handlers apply to the instance that registers it, not to a context of its own.
 * Without fastify-plugin installed, registering it fails with {@link MissingDependencyError}
 * (`loadServerDeps` names it first, with every other missing package).
 *
 * @example
 * ```ts
 * export const guardPlugin = serverPlugin<GuardOptions>(async (fastify, options) => { ... }, { name: 'backlink-query-guard' });
 * ```
 * @internal
 */
export function serverPlugin<Options extends FastifyPluginOptions>(plugin: FastifyPluginAsync<Options>, meta: ServerPluginMeta): FastifyPluginAsync<Options> {
  const fp = requireFastifyPlugin();
  if (!fp) {
    return async () => {
      throw new MissingDependencyError(SERVER, ['fastify-plugin']);
    };
  }
  return fp(plugin, { fastify: '5.x', name: meta.name, dependencies: [...(meta.dependencies ?? [])] });
}
