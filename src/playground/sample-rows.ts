/**
 * The sample rows the playground evaluates a filter on, without a server: generated
 * deterministically (the same rows on every load, in every browser) from the operation's record in
 * the catalogue, one value per field by its type. Strings are drawn from small pools chosen by the
 * shape of the field's name (`…_url`, `domain`, `ip_address`, `country`, `lang`, other text) so the
 * rows look like the service's; the pools hold the cases filters trip on (an empty string, mixed
 * case, `%` and `_` in text).
 *
 * @module
 * @internal
 */
import { MAX_MATRIX_TARGETS, operations, type FilterableOperation } from '../catalogue/operations.js';
import type { FieldType } from '../catalogue/records.js';
import type { Row } from '../evaluate/row.js';
import { seededRandom } from '../testing/random.js';

/** How many sample rows each operation gets. @internal */
export const SAMPLE_ROW_COUNT = 12;

const POOLS = {
  url: ['https://alpha.org/post-1', 'https://www.beta.net/blog/seo-tips', 'http://gamma.io/review', 'https://delta.de/a_b%20c', 'https://example.com/', ''],
  domain: ['alpha.org', 'beta.net', 'blog.gamma.io', 'delta.de', 'Example.com', 'epsilon.fr'],
  ip: ['198.51.100.1', '198.51.100.7', '203.0.113.5', '192.0.2.44', '192.0.2.45'],
  country: ['US', 'DE', 'FR', 'UK', 'NL', ''],
  lang: ['en', 'de', 'fr', 'es'],
  text: ['Example', 'seo tips', 'SEO Tools 2026', 'click here', '', '50% off_today', 'Über uns'],
} as const;

type Pool = keyof typeof POOLS;

/** The pool of a string field, by the shape of its name. */
function poolOf(name: string): Pool {
  if (name.endsWith('_url')) return 'url';
  if (name === 'domain' || name.endsWith('_domain')) return 'domain';
  if (name.startsWith('ip_')) return 'ip';
  if (name === 'country') return 'country';
  if (name === 'lang') return 'lang';
  return 'text';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A timestamp between 2023-01-01 and 2026-06-14, as the service writes them (`YYYY-MM-DDTHH:MM:SS`). */
function timestamp(next: () => number): string {
  const start = Date.UTC(2023, 0, 1);
  const end = Date.UTC(2026, 5, 14);
  const d = new Date(start + Math.floor(next() * (end - start) / 1000) * 1000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

function integer(name: string, next: () => number): number {
  if (name.endsWith('_score')) return Math.floor(next() * 101);
  if (name.endsWith('_code')) return [200, 200, 200, 301, 404, 500][Math.floor(next() * 6)]!;
  // Counts and sizes: mostly small, now and then large.
  return Math.floor(next() ** 3 * 5000);
}

function valueOf(name: string, type: FieldType, next: () => number, targets: number): unknown {
  switch (type) {
    case 'string': {
      const pool = POOLS[poolOf(name)];
      return pool[Math.floor(next() * pool.length)]!;
    }
    case 'timestamp':
      return timestamp(next);
    case 'integer':
      return integer(name, next);
    case 'number':
      return Math.round(next() * 100) / 100;
    case 'boolean':
      return next() < 0.35;
    case 'integer[]':
      return Array.from({ length: targets }, () => Math.floor(next() ** 2 * 40));
    case 'string[]':
      return [];
  }
}

/**
 * The sample rows of an operation: {@link SAMPLE_ROW_COUNT} records with every field of its record,
 * the same on every call. For matrix, `backlinks_counts` has one element per target.
 *
 * @example
 * ```ts
 * sampleRows('links')[0]?.domain_score; // an integer 0-100, the same on every load
 * sampleRows('matrix', 3)[0]?.backlinks_counts; // three integers
 * ```
 * @internal
 */
export function sampleRows(operation: FilterableOperation, targets: number = MAX_MATRIX_TARGETS): Row[] {
  const record = operations[operation].record;
  // One seed per operation, so switching operations does not shift the others' rows.
  const next = seededRandom([...operation].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261));
  return Array.from({ length: SAMPLE_ROW_COUNT }, () =>
    Object.fromEntries(Object.entries(record).map(([name, spec]) => [name, valueOf(name, spec.type, next, targets)])),
  );
}
