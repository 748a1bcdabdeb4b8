/**
 * The matrix from the targets' referring-domain lists: their union by a merge of the lists' domain
 * orders (no join, no GROUP BY, no hashing; rows numbered by domain, which makes the tie-break an
 * integer compare, and which a store may keep per set of targets), the filter run by the package's
 * evaluator (the reference every SQL dialect is proven against), and a top-K of the order. A store that
 * keeps each target's referring domains with their own data (`r_ref_domains`) hands the lists in.
 *
 * The order is the SQL lists' order: the field, then the referring domain ascending, text by code
 * point (`compareCodePoints`).
 *
 * @module
 * @internal
 */
import type { FilterNode } from '../../../ast/nodes.js';
import type { RowOf } from '../../../catalogue/types.js';
import { compilePredicate, compareCodePoints } from '../../../evaluate/index.js';
import type { Page, RowsResult } from '../store.js';
import { topK } from './top-k.js';

/** One target's referring domains, sorted by `domains` by code point (as SQL sorts UTF-8 bytes). */
export interface ReferrerList {
  /** Every text of the list sorts the same by JavaScript's `<` as by code point (no UTF-16 unit at or above U+D800). */
  readonly nativeOrder?: boolean;
  /**
   * The referring domain's integer id: the same domain has the same id in every list (absent: the
   * domains are compared as text, for a store that numbers no domains).
   */
  readonly ids?: Int32Array;
  readonly domains: readonly string[];
  readonly backlinks: Float64Array;
  readonly scores: Float64Array;
  readonly ips: readonly string[];
  readonly countries: readonly string[];
}

/**
 * The union of some targets' lists, unfiltered: one row per referring domain, numbered in the
 * order of their domains (so that the order's tie-break, the domain ascending, is the row number).
 * It depends on the targets alone, not on a call's filter, order or page: a store may keep it.
 */
export interface MatrixUnion {
  readonly lists: readonly ReferrerList[];
  readonly rows: number;
  /** Per row: the list its domain's own data is read from, and the position there. */
  readonly from: Int32Array;
  readonly at: Int32Array;
  /** Per target (request order), per row: the domain's links to it (0: none). */
  readonly counts: readonly Float64Array[];
  readonly matches: Int32Array;
  /** Per row: the domain's score (a copy, for orders by it). */
  readonly scores: Float64Array;
  /** Every text involved sorts the same by `<` as by code point. */
  readonly nativeOrder: boolean;
  /** Without a filter: the first rows (at least {@link PREFIX_ROWS}) in each order asked for, by `orderBy direction`. */
  readonly prefixes: Map<string, readonly number[]>;
}

/** Rows of an unfiltered order a union keeps at least: ten pages of the default limit. */
const PREFIX_ROWS = 1_000;

/** The matrix scalar fields a page may be ordered by, as they are read from a union row. */
type OrderField = 'domain' | 'domain_score' | 'ip_address' | 'country' | 'matches_count';

const nativeCompare = (a: string, b: string) => (a === b ? 0 : a < b ? -1 : 1);

/** Whether two lists' rows are of the same referring domain: by id where both lists have ids. */
const same = (a: ReferrerList, i: number, b: ReferrerList, j: number): boolean => (a.ids && b.ids ? a.ids[i] === b.ids[j] : a.domains[i] === b.domains[j]);

/**
 * The union of the lists (in request order) by a merge of their domain orders: each step takes the
 * smallest head domain (the same id in several lists is one row), so rows come numbered by domain.
 */
