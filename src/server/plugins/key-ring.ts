/**
 * Authentication: `Authorization: Apikey <key>`. Keys are compared by their SHA-256 with
 * `timingSafeEqual`, against every stored key without stopping early, so the time taken says
 * nothing about which key or how much of it matched.
 *
 * @module
 */
import { timingSafeEqual } from 'node:crypto';
import { hashKey } from '../store/shared.js';
import type { StoredKey } from '../store/store.js';

const SCHEME = /^Apikey ([^\s]+)$/;

/**
 * The keys a server accepts.
 *
 * @example
 * ```ts
 * const ring = new KeyRing(await store.keys());
 * ring.authenticate('Apikey secret'); // 'demo' (the key id) or undefined
 * ```
 */
export class KeyRing {
  readonly #keys: readonly StoredKey[];
  constructor(keys: readonly StoredKey[]) {
    this.#keys = keys;
  }

  /** The id of the key in an Authorization header value, or undefined. */
  authenticate(header: string | undefined): string | undefined {
    const match = header === undefined ? null : SCHEME.exec(header);
    // Hash even when the header is malformed, so both paths cost the same.
    const presented = hashKey(match?.[1] ?? '');
    let found: string | undefined;
    for (const key of this.#keys) {
      if (timingSafeEqual(presented, key.keyHash) && match) found ??= key.id;
    }
    return found;
  }
}
