/**
 * Where API keys come from: a JSON file (`--keys FILE`) or the `BACKLINK_QUERY_KEYS` environment
 * variable, holding either JSON (`[{ "id", "key", "units", "rate", "concurrency" }]`) or the short
 * form `id:key[:units]` separated by commas.
 *
 * @module
 */
import { errorBrand } from '../shared/brand.js';
import type { ApiKeyConfig } from './store/ledger.js';

const KEY_CONFIG_ERROR = /* @__PURE__ */ errorBrand<KeyConfigError>('KeyConfigError');

/**
 * What is wrong in a key configuration: `invalid_json` (text that starts as JSON but does not
 * parse), `not_a_list` (JSON that is neither an array nor `{ "keys": [...] }`), and for one key
 * `not_an_object`, `invalid_id` (missing or empty), `invalid_key` (shorter than 8 characters, or
 * with white space), `invalid_units` (not a non-negative integer).
 */
export type KeyConfigErrorCode = 'invalid_json' | 'not_a_list' | 'not_an_object' | 'invalid_id' | 'invalid_key' | 'invalid_units';

/**
 * A key configuration (`--keys`, `BACKLINK_QUERY_KEYS`) that cannot be used: user input, with
 * the place of the problem (`key`, the 1-based position of the key at fault) and a stable `code`.
 *
 * @example
 * ```ts
 * try { parseKeys('ci:short'); } catch (error) { if (isKeyConfigError(error)) console.log(error.key, error.code); } // 1 'invalid_key'
 * ```
 */
export class KeyConfigError extends Error {
  override readonly name = 'KeyConfigError';
  /** What is wrong. */
  readonly code: KeyConfigErrorCode;
  /** The 1-based position of the key at fault; `undefined` when the whole configuration is. */
  readonly key: number | undefined;
  constructor(code: KeyConfigErrorCode, message: string, key?: number, options?: { cause?: unknown }) {
    super(key === undefined ? message : `key ${key}: ${message}`, options);
    this.code = code;
    this.key = key;
    KEY_CONFIG_ERROR.mark(this);
  }
}

/**
 * Whether `value` is a {@link KeyConfigError}, across realms and package copies.
 *
 * @example
 * ```ts
 * isKeyConfigError(new KeyConfigError('invalid_id', 'id is missing.', 2)); // true
 * ```
 */
export function isKeyConfigError(value: unknown): value is KeyConfigError {
  return KEY_CONFIG_ERROR.is(value);
}

/**
 * Units a key gets when its configuration names none.
 *
 * @example
 * ```ts
 * parseKeys('ci:secret-key')[0].units === DEFAULT_KEY_UNITS; // true
 * ```
 */
export const DEFAULT_KEY_UNITS = 10_000_000;

/**
 * Parses a key configuration text (JSON, or the short form).
 *
 * @example
 * ```ts
 * parseKeys('ci:s3cret-key:5000'); // [{ id: 'ci', key: 's3cret-key', units: 5000 }]
 * ```
 *
 * @throws KeyConfigError when the text is not a usable configuration (its message names the key at fault)
 */
export function parseKeys(text: string): ApiKeyConfig[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      throw new KeyConfigError('invalid_json', `Not valid JSON: ${(error as Error).message}`, undefined, { cause: error });
    }
    const list = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown }).keys;
    if (!Array.isArray(list)) throw new KeyConfigError('not_a_list', 'The key configuration must be an array of keys or { "keys": [...] }.');
    return list.map((item: unknown, i) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new KeyConfigError('not_an_object', 'must be an object with an id and a key.', i + 1);
      return checkKey(item as Partial<ApiKeyConfig>, i);
    });
  }
  return trimmed
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part, i) => {
      const [id, key, units] = part.trim().split(':');
      return checkKey({ id, key, units: units === undefined ? undefined : Number(units) }, i);
    });
}

function checkKey(item: Partial<ApiKeyConfig>, index: number): ApiKeyConfig {
  const key = index + 1;
  if (typeof item.id !== 'string' || item.id === '') throw new KeyConfigError('invalid_id', 'id is missing.', key);
  if (typeof item.key !== 'string' || item.key.length < 8 || /\s/.test(item.key)) throw new KeyConfigError('invalid_key', 'key must be at least 8 characters with no white space.', key);
  const units = item.units ?? DEFAULT_KEY_UNITS;
  if (!Number.isSafeInteger(units) || units < 0) throw new KeyConfigError('invalid_units', 'units must be a non-negative integer.', key);
  return { id: item.id, key: item.key, units, ...(item.rate ? { rate: item.rate } : {}), ...(item.concurrency ? { concurrency: item.concurrency } : {}) };
}
