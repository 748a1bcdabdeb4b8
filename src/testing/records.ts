/**
 * fast-check arbitraries for the records of the filterable operations, full of the values that
 * make SQL engines disagree: empty strings, `%`, `_`, quotes, backslashes, comment markers, mixed
 * case, strings that differ only in case or trailing spaces, combining marks, characters of
 * U+E000-U+FFFF next to astral ones (UTF-16 order and code point order disagree there), timestamps
 * sharing prefixes, integers at their bounds, booleans.
 *
 * Text never holds U+0000 (PostgreSQL's `text` cannot store it, so no engine could hold such a
 * record) nor lone surrogates (not encodable in UTF-8). Integers stay in 0..2^53-1: the service
 * returns JSON numbers, exact as doubles up to 2^53-1, and a `BIGINT` column holds them all.
 *
 * @module
 */
import type { Arbitrary } from 'fast-check';
import { fc } from './optional-peer.js';
import { MAX_MATRIX_TARGETS, operations, type FilterableOperation } from '../catalogue/operations.js';
import type { FieldType } from '../catalogue/records.js';
import type { RowOf } from '../catalogue/types.js';

/** Options of {@link recordArbitrary}. */
export interface RecordArbitraryOptions {
  /** Matrix only: the number of targets, 1-6 (length of `backlinks_counts`); default: any. */
  readonly targets?: number;
}

/** Options of {@link datasetArbitrary}. */
export interface DatasetArbitraryOptions extends RecordArbitraryOptions {
  readonly minRows?: number;
  readonly maxRows?: number;
}

/** Literal values a filter generator can draw from, so comparisons hit real values. */
export interface ValuePools {
  /** Distinct values of each field, in first-seen order; `backlinks_counts` holds every element. */
  readonly fields: Readonly<Record<string, readonly (string | number | boolean)[]>>;
  /** Distinct string and timestamp values of every field. */
  readonly strings: readonly string[];
  /** Distinct integer and number values of every field, array elements included. */
  readonly numbers: readonly number[];
}

/** Text fragments that trip engines: wildcards, escapes, quotes, comments, case, padding. @internal */
const EDGE_FRAGMENTS = [
  '', '%', '_', '%_', '\\', '\\%', '\\_', "'", "''", '"', '`', '[', ']', '--', '/*', '*/', ';', '?', '$1', ':a',
  ' ', '  ', '\t', '\n', 'a', 'A', 'b', 'B', 'z', 'Z', 'ab', 'AB', 'aB', 'seo', 'SEO', 'Seo', 'example.com', 'EXAMPLE.COM',
  'ß', 'ss', 'SS', 'é', 'e\u0301', 'É', 'İ', 'ı', 'i', 'I', 'ä', 'Ä', 'ﬁ', 'Ａ', '\u2126', '\u03a9', 'я', 'Я', '日本', '中',
  '\u00a0', '\u00ff', '\u0100', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uf8ff', '\ufb01', '\ufeff', '\ufffd', '\ufffe', '\uffff',
  '\u{10000}', '\u{1f600}', '\u{1f601}', '\u{10ffff}', '~', '\u007f', '0', '9', '-', '.', '/', ':',
] as const;

/** Whole values worth having as they are. @internal */
const EDGE_STRINGS = [
  '', ' ', '%', '_', '%%', 'a_b', 'a%b', 'a\\b', "it's", 'say "hi"', "x' OR '1'='1", 'x; DROP TABLE t; --', '/* c */',
  'abc', 'abc ', 'abc  ', 'ABC', 'Abc', ' abc', 'abd', 'ab', 'abc\t', '\uffff', '\u{10000}', '\ue000x', '\u{1f600}x',
] as const;

const fragment = fc.constantFrom(...EDGE_FRAGMENTS);

/** Any text value: an edge value, or a few fragments glued together. @internal */
export const textArbitrary: Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
  { weight: 3, arbitrary: fc.array(fragment, { minLength: 0, maxLength: 4 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }).filter((s) => !s.includes('\u0000')) },
);

const two = (n: number): string => String(n).padStart(2, '0');

