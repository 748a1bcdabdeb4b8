/**
 * API keys and their unit balances. Only a SHA-256 of each key is stored. A charge is one
 * conditional UPDATE, so concurrent calls can neither lose nor double one.
 *
 * @module
 * @internal
 */
import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { ChargeResult, KeyConfig, StoredKey } from '../store.js';

/**
 * The SHA-256 of a key, as stored and compared.
 *
 * @example
 * ```ts
 * hashKey('secret').length; // 32
 * ```
 */
export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** Stores configured keys; a known id keeps its balance and takes the new key. @internal */
export function upsertKeys(db: Database, keys: readonly KeyConfig[]): void {
  const insert = db.prepare(
    `INSERT INTO api_keys (id, key_hash, units_remaining) VALUES (?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET key_hash = excluded.key_hash`,
  );
  db.transaction(() => {
    for (const key of keys) insert.run(key.id, hashKey(key.key), key.units);
  })();
}

/** Every stored key. @internal */
export function storedKeys(db: Database): StoredKey[] {
  const rows = db.prepare('SELECT id, key_hash, units_remaining FROM api_keys ORDER BY id').all() as {
    id: string;
    key_hash: Buffer;
    units_remaining: number;
  }[];
  return rows.map((row) => ({ id: row.id, keyHash: row.key_hash, units: row.units_remaining }));
}

/** Takes units from a balance only when it covers them. @internal */
export function charge(db: Database, keyId: string, units: number): ChargeResult {
  const updated = db
    .prepare('UPDATE api_keys SET units_remaining = units_remaining - ? WHERE id = ? AND units_remaining >= ? RETURNING units_remaining')
    .get(units, keyId, units) as { units_remaining: number } | undefined;
  if (updated) return { ok: true, remaining: updated.units_remaining };
  return { ok: false, remaining: balance(db, keyId) ?? 0 };
}

/** The balance of a key. @internal */
export function balance(db: Database, keyId: string): number | undefined {
  const row = db.prepare('SELECT units_remaining FROM api_keys WHERE id = ?').get(keyId) as { units_remaining: number } | undefined;
  return row?.units_remaining;
}
