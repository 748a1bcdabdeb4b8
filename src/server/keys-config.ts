/**
 * Where API keys come from: a JSON file (`--keys FILE`) or the `BACKLINK_QUERY_KEYS` environment
 * variable, holding either JSON (`[{ "id", "key", "units", "rate", "concurrency" }]`) or the short
 * form `id:key[:units]` separated by commas.
 *
 * @module
 */
import type { KeyConfig } from './store/store.js';

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
 * parseKeys('ci:s3cret:5000'); // [{ id: 'ci', key: 's3cret', units: 5000 }]
 * ```
 */
export function parseKeys(text: string): KeyConfig[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    const parsed = JSON.parse(trimmed) as unknown;
    const list = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown }).keys;
    if (!Array.isArray(list)) throw new Error('The key configuration must be an array of keys or { "keys": [...] }.');
    return list.map((item, i) => checkKey(item as Partial<KeyConfig>, i));
  }
  return trimmed
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part, i) => {
      const [id, key, units] = part.trim().split(':');
      return checkKey({ id, key, units: units === undefined ? undefined : Number(units) }, i);
    });
}

function checkKey(item: Partial<KeyConfig>, index: number): KeyConfig {
  const where = `key ${index + 1}`;
  if (typeof item.id !== 'string' || item.id === '') throw new Error(`${where}: id is missing.`);
  if (typeof item.key !== 'string' || item.key.length < 8 || /\s/.test(item.key)) throw new Error(`${where}: key must be at least 8 characters with no white space.`);
  const units = item.units ?? DEFAULT_KEY_UNITS;
  if (!Number.isSafeInteger(units) || units < 0) throw new Error(`${where}: units must be a non-negative integer.`);
  return { id: item.id, key: item.key, units, ...(item.rate ? { rate: item.rate } : {}), ...(item.concurrency ? { concurrency: item.concurrency } : {}) };
}
