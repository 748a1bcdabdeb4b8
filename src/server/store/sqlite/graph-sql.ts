/**
 * Operations over the domain graph: the score profile of a target's referring domains,
 * competitors by referring-domain overlap (Jaccard), and the matrix of domains by target.
 *
 * @module
 * @internal
 */
import type { Database } from 'better-sqlite3';
import type { RowOf } from '../../../catalogue/types.js';
import type { CompetitorsQuery, MatrixQuery, RowsResult } from '../store.js';
import type { Target } from '../../target.js';
import { filterCondition, matrixCountColumn } from './filter-sql.js';
import { ident, join, raw, sql, type Fragment } from './fragment.js';
import { runList } from './run-list.js';
import { scopeCondition } from './scope-sql.js';

/** Least shared referring domains, and least similarity, for a competitor to be listed. @internal */
export const COMPETITOR_MIN_COMMON = 5;
/** @internal */
export const COMPETITOR_MIN_SIMILARITY = 0.01;

/**
 * Referring domains of a target counted by their domain score, ascending; no row for an empty score.
 *
 * @example
 * ```ts
 * scoreProfile(db, target); // [{ domain_score: 0, domains_count: 3 }, ...]
 * ```
 */
export function scoreProfile(db: Database, target: Target): RowOf<'score-profile'>[] {
  const query = sql`SELECT coalesce(d.domain_score, 0) AS domain_score, count(*) AS domains_count
    FROM (SELECT DISTINCT l.source_domain FROM links l WHERE ${scopeCondition(target)}) r
    LEFT JOIN domains d ON d.domain = r.source_domain
    GROUP BY 1 ORDER BY 1 ASC`;
  return db.prepare(query.sql).all(...query.params) as RowOf<'score-profile'>[];
}

/**
 * Competitors of a domain: every other target domain sharing referring domains with it, with
 * similarity = |R(t) ∩ R(c)| / |R(t) ∪ R(c)| over registrable-domain targets.
 *
 * @example
 * ```ts
 * competitors(db, { domain: 'example.com', page }).rows[0]; // { domain, similarity, common_refdomains }
 * ```
 */
export function competitors(db: Database, query: CompetitorsQuery): RowsResult<RowOf<'competitors'>> {
  const rows = sql`WITH mine AS (SELECT DISTINCT source_domain FROM links WHERE target_domain = ${query.domain}),
      size AS (SELECT count(*) AS n FROM mine),
      overlap AS (SELECT l.target_domain AS domain, count(DISTINCT l.source_domain) AS common
        FROM mine JOIN links l ON l.source_domain = mine.source_domain
        WHERE l.target_domain <> ${query.domain} GROUP BY l.target_domain),
      theirs AS (SELECT l.target_domain AS domain, count(DISTINCT l.source_domain) AS n
        FROM links l WHERE l.target_domain IN (SELECT domain FROM overlap) GROUP BY l.target_domain)
    SELECT o.domain AS _key, o.domain AS domain,
      CAST(o.common AS REAL) / (size.n + t.n - o.common) AS similarity, o.common AS common_refdomains
    FROM overlap o JOIN theirs t ON t.domain = o.domain, size`;
  const where = sql`common_refdomains >= ${COMPETITOR_MIN_COMMON} AND similarity >= ${COMPETITOR_MIN_SIMILARITY}`;
  const result = runList(db, rows, where, query.page);
  return { total: result.total, rows: result.rows.map(({ domain, similarity, common_refdomains }) => ({ domain, similarity, common_refdomains }) as RowOf<'competitors'>) };
}

/**
 * The matrix: each domain linking to at least one target, with its backlinks to each target in
 * request order and the number of targets it links to.
 *
 * @example
 * ```ts
 * matrix(db, { targets, page, filter: null }).rows[0].backlinks_counts; // [3, 0]
 * ```
 */
export function matrix(db: Database, query: MatrixQuery): RowsResult<RowOf<'matrix'>> {
  const conditions = query.targets.map(scopeCondition);
  const counts = conditions.map((condition, i) => sql`coalesce(sum(${condition}), 0) AS ${ident(matrixCountColumn(i + 1))}`);
  const names = query.targets.map((_, i) => raw(ident(matrixCountColumn(i + 1)).sql));
  const matches = join(names.map((name) => sql`(${name} > 0)`), ' + ');
  const grouped = sql`SELECT l.source_domain AS _key, l.source_domain AS domain,
      coalesce(min(d.domain_score), 0) AS domain_score, coalesce(min(d.ip_address), '') AS ip_address,
      coalesce(min(d.country), '') AS country, ${join(counts, ', ')}
    FROM links l LEFT JOIN domains d ON d.domain = l.source_domain
    WHERE ${join(conditions.map((c) => sql`(${c})`), ' OR ')} GROUP BY l.source_domain`;
  const rows: Fragment = sql`SELECT g.*, ${matches} AS matches_count FROM (${grouped}) g`;
  const result = runList(db, rows, filterCondition(query.filter, 'matrix'), query.page);
  return {
    total: result.total,
    rows: result.rows.map((row) => ({
      domain: row['domain'] as string,
      domain_score: row['domain_score'] as number,
      ip_address: row['ip_address'] as string,
      country: row['country'] as string,
      matches_count: row['matches_count'] as number,
      backlinks_counts: query.targets.map((_, i) => row[matrixCountColumn(i + 1)] as number),
    })),
  };
}
