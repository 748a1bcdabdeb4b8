/**
 * API keys and their unit balances. Only a SHA-256 of each key is stored. A
 * charge is one conditional UPDATE, so concurrent calls can neither lose nor double one.
 *
 * @module
 * @internal
 */
import { hashKey } from './shared.js';
import type { ChargeResult, KeyConfig, Store, StoredKey } from './store.js';
import type { SqlConnection } from './connection.js';
import { sql } from './fragment.js';

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

/** The key functions of a store over a connection (its API keys and balances in the same database). @internal */
export const sqlKeys = (connection: SqlConnection): Pick<Store, 'upsertKeys' | 'keys' | 'charge' | 'balance'> => ({
  upsertKeys: (keys) => upsertKeys(connection, keys),
  keys: () => storedKeys(connection),
  charge: (keyId, units) => charge(connection, keyId, units),
  balance: (keyId) => balance(connection, keyId),
});
