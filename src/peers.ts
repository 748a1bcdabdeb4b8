/**
 * The optional peers of two entry points: `backlink-query/kysely` needs kysely and
 * `backlink-query/testing` needs fast-check. Each entry loads its peer itself, so that a missing
 * one becomes a message naming what to install (as the server's peers do, `src/server/deps.ts`),
 * not a bare `ERR_MODULE_NOT_FOUND`.
 *
 * An ES module cannot catch a missing static import: linking fails before any of its code runs.
 * So each entry imports its peer from an `optional-peer.ts` that loads it with a top-level
 * `await import()`. CommonJS has no top-level await: the CommonJS build swaps in the twin
 * `optional-peer.cjs.ts`, which loads it with `require()` (the plugin in tsup.config.ts).
 *
 * @module
 * @internal
 */

/**
 * Thrown when an entry point's optional peer is missing; its message names the npm command to run.
 * The same name and `packages` as the server's error for its own peers (`src/server/deps.ts`).
 */
export class MissingDependencyError extends Error {
  override readonly name = 'MissingDependencyError';
  /** The packages that could not be loaded. */
  readonly packages: readonly string[];
  constructor(entry: string, name: string, cause: unknown) {
    super(`${entry} needs an optional package that is not installed: ${name}.\nInstall it with:\n  npm install ${name}`, { cause });
    this.packages = [name];
  }
}

/** Whether `error` says that `name` itself could not be found (ESM or CommonJS). */
const isMissing = (error: unknown, name: string): boolean =>
  typeof error === 'object' &&
  error !== null &&
  ['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND'].includes(String((error as { code?: unknown }).code)) &&
  String((error as { message?: unknown }).message).includes(name);

/** Loads a peer with `import()` (the ESM build). @internal */
export async function importPeer<T>(entry: string, name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw isMissing(error, name) ? new MissingDependencyError(entry, name, error) : error;
  }
}

/** Loads a peer with `require()` (the CommonJS build). @internal */
export function requirePeer<T>(entry: string, name: string, load: () => T): T {
  try {
    return load();
  } catch (error) {
    throw isMissing(error, name) ? new MissingDependencyError(entry, name, error) : error;
  }
}
