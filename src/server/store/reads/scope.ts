/**
 * The WHERE condition that selects a target's links for its scope (see docs/operations.md).
 * SUBFOLDER uses ranges rather than LIKE so that `%` and `_` in paths mean themselves and the
 * (target_host, target_path) index serves it.
 *
 * @module
 * @internal
 */
import type { Target } from '../../target.js';
import { raw, sql, type Fragment } from '../fragment.js';

/** The scope condition on the links table aliased `l`. */
export function scopeCondition(target: Target): Fragment {
  return condition(target, false);
}

/**
 * The same condition, where a SUBFOLDER below the host first keeps the one range its paths lie in:
 * a column store tests that while it scans (and skips by it), and only those rows against each
 * range of the folder.
 */
export function rangedScopeCondition(target: Target): Fragment {
  return condition(target, true);
}

function condition(target: Target, ranged: boolean): Fragment {
  switch (target.scope) {
    case 'ROOT_DOMAIN':
      return sql`l.target_domain = ${target.domain}`;
    case 'SUBDOMAIN':
      return sql`l.target_host = ${target.host}`;
    case 'PAGE':
      return sql`(l.target_host = ${target.host} AND l.target_path = ${target.path})`;
    case 'SUBFOLDER':
      return folderCondition(target.host, target.folder, ranged);
  }
}

/** The folder itself, anything below it (`/`), and the folder with a query (`?`). */
function folderCondition(host: string, folder: string, ranged: boolean): Fragment {
  if (folder === '') return sql`l.target_host = ${host}`;
  return sql`(l.target_host = ${host} AND ${below('l.target_path', folder, ranged)})`;
}

/**
 * `column` is `start`, or starts with `start/` or `start?`: ranges, in code-point order ('0' and
 * '@' are the characters right after '/' and '?'); `ranged`: within the one range from `start` to
 * `start@` first, which holds all three.
 */
function below(column: string, start: string, ranged: boolean): Fragment {
  const c = raw(column);
  const each = sql`(${c} = ${start} OR (${c} >= ${`${start}/`} AND ${c} < ${`${start}0`}) OR (${c} >= ${`${start}?`} AND ${c} < ${`${start}@`}))`;
  return ranged ? sql`${c} >= ${start} AND ${c} < ${`${start}@`} AND ${each}` : each;
}

/**
 * The condition on a rollup table aliased `r` that keeps the rows of the pages (`p:` keys) of a
 * SUBFOLDER target below its host: a page key is `p:` + host + path, a host has no `/` and a path
 * starts with one, so the key starts with `p:` + host + folder exactly when the link's host is the
 * target's and its path is in the folder.
 */
export function folderPageKeys(target: Target): Fragment {
  return sql`(${below('r.tkey', `p:${target.host}${target.folder}`, true)})`;
}