export function unionOf(lists: readonly ReferrerList[]): MatrixUnion {
  const k = lists.length;
  const nativeOrder = lists.every((list) => list.nativeOrder === true);
  const text = nativeOrder ? nativeCompare : compareCodePoints;
  const capacity = lists.reduce((sum, list) => sum + list.domains.length, 0);
  const from = new Int32Array(capacity);
  const at = new Int32Array(capacity);
  const counts = lists.map(() => new Float64Array(capacity));
  const matches = new Int32Array(capacity);
  const scores = new Float64Array(capacity);
  const next = new Int32Array(k);
  let rows = 0;
  for (;;) {
    // The list whose head domain is smallest.
    let first = -1;
    for (let t = 0; t < k; t++) {
      const list = lists[t]!;
      if (next[t]! >= list.domains.length) continue;
      if (first === -1) first = t;
      else {
        const head = lists[first]!;
        if (!same(list, next[t]!, head, next[first]!) && text(list.domains[next[t]!]!, head.domains[next[first]!]!) < 0) first = t;
      }
    }
    if (first === -1) break;
    const head = lists[first]!;
    const position = next[first]!;
    from[rows] = first;
    at[rows] = position;
    scores[rows] = head.scores[position]!;
    for (let t = first; t < k; t++) {
      const list = lists[t]!;
      const i = next[t]!;
      if (i >= list.domains.length || !same(list, i, head, position)) continue;
      counts[t]![rows] = list.backlinks[i]!;
      if (list.backlinks[i]! > 0) matches[rows]!++;
      next[t] = i + 1;
    }
    rows++;
  }
  return { lists, rows, from, at, counts, matches, scores, nativeOrder, prefixes: new Map() };
}

/** The matrix rows of the given targets' lists (in request order), filtered, ordered and paged. */
export function matrixOfLists(lists: readonly ReferrerList[], query: { readonly filter: FilterNode | null; readonly page: Page }): RowsResult<RowOf<'matrix'>> {
  return matrixOfUnion(unionOf(lists), query);
}

/** The matrix rows of a union ({@link unionOf}), filtered, ordered and paged. */
export function matrixOfUnion(union: MatrixUnion, query: { readonly filter: FilterNode | null; readonly page: Page }): RowsResult<RowOf<'matrix'>> {
  const { lists, rows, from, at, counts, matches } = union;
  const k = lists.length;
  const field = (row: number, name: OrderField): string | number => {
    const list = lists[from[row]!]!;
    const i = at[row]!;
    switch (name) {
      case 'domain':
        return list.domains[i]!;
      case 'domain_score':
        return list.scores[i]!;
      case 'ip_address':
        return list.ips[i]!;
      case 'country':
        return list.countries[i]!;
      case 'matches_count':
        return matches[row]!;
    }
  };
  const record = (row: number): RowOf<'matrix'> => ({
    domain: field(row, 'domain') as string,
    domain_score: field(row, 'domain_score') as number,
    ip_address: field(row, 'ip_address') as string,
    country: field(row, 'country') as string,
    matches_count: matches[row]!,
    backlinks_counts: counts.map((column) => column[row]!),
  });

  const { limit, offset } = query.page;
  const end = offset + limit;
  if (query.filter === null) {
    // Every row, in an order the union may already hold the first rows of.
    const name = `${query.page.orderBy} ${query.page.direction}`;
    let prefix = union.prefixes.get(name);
    if (prefix === undefined || (prefix.length < end && prefix.length < rows)) {
      const all = new Int32Array(rows);
      for (let row = 0; row < rows; row++) all[row] = row;
      prefix = firstRows(all, Math.max(end, 2 * (prefix?.length ?? 0), PREFIX_ROWS), query.page, field, union);
      union.prefixes.set(name, prefix);
    }
    return { total: rows, rows: prefix.slice(offset, end).map(record) };
  }

  // The filter, on one row object rewritten for each row (the predicate keeps nothing).
  let order = new Int32Array(rows);
  let kept = 0;
  const test = compilePredicate(query.filter);
  const probe: { -readonly [K in keyof RowOf<'matrix'>]: RowOf<'matrix'>[K] } = { domain: '', domain_score: 0, ip_address: '', country: '', matches_count: 0, backlinks_counts: new Array<number>(k).fill(0) };
  for (let row = 0; row < rows; row++) {
    const list = lists[from[row]!]!;
    const i = at[row]!;
    probe.domain = list.domains[i]!;
    probe.domain_score = list.scores[i]!;
    probe.ip_address = list.ips[i]!;
    probe.country = list.countries[i]!;
    probe.matches_count = matches[row]!;
    for (let t = 0; t < k; t++) probe.backlinks_counts[t] = counts[t]![row]!;
    if (test(probe as unknown as Readonly<Record<string, unknown>>)) order[kept++] = row;
  }
  order = order.subarray(0, kept);
  const page = firstRows(order, end, query.page, field, union);
  return { total: kept, rows: page.slice(offset).map(record) };
}

