/**
 * Loading the packages backlink-query does not always need, so that a missing one becomes a
 * message naming what to install, not a bare `ERR_MODULE_NOT_FOUND`:
 *
 * - the optional peers of two entry points: `backlink-query/kysely` needs kysely and
 *   `backlink-query/testing` needs fast-check (the application's own copy);
 * - the optional dependencies ({@link OPTIONAL_DEPENDENCIES}): the server's and the stores'
 *   packages (`src/server/deps.ts`) and the MCP SDK (`src/mcp/deps.ts`).
 *
 * An ES module cannot catch a missing static import: linking fails before any of its code runs.
 * So each entry imports its peer from an `optional-peer.ts` that loads it with a top-level
 * `await import()`. CommonJS has no top-level await: the CommonJS build swaps in the twin
 * `optional-peer.cjs.ts`, which loads it with `require()` (the plugin in tsup.config.ts).
 *
 * @module
 * @internal
 */
import { errorBrand } from './shared/brand.js';
import { lazy } from './shared/lazy.js';

/**
 * The packages that come with backlink-query as `optionalDependencies` (package.json; a test
 * compares the two): the server's, its stores' and the MCP command's. npm installs them with the
 * package, so `npx backlink-query serve` and `npx backlink-query mcp` work from the registry;
 * `npm install --omit=optional`, or a failed install of one of them, leaves them out, and a
 * client-only application never loads them.
 *
 * @internal
 */
export const OPTIONAL_DEPENDENCIES: readonly string[] = [
  '@duckdb/node-api',
  '@fastify/cors',
  '@modelcontextprotocol/sdk',
  'better-sqlite3',
  'fastify',
  'fastify-plugin',
  // Not loaded by us: a pin of Fastify's own dependency (~6.6). light-my-request 6.8 needs cookie 2,
  // which asks for Node 22; npm leaves out an optional dependency whose tree fails an engines
  // check, so on Node 20 Fastify would silently not be installed. Fastify finds this copy first.
  'light-my-request',
  'pg',
  'tldts',
];

/** Options of {@link MissingDependencyError}. */
export interface MissingDependencyOptions {
  /** The error the failed load threw. */
  readonly cause?: unknown;
  /** The `backlink-query` command that needs the packages (`serve`), for the `npx` line of the message. */
  readonly command?: string;
}

/**
 * Thrown when an optional package is missing; its message names the npm command to run and, for a
 * command of the CLI, the `npx` command that runs it with the package. The entries
 * `backlink-query/kysely` and `backlink-query/testing`, the server and the MCP command throw it.
 *
 * @example
 * ```ts
 * try { await loadServerDeps(); } catch (error) { if (isMissingDependencyError(error)) console.error(error.message); }
 * ```
 */
export class MissingDependencyError extends Error {
  override readonly name = 'MissingDependencyError';
  /** The packages that could not be loaded. */
  readonly packages: readonly string[];
  /**
   * @param who - what needs the packages, as the message names it (`backlink-query/kysely`)
   * @param packages - the missing packages, in the order to install them
   * @param options - the load's error, and the command that needs them
   */
  constructor(who: string, packages: readonly string[], options: MissingDependencyOptions = {}) {
    const one = packages.length === 1;
    const lines = [`${who} needs ${one ? 'an optional package that is' : 'optional packages that are'} not installed: ${packages.join(', ')}.`];
    if (packages.every((name) => OPTIONAL_DEPENDENCIES.includes(name))) {
      lines.push(
        `backlink-query installs ${one ? 'it as an optional dependency' : 'them as optional dependencies'}; npm install --omit=optional, or a failed install of ${one ? 'it' : 'one of them'} (see npm's log), leaves ${one ? 'it' : 'them'} out.`,
      );
    }
    lines.push(`Install ${one ? 'it' : 'them'} with:`, `  npm install ${packages.join(' ')}`);
    if (options.command !== undefined) lines.push('or, outside a project that has backlink-query installed, with npx:', `  npx -p backlink-query ${packages.map((name) => `-p ${name} `).join('')}backlink-query ${options.command}`);
    super(lines.join('\n'), options.cause === undefined ? undefined : { cause: options.cause });
    this.packages = packages;
    MISSING_DEPENDENCY.mark(this);
  }
}

const MISSING_DEPENDENCY = /* @__PURE__ */ errorBrand<MissingDependencyError>('MissingDependencyError');

/** Whether `value` is a {@link MissingDependencyError}, whichever copy of the package threw it. */
export const isMissingDependencyError = MISSING_DEPENDENCY.is;

/**
 * Memoizes a loader ({@link lazy}), always as a promise: the first call loads, later calls share
 * it; a failed load is forgotten, so that a later call (after the user installed the package)
 * tries again.
 *
 * @internal
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  const get = lazy(load);
  return async () => get();
}

/** Whether `error` says that `name` itself could not be found (ESM or CommonJS). @internal */
export const isMissing = (error: unknown, name: string): boolean =>
  typeof error === 'object' &&
  error !== null &&
  ['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND'].includes(String((error as { code?: unknown }).code)) &&
  String((error as { message?: unknown }).message).includes(name);

/** Loads a package with `import()`; `command`: the CLI command that needs it, for the message's `npx` line. @internal */
export async function importPeer<T>(entry: string, name: string, load: () => Promise<T>, command?: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw isMissing(error, name) ? new MissingDependencyError(entry, [name], { cause: error, ...(command === undefined ? {} : { command }) }) : error;
  }
}

/** Loads a peer with `require()` (the CommonJS build). @internal */
export function requirePeer<T>(entry: string, name: string, load: () => T): T {
  try {
    return load();
  } catch (error) {
    throw isMissing(error, name) ? new MissingDependencyError(entry, [name], { cause: error }) : error;
  }
}
