/**
 * API keys and their unit balances, and keyword metrics. Only a SHA-256 of each key is stored. A
 * charge is one conditional UPDATE, so concurrent calls can neither lose nor double one.
 *
 * @module
 * @internal
 */
import type { RowOf } from '../../catalogue/types.js';
import { hashKey, normalizeKeyword } from './shared.js';
import type { ChargeResult, KeyConfig, KeywordQuery, StoredKey } from './store.js';
import type { SqlConnection } from './connection.js';
import { sql } from './fragment.js';
import type { ReadPlace } from './reads/relations.js';

/** Stores configured keys; a known id keeps its balance and takes the new key. @internal */
export async function upsertKeys(connection: SqlConnection, keys: readonly KeyConfig[]): Promise<void> {
  await connection.transaction(
    keys.map(
      (key) => sql`INSERT INTO api_keys (id, key_hash, units_remaining) VALUES (${key.id}, ${hashKey(key.key)}, ${key.units})
        ON CONFLICT (id) DO UPDATE SET key_hash = excluded.key_hash`,
    ),
  );
}

/** Every stored key. @internal */
export async function storedKeys(connection: SqlConnection): Promise<StoredKey[]> {
  const rows = await connection.all<{ id: string; key_hash: Uint8Array; units_remaining: number | string }>(
    sql`SELECT id, key_hash, units_remaining FROM api_keys ORDER BY id`,
  );
  return rows.map((row) => ({ id: row.id, keyHash: Buffer.from(row.key_hash), units: Number(row.units_remaining) }));
}

/** Takes units from a balance only when it covers them. @internal */
export async function charge(connection: SqlConnection, keyId: string, units: number): Promise<ChargeResult> {
  const [updated] = await connection.write<{ units_remaining: number | string }>(
    sql`UPDATE api_keys SET units_remaining = units_remaining - ${units} WHERE id = ${keyId} AND units_remaining >= ${units} RETURNING units_remaining`,
  );
  if (updated) return { ok: true, remaining: Number(updated.units_remaining) };
  return { ok: false, remaining: (await balance(connection, keyId)) ?? 0 };
}

/** The balance of a key. @internal */
export async function balance(connection: SqlConnection, keyId: string): Promise<number | undefined> {
  const [row] = await connection.all<{ units_remaining: number | string }>(sql`SELECT units_remaining FROM api_keys WHERE id = ${keyId}`);
  return row === undefined ? undefined : Number(row.units_remaining);
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
 * The metrics of a keyword in a country and month, from the month's latest snapshot; arrays are
 * stored as JSON text.
 *
 * @example
 * ```ts
 * (await keywordMetrics({ connection, sources: SQL_SOURCES }, { keyword: 'seo', country: 'US', month: '2026-05' }))?.search_volume;
 * ```
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
