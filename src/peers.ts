/**
 * The optional peers of two entry points: `backlink-query/kysely` needs kysely and
 * `backlink-query/testing` needs fast-check. Each entry loads its peer itself, so that a missing
 * one becomes a message naming what to install (as the server's peers do, `src/server/deps.ts`),
 * not a bare `ERR_MODULE_NOT_FOUND`. The server's peers (`src/server/deps.ts`) throw the same error.
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
 * Thrown when an optional peer is missing; its message names the npm command to run. The
 * entries `backlink-query/kysely` and `backlink-query/testing` and the server throw it.
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
  /**
   * @param who - what needs the packages, as the message names it (`backlink-query/kysely`)
   * @param packages - the missing packages, in the order to install them
   * @param cause - the error the failed load threw
   */
  constructor(who: string, packages: readonly string[], cause?: unknown) {
    const one = packages.length === 1;
    super(
      `${who} needs ${one ? 'an optional package that is' : 'optional packages that are'} not installed: ${packages.join(', ')}.\n` +
        `Install ${one ? 'it' : 'them'} with:\n  npm install ${packages.join(' ')}`,
      cause === undefined ? undefined : { cause },
    );
    this.packages = packages;
  }
}

/** Whether `error` says that `name` itself could not be found (ESM or CommonJS). @internal */
export const isMissing = (error: unknown, name: string): boolean =>
  typeof error === 'object' &&
  error !== null &&
  ['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND'].includes(String((error as { code?: unknown }).code)) &&
  String((error as { message?: unknown }).message).includes(name);

/** Loads a peer with `import()` (the ESM build). @internal */
export async function importPeer<T>(entry: string, name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw isMissing(error, name) ? new MissingDependencyError(entry, [name], error) : error;
  }
}

/** Loads a peer with `require()` (the CommonJS build). @internal */
export function requirePeer<T>(entry: string, name: string, load: () => T): T {
  try {
    return load();
  } catch (error) {
    throw isMissing(error, name) ? new MissingDependencyError(entry, [name], error) : error;
  }
}
