/**
 * Keyword metrics: the latest snapshot of the requested month. Keywords are stored and looked up
 * trimmed and lower-cased; arrays are stored as JSON text.
 *
 * @module
 * @internal
 */
import type { Database } from 'better-sqlite3';
import type { RowOf } from '../../../catalogue/types.js';
import type { KeywordQuery } from '../store.js';

/**
 * The form a keyword is stored and looked up in.
 *
 * @example
 * ```ts
 * normalizeKeyword('  SEO Tools '); // 'seo tools'
 * ```
 */
export function normalizeKeyword(keyword: string): string {
  return keyword.trim().toLowerCase();
}

interface MetricsRow {
  search_volume: string;
  cpc: string;
  competitive_density: number;
  keyword_difficulty: number;
  number_of_results: string;
  intents: string;
  serp_features: string;
  trends: string;
}

/**
 * The metrics of a keyword in a country and month, from the month's latest snapshot.
 *
 * @example
 * ```ts
 * keywordMetrics(db, { keyword: 'seo', country: 'US', month: '2026-05' })?.search_volume;
 * ```
 */
export function keywordMetrics(db: Database, query: KeywordQuery): RowOf<'metrics'> | undefined {
  const row = db
    .prepare(
      `SELECT * FROM keyword_metrics WHERE keyword = ? AND country = ? AND month = ?
       ORDER BY snapshot_at DESC LIMIT 1`,
    )
    .get(normalizeKeyword(query.keyword), query.country, query.month) as MetricsRow | undefined;
  if (!row) return undefined;
  return {
    competitive_density: row.competitive_density,
    cpc: row.cpc,
    intents: JSON.parse(row.intents) as string[],
    keyword_difficulty: row.keyword_difficulty,
    number_of_results: row.number_of_results,
    search_volume: row.search_volume,
    serp_features: JSON.parse(row.serp_features) as string[],
    trends: JSON.parse(row.trends) as number[],
  };
}
