/**
 * The keyword metrics read: a keyword's metrics in a country and month, from the month's latest
 * snapshot.
 *
 * @module
 * @internal
 */
import type { RowOf } from '../../../catalogue/types.js';
import { normalizeKeyword } from '../inputs.js';
import type { KeywordQuery } from '../store.js';
import { sql } from '../fragment.js';
import type { ReadPlace } from './relations.js';

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
 * The metrics of a keyword in a country and month, from the month's latest snapshot; arrays are
 * stored as JSON text.
 */
export async function keywordMetrics({ connection, sources }: ReadPlace, query: KeywordQuery): Promise<RowOf<'metrics'> | undefined> {
  const [row] = await connection.all<MetricsRow>(
    sql`SELECT k.search_volume, k.cpc, k.competitive_density, k.keyword_difficulty, k.number_of_results, k.intents, k.serp_features, k.trends
      FROM ${sources.keywordMetrics} WHERE k.keyword = ${normalizeKeyword(query.keyword)} AND k.country = ${query.country} AND k.month = ${query.month}
      ORDER BY k.snapshot_at DESC${sources.newestLast} LIMIT 1`,
  );
  if (!row) return undefined;
  return {
    competitive_density: Number(row.competitive_density),
    cpc: row.cpc,
    intents: JSON.parse(row.intents) as string[],
    keyword_difficulty: Number(row.keyword_difficulty),
    number_of_results: row.number_of_results,
    search_volume: row.search_volume,
    serp_features: JSON.parse(row.serp_features) as string[],
    trends: JSON.parse(row.trends) as number[],
  };
}