/** A valid `YYYY-MM-DDTHH:MM:SS`, years at the edges and dense around 2024. @internal */
export const timestampArbitrary: Arbitrary<string> = fc
  .record({
    year: fc.constantFrom(1, 999, 1999, 2000, 2023, 2024, 2024, 2025, 9999),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.constantFrom(1, 1, 2, 9, 10, 28, 29, 30, 31),
    hour: fc.constantFrom(0, 0, 1, 9, 10, 12, 23),
    minute: fc.constantFrom(0, 0, 1, 30, 59),
    second: fc.constantFrom(0, 0, 1, 30, 59),
  })
  .map(({ year, month, day, hour, minute, second }) => {
    const last = new Date(Date.UTC(2000 + (year % 400), month, 0)).getUTCDate(); // same leap rule, 400-year cycle
    const date = `${String(year).padStart(4, '0')}-${two(month)}-${two(Math.min(day, last))}`;
    return `${date}T${two(hour)}:${two(minute)}:${two(second)}`;
  });

const BIG = [2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53 - 1] as const;

/** Integers by what the field holds: scores 0-100, HTTP codes, or counts up to 2^53-1. @internal */
function integerArbitrary(field: string): Arbitrary<number> {
  if (field.endsWith('_score')) return fc.oneof(fc.constantFrom(0, 1, 49, 50, 51, 99, 100), fc.integer({ min: 0, max: 100 }));
  if (field === 'response_code') return fc.constantFrom(0, 200, 201, 301, 302, 404, 410, 500, 503);
  return fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 10 }) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 2 ** 31 - 1 }) },
    { weight: 1, arbitrary: fc.constantFrom(...BIG) },
  );
}

/** Doubles where the field is `number` (0-1 similarity): exact and inexact decimals. @internal */
const numberArbitrary: Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, 0.1, 0.2, 0.3, 0.5, 1 / 3, 0.7, 0.9999999, 1),
  fc.double({ min: 0, max: 1, noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x)),
);

/** Case and padding variants of a value: the near-duplicates engines conflate. @internal */
export function textVariants(value: string): string[] {
  const flip = [...value].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  return [value, value.toUpperCase(), value.toLowerCase(), flip, `${value} `, `${value}  `, value.trimEnd(), `${value}\t`];
}

/** Timestamps that share a prefix with `value`, one part changed. @internal */
export function timestampVariants(value: string): string[] {
  const bump = (start: number, end: number, max: number) =>
    value.slice(0, start) + two((Number(value.slice(start, end)) + 1) % (max + 1)) + value.slice(end);
  return [value, bump(17, 19, 59), bump(14, 16, 59), bump(11, 13, 23), `${value.slice(0, 10)}T00:00:00`, `${value.slice(0, 8)}01T00:00:00`];
}

/** Per-dataset vocabulary: strings and timestamps that rows share, with their variants. @internal */
interface Vocabulary {
  readonly text: readonly string[];
  readonly timestamps: readonly string[];
}

const vocabularyArbitrary: Arbitrary<Vocabulary> = fc
  .record({ text: fc.array(textArbitrary, { minLength: 1, maxLength: 5 }), timestamps: fc.array(timestampArbitrary, { minLength: 1, maxLength: 3 }) })
  .map(({ text, timestamps }) => ({ text: text.flatMap(textVariants), timestamps: timestamps.flatMap(timestampVariants) }));

/**
 * A value of one field type, drawn from the vocabulary half of the time.
 *
 * @throws TypeError when `type` is not the type of a filterable record field (a list type)
 * @internal
 */
function valueArbitrary(field: string, type: FieldType, vocabulary: Vocabulary | undefined): Arbitrary<unknown> {
  const shared = <T>(own: Arbitrary<T>, pool: readonly T[] | undefined): Arbitrary<T> =>
    pool && pool.length > 0 ? fc.oneof(own, fc.constantFrom(...pool)) : own;
  switch (type) {
    case 'string':
      return shared(textArbitrary, vocabulary?.text);
    case 'timestamp':
      return shared(timestampArbitrary, vocabulary?.timestamps);
    case 'integer':
      return integerArbitrary(field);
    case 'number':
      return numberArbitrary;
    case 'boolean':
      return fc.boolean();
    default:
      throw new TypeError(`${field}: ${type} is not a record field of a filterable operation`);
  }
}

/** Matrix counts: mostly zero (not linked), some small, some at the bounds. @internal */
const countArbitrary = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom(...BIG) },
);

