/**
 * The WHERE condition that selects a target's links for its scope (see docs/operations.md).
 * SUBFOLDER uses ranges rather than LIKE so that `%` and `_` in paths mean themselves and the
 * (target_host, target_path) index serves it.
 *
 * @module
 * @internal
 */
import type { Target } from '../../target.js';
import { sql, type Fragment } from '../fragment.js';

/** The scope condition on the links table aliased `l`. */
export function scopeCondition(target: Target): Fragment {
  switch (target.scope) {
    case 'ROOT_DOMAIN':
      return sql`l.target_domain = ${target.domain}`;
    case 'SUBDOMAIN':
      return sql`l.target_host = ${target.host}`;
    case 'PAGE':
      return sql`(l.target_host = ${target.host} AND l.target_path = ${target.path})`;
    case 'SUBFOLDER':
      return folderCondition(target.host, target.folder);
  }
}

/** The folder itself, anything below it (`/`), and the folder with a query (`?`). */
function folderCondition(host: string, folder: string): Fragment {
  if (folder === '') return sql`l.target_host = ${host}`;
  // '0' and '@' are the characters right after '/' and '?' in code-point order.
  return sql`(l.target_host = ${host} AND (l.target_path = ${folder}
    OR (l.target_path >= ${`${folder}/`} AND l.target_path < ${`${folder}0`})
    OR (l.target_path >= ${`${folder}?`} AND l.target_path < ${`${folder}@`})))`;
}