/**
 * The first `count` of `rows` (ascending row numbers, that is domains ascending) in the page's
 * order (the field, then the domain ascending). By domain: a slice. A numeric field is selected by
 * value first (the count-th best value found in linear time, by counting where the values are
 * integers in a small range; of the rows tied at it, the first by row number), then only those
 * sorted; a text field through a bounded heap. Text compares by code
 * point: with JavaScript's `<` when every text involved sorts the same way by it.
 */
function firstRows(
  rows: Int32Array,
  count: number,
  page: Page,
  field: (row: number, name: OrderField) => string | number,
  union: MatrixUnion,
): number[] {
  const name = page.orderBy as OrderField;
  const sign = page.direction === 'ASC' ? 1 : -1;
  if (count <= 0 || rows.length === 0) return [];
  const n = Math.min(count, rows.length);
  if (name === 'domain') return sign === 1 ? Array.from(rows.subarray(0, n)) : Array.from(rows.subarray(rows.length - n)).reverse();
  if (name === 'domain_score' || name === 'matches_count') {
    // Smaller key is better.
    const keys = new Float64Array(rows.length);
    if (name === 'matches_count') for (let i = 0; i < rows.length; i++) keys[i] = sign * union.matches[rows[i]!]!;
    else for (let i = 0; i < rows.length; i++) keys[i] = sign * union.scores[rows[i]!]!;
    const threshold = countSelect(keys, n - 1) ?? kthSmallest(keys.slice(), n - 1);
    const chosen: number[] = [];
    for (let i = 0; i < keys.length; i++) if (keys[i]! < threshold) chosen.push(i);
    // The ties at the threshold in row order: the first ones are the smallest domains.
    for (let i = 0; i < keys.length && chosen.length < n; i++) if (keys[i] === threshold) chosen.push(i);
    return chosen.sort((a, b) => keys[a]! - keys[b]! || a - b).map((i) => rows[i]!);
  }
  const text = union.nativeOrder ? nativeCompare : compareCodePoints;
  const compare = (a: number, b: number) => sign * text(field(a, name) as string, field(b, name) as string) || a - b;
  return topK(rows, count, compare);
}

/** Keys spanning at most this many integers are selected by counting. */
const COUNTED_RANGE = 1 << 16;

/**
 * The value that would stand at `index` if `keys` were sorted ascending, by counting, when they
 * are integers within {@link COUNTED_RANGE} of each other (scores, matches): two passes, no copy;
 * `undefined` otherwise.
 */
function countSelect(keys: Float64Array, index: number): number | undefined {
  let low = Infinity;
  let high = -Infinity;
  for (let i = 0; i < keys.length; i++) {
    const value = keys[i]!;
    if (!Number.isInteger(value)) return undefined;
    if (value < low) low = value;
    if (value > high) high = value;
  }
  if (high - low >= COUNTED_RANGE) return undefined;
  const counts = new Int32Array(high - low + 1);
  for (let i = 0; i < keys.length; i++) counts[keys[i]! - low]!++;
  let before = 0;
  let value = 0;
  while (before + counts[value]! <= index) before += counts[value++]!;
  return low + value;
}

/** The value that would stand at `index` if `values` were sorted ascending (reorders `values`; Hoare's selection). */
function kthSmallest(values: Float64Array, index: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low < high) {
    const pivot = values[(low + high) >> 1]!;
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i++] = values[j]!;
        values[j--] = swap;
      }
    }
    if (index <= j) high = j;
    else if (index >= i) low = i;
    else return values[index]!;
  }
  return values[index]!;
}
