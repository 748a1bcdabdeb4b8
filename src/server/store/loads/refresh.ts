/**
 * The rollup refresh, one pipeline for every engine: the domains to refresh (every domain with
 * links, for a rebuild), then group after group of them, each group's links read once, grouped into
 * every rollup row of its domains (`rollupRows` in JavaScript, or the same rows in SQL where the
 * column engine groups, `engines/duckdb/rollups.ts`) and stored; the engine says how large a group
 * is, where the grouping runs and how its rows are stored (a transaction per domain, versions that
 * readers switch to, tables set aside and moved into place).
 *
 * @module
 * @internal
 */

/** One engine's steps of the refresh. */
export interface RefreshSteps {
  /** Every registrable domain with links, sorted. */
  allDomains(): Promise<string[]>;
  /**
   * Before the first group: clears what the refresh replaces (every rollup when `all`); returns the
   * domains in the order the groups take them.
   */
  begin(domains: readonly string[], all: boolean): Promise<readonly string[]>;
  /**
   * Computes and stores the rollups of the next group of `domains`, from index `from`; returns the
   * index the next group starts at. `counted(done)` tells how many domains are done so far.
   */
  group(domains: readonly string[], from: number, counted: (done: number) => void): Promise<number>;
  /** After the last group: what the groups set aside, put in place. */
  end(domains: readonly string[], counted: (done: number) => void): Promise<void>;
}

/** Brings the rollups of `domains` (`'all'`: every one, from scratch) up to date from their links. */
export async function refreshRollups(steps: RefreshSteps, domains: readonly string[] | 'all', onProgress?: (done: number, total: number) => void): Promise<void> {
  const all = domains === 'all';
  const list = await steps.begin(all ? await steps.allDomains() : [...domains].sort(), all);
  const counted = (done: number) => onProgress?.(done, list.length);
  for (let at = 0; at < list.length; ) at = await steps.group(list, at, counted);
  await steps.end(list, counted);
}
