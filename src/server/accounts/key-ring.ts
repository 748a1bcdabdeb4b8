/**
 * Authentication: `Authorization: Apikey <key>`, or `?key=<key>` on the query string as the real
 * service also takes it (the header wins when both are given). Keys are compared by their SHA-256 with
 * `timingSafeEqual`, against every stored key without stopping early, so the time taken says
 * nothing about which key or how much of it matched.
 *
 * @module
 */
import { timingSafeEqual } from 'node:crypto';
import { hashKey, type StoredApiKey } from '../store/ledger.js';

const SCHEME = /^Apikey ([^\s]+)$/;

/**
 * The keys a server accepts.
 *
 * @example
 * ```ts
 * const ring = new KeyRing(await ledger.apiKeys());
 * ring.authenticate('Apikey secret'); // 'demo' (the key id) or undefined
 * ```
 */
export class KeyRing {
  readonly #keys: readonly StoredApiKey[];
  constructor(keys: readonly StoredApiKey[]) {
    this.#keys = keys;
  }

  /**
   * The id of the key presented by an Authorization header value, else by a `key` query value; or
   * undefined.
   */
  authenticate(header: string | undefined, queryKey?: string): string | undefined {
    const match = header === undefined ? null : SCHEME.exec(header);
    const presentedKey = header !== undefined ? match?.[1] : queryKey;
    // Hash even when nothing usable was presented, so every path costs the same.
    const presented = hashKey(presentedKey ?? '');
    let found: string | undefined;
    for (const key of this.#keys) {
      if (timingSafeEqual(presented, key.keyHash) && presentedKey !== undefined && presentedKey !== '') found ??= key.id;
    }
    return found;
  }
}
