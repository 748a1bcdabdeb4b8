/**
 * The units ledger: API keys and their unit balances, behind their own interface ({@link Ledger}),
 * apart from the data the routes read. Every built-in store keeps one in its own database
 * (`store.ledger`, {@link sqlLedger} over the store's connection); a ClickHouse store is given one
 * kept elsewhere (a SQLite file or PostgreSQL). Only a SHA-256 of each key is stored. A charge is
 * one conditional UPDATE, so concurrent calls can neither lose nor double one.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import type { SqlConnection } from './connection.js';
import { sql } from './fragment.js';

/** One API key as configured. */
export interface ApiKeyConfig {
  readonly id: string;
  readonly key: string;
  /** Units granted when the key is first stored; later restarts keep the balance. */
  readonly units: number;
  /** Requests per second (default 10). */
  readonly rate?: number;
  /** Requests at once (default 10). */
  readonly concurrency?: number;
}

/** A stored API key: id, SHA-256 of the key, balance. */
export interface StoredApiKey {
  readonly id: string;
  readonly keyHash: Buffer;
  readonly units: number;
}

/** The result of a charge: the balance after it, or the balance that was too small. */
export type ChargeResult = { readonly ok: true; readonly remaining: number } | { readonly ok: false; readonly remaining: number };

/**
 * Where API keys and their balances live.
 *
 * @example
 * ```ts
 * const ledger = sqlLedger(connection);
 * await ledger.upsertKeys([{ id: 'me', key: 'secret-key', units: 1000 }]);
 * await ledger.charge('me', 45); // { ok: true, remaining: 955 }
 * ```
 */
export interface Ledger {
  /** Stores configured keys: new ids get their units; known ids keep their balance and take the new key. */
  upsertKeys(keys: readonly ApiKeyConfig[]): Promise<void>;
  /** Every stored API key (for authentication). */
  apiKeys(): Promise<StoredApiKey[]>;
  /** Takes `units` from a key's balance atomically, only if the balance covers it. */
  charge(keyId: string, units: number): Promise<ChargeResult>;
  /** The balance of a key (undefined: no such key). */
  balance(keyId: string): Promise<number | undefined>;
  /** Asks the ledger's database a question that reads no table; rejects when it does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The SHA-256 of an API key, as stored and compared.
 *
 * @example
 * ```ts
 * hashKey('secret').length; // 32
 * ```
 */
export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** Options of {@link sqlLedger}. */
export interface SqlLedgerOptions {
  /**
   * Whether the ledger's `close` closes the connection (default true); false for a ledger kept on
   * a store's own connection, which the store closes.
   */
  readonly closeConnection?: boolean;
}

/**
 * The ledger in the `api_keys` table over a SQL connection (SQLite or PostgreSQL).
 *
 * @example
 * ```ts
 * const ledger = sqlLedger(store.connection, { closeConnection: false });
 * ```
 */
export function sqlLedger(connection: SqlConnection, options: SqlLedgerOptions = {}): Ledger {
  const balance = async (keyId: string): Promise<number | undefined> => {
    const [row] = await connection.all<{ units_remaining: number | string }>(sql`SELECT units_remaining FROM api_keys WHERE id = ${keyId}`);
    return row === undefined ? undefined : Number(row.units_remaining);
  };
  return {
    upsertKeys: async (keys) => {
      await connection.transaction(
        keys.map(
          (key) => sql`INSERT INTO api_keys (id, key_hash, units_remaining) VALUES (${key.id}, ${hashKey(key.key)}, ${key.units})
            ON CONFLICT (id) DO UPDATE SET key_hash = excluded.key_hash`,
        ),
      );
    },
    apiKeys: async () => {
      const rows = await connection.all<{ id: string; key_hash: Uint8Array; units_remaining: number | string }>(
        sql`SELECT id, key_hash, units_remaining FROM api_keys ORDER BY id`,
      );
      return rows.map((row) => ({ id: row.id, keyHash: Buffer.from(row.key_hash), units: Number(row.units_remaining) }));
    },
    charge: async (keyId, units) => {
      const [updated] = await connection.write<{ units_remaining: number | string }>(
        sql`UPDATE api_keys SET units_remaining = units_remaining - ${units} WHERE id = ${keyId} AND units_remaining >= ${units} RETURNING units_remaining`,
      );
      if (updated) return { ok: true, remaining: Number(updated.units_remaining) };
      return { ok: false, remaining: (await balance(keyId)) ?? 0 };
    },
    balance,
    ping: async () => {
      await connection.all(sql`SELECT 1 AS one`);
    },
    close: async () => {
      if (options.closeConnection !== false) await connection.close();
    },
  };
}
