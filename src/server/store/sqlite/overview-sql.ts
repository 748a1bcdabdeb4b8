/**
 * Overview counts and the target's own score.
 *
 * @module
 * @internal
 */
import type { Database } from 'better-sqlite3';
import type { RowOf } from '../../../catalogue/types.js';
import type { Clock } from '../store.js';
import type { Target } from '../../target.js';
import { sql } from './fragment.js';
import { scopeCondition } from './scope-sql.js';

/**
 * The overview record of a target.
 *
 * @example
 * ```ts
 * overview(db, target, clock).backlinks_count;
 * ```
 */
export function overview(db: Database, target: Target, clock: Clock): RowOf<'overview'> {
  const query = sql`SELECT count(*) AS backlinks_count,
      count(DISTINCT l.source_domain) AS domains_count,
      count(DISTINCT l.source_url) AS urls_count,
      coalesce(sum(l.is_nofollow = 0), 0) AS follows_count,
      coalesce(sum(l.is_nofollow), 0) AS nofollows_count,
      coalesce(sum(l.is_sponsored), 0) AS sponsored_count,
      coalesce(sum(l.is_ugc), 0) AS ugc_count,
      coalesce(sum(l.is_frame), 0) AS frames_count,
      coalesce(sum(l.is_form), 0) AS forms_count,
      coalesce(sum(l.is_image), 0) AS images_count,
      coalesce(sum(l.is_image = 0), 0) AS texts_count,
      count(DISTINCT l.ip_address) AS ips_count,
      count(DISTINCT l.ip_class_c) AS ip_class_c_count,
      coalesce(sum(l.first_seen_at >= ${clock.newSince}), 0) AS new_count,
      coalesce(sum(l.is_lost), 0) AS lost_count
    FROM links l WHERE ${scopeCondition(target)}`;
  const counts = db.prepare(query.sql).get(...query.params) as Omit<RowOf<'overview'>, 'score'>;
  return { ...counts, score: targetScore(db, target) };
}

/**
 * The target's score: the page score for PAGE, else the domain score of the host (falling back
 * to the registrable domain), or of the registrable domain for ROOT_DOMAIN; 0 when unknown.
 *
 * @example
 * ```ts
 * targetScore(db, target); // 57
 * ```
 */
export function targetScore(db: Database, target: Target): number {
  if (target.scope === 'PAGE') {
    const page = db.prepare('SELECT page_score FROM target_pages WHERE host = ? AND path = ?').get(target.host, target.path) as
      | { page_score: number }
      | undefined;
    return page?.page_score ?? 0;
  }
  const names = target.scope === 'ROOT_DOMAIN' ? [target.domain] : [target.host, target.domain];
  const lookup = db.prepare('SELECT domain_score FROM domains WHERE domain = ?');
  for (const name of names) {
    const row = lookup.get(name) as { domain_score: number } | undefined;
    if (row) return row.domain_score;
  }
  return 0;
}