function rowArbitrary<Op extends FilterableOperation>(operation: Op, targets: number, vocabulary?: Vocabulary): Arbitrary<RowOf<Op>> {
  const record = operations[operation].record as Readonly<Record<string, { readonly type: FieldType }>>;
  const shape: Record<string, Arbitrary<unknown>> = {};
  for (const [name, spec] of Object.entries(record)) {
    if (spec.type === 'integer[]') shape[name] = fc.array(countArbitrary, { minLength: targets, maxLength: targets });
    else if (name !== 'matches_count') shape[name] = valueArbitrary(name, spec.type, vocabulary);
  }
  return fc.record(shape).map((row) => {
    // Keep the record's key order (CSV order) and derive matches_count from the counts.
    const counts = row.backlinks_counts as number[] | undefined;
    const entries = Object.keys(record).map((name) => [name, name === 'matches_count' ? counts?.filter((n) => n > 0).length : row[name]]);
    return Object.fromEntries(entries) as RowOf<Op>;
  });
}

const targetsArbitrary = (targets: number | undefined): Arbitrary<number> =>
  targets === undefined ? fc.integer({ min: 1, max: MAX_MATRIX_TARGETS }) : fc.constant(checkTargets(targets));

function checkTargets(targets: number): number {
  if (!Number.isInteger(targets) || targets < 1 || targets > MAX_MATRIX_TARGETS) {
    throw new RangeError(`targets must be an integer from 1 to ${MAX_MATRIX_TARGETS}, got ${targets}`);
  }
  return targets;
}

/**
 * Rows of one filterable operation's record, every field filled (text may be empty, never null).
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { recordArbitrary } from 'backlink-query/testing';
 * const [row] = fc.sample(recordArbitrary('matrix', { targets: 3 }), 1);
 * row.backlinks_counts.length; // 3; row.matches_count counts its non-zero elements
 * ```
 */
export function recordArbitrary<Op extends FilterableOperation>(operation: Op, options: RecordArbitraryOptions = {}): Arbitrary<RowOf<Op>> {
  return targetsArbitrary(options.targets).chain((targets) => rowArbitrary(operation, targets));
}

/**
 * A dataset: rows of one operation that share text and timestamps, with case, padding and prefix
 * variants of each other, so filters meet equal values and near misses. Matrix rows of one
 * dataset all have the same number of targets.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { datasetArbitrary, valuePools } from 'backlink-query/testing';
 * fc.assert(fc.property(datasetArbitrary('ref-domains', { minRows: 1, maxRows: 30 }), (rows) => {
 *   return valuePools(rows).strings.length > 0;
 * }));
 * ```
 */
export function datasetArbitrary<Op extends FilterableOperation>(operation: Op, options: DatasetArbitraryOptions = {}): Arbitrary<RowOf<Op>[]> {
  const { minRows = 0, maxRows = 40 } = options;
  return fc
    .tuple(targetsArbitrary(options.targets), vocabularyArbitrary)
    .chain(([targets, vocabulary]) =>
      // size 'max': lengths spread over the whole range, not fast-check's small default.
      fc.array(rowArbitrary(operation, targets, vocabulary), { minLength: minRows, maxLength: maxRows, size: 'max' }),
    );
}

/**
 * The distinct values a set of rows holds, per field and per kind, for a filter generator to draw
 * literals from.
 *
 * @example
 * ```ts
 * valuePools([{ domain: 'a.com', domain_score: 5 }]);
 * // { fields: { domain: ['a.com'], domain_score: [5] }, strings: ['a.com'], numbers: [5] }
 * ```
 */
export function valuePools(rows: readonly Readonly<Record<string, unknown>>[]): ValuePools {
  const fields = new Map<string, Set<string | number | boolean>>();
  const strings = new Set<string>();
  const numbers = new Set<number>();
  for (const row of rows) {
    for (const [name, value] of Object.entries(row)) {
      const set = fields.get(name) ?? new Set();
      fields.set(name, set);
      for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
        if (typeof item === 'string') strings.add(item);
        else if (typeof item === 'number') numbers.add(item);
        else if (typeof item !== 'boolean') continue;
        set.add(item);
      }
    }
  }
  return {
    fields: Object.fromEntries([...fields].map(([name, set]) => [name, [...set]])),
    strings: [...strings],
    numbers: [...numbers],
  };
}
