/**
 * The matrix in one pass over the targets' referring-domain lists, keyed by the referring
 * domain's integer id: a union by direct address (no join, no GROUP BY, no hashing), the filter run
 * by the package's evaluator
 * (the reference every SQL dialect is proven against), and a top-K of the order. A store that
 * keeps each target's referring domains with their own data (`r_ref_domains`) hands the lists in.
 *
 * The order is the SQL lists' order: the field, then the referring domain ascending, text by code
 * point (`compareCodePoints`).
 *
 * @module
 * @internal
 */
import type { FilterNode } from '../../ast/nodes.js';
import type { RowOf } from '../../catalogue/types.js';
import { compilePredicate, compareCodePoints } from '../../evaluate/index.js';
import type { Page, RowsResult } from './store.js';
import { topK } from './top-k.js';

/** One target's referring domains, sorted by `ids` ascending (small non-negative integers, unique within a list). */
export interface ReferrerList {
  /** Every text of the list sorts the same by JavaScript's `<` as by code point (no UTF-16 unit at or above U+D800). */
  readonly nativeOrder?: boolean;
  readonly ids: Int32Array;
  readonly domains: readonly string[];
  readonly backlinks: Float64Array;
  readonly scores: Float64Array;
  readonly ips: readonly string[];
  readonly countries: readonly string[];
}

/** The matrix scalar fields a page may be ordered by, as they are read from a union row. */
type OrderField = 'domain' | 'domain_score' | 'ip_address' | 'country' | 'matches_count';

/**
 * The matrix rows of the given targets' lists (in request order), filtered, ordered and paged.
 *
 * @example
 * ```ts
 * matrixOfLists([a, b], { filter: null, page: { orderBy: 'matches_count', direction: 'DESC', limit: 100, offset: 0 } });
 * ```
 */
export function matrixOfLists(lists: readonly ReferrerList[], query: { readonly filter: FilterNode | null; readonly page: Page }): RowsResult<RowOf<'matrix'>> {
  const k = lists.length;
  const capacity = lists.reduce((sum, list) => sum + list.ids.length, 0);
  // The union by id: each id's row found by direct address (ids are small integers), in one pass
  // over each list. For each row: the list and position its domain data is read from, and the
  // count per target.
  let maxId = -1;
  for (const list of lists) if (list.ids.length > 0) maxId = Math.max(maxId, list.ids[list.ids.length - 1]!);
  const rowOf = new Int32Array(maxId + 1).fill(-1);
  const from = new Int32Array(capacity);
  const at = new Int32Array(capacity);
  const counts = lists.map(() => new Float64Array(capacity));
  const matches = new Int32Array(capacity);
  let rows = 0;
  for (let t = 0; t < k; t++) {
    const { ids, backlinks } = lists[t]!;
    const column = counts[t]!;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      let row = rowOf[id]!;
      if (row === -1) {
        row = rows++;
        rowOf[id] = row;
        from[row] = t;
        at[row] = i;
      }
      column[row] = backlinks[i]!;
      if (backlinks[i]! > 0) matches[row]!++;
    }
  }

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

  // The filter, on one row object rewritten for each row (the predicate keeps nothing).
  let order = new Int32Array(rows);
  let kept = 0;
  if (query.filter === null) {
    for (let row = 0; row < rows; row++) order[kept++] = row;
  } else {
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
  }
  order = order.subarray(0, kept);

  const { limit, offset } = query.page;
  const page = firstRows(order, offset + limit, query.page, field, lists.every((list) => list.nativeOrder === true));
  return { total: kept, rows: page.slice(offset).map(record) };
}

/**
 * The first `count` rows in the page's order (the field, then the domain ascending). A numeric
 * field is selected by value first (the count-th best value found in linear time, then only the
 * rows at or above it sorted); a text field through a bounded heap. Text compares by code point:
 * with JavaScript's `<` when every text involved sorts the same way by it.
 */
function firstRows(
  rows: Int32Array,
  count: number,
  page: Page,
  field: (row: number, name: OrderField) => string | number,
  native: boolean,
): number[] {
  const name = page.orderBy as OrderField;
  const sign = page.direction === 'ASC' ? 1 : -1;
  const text = native ? (a: string, b: string) => (a === b ? 0 : a < b ? -1 : 1) : compareCodePoints;
  const domains = (a: number, b: number) => text(field(a, 'domain') as string, field(b, 'domain') as string);
  if (count <= 0 || rows.length === 0) return [];
  if (name === 'domain_score' || name === 'matches_count') {
    // Smaller key is better.
    const keys = new Float64Array(rows.length);
    for (let i = 0; i < rows.length; i++) keys[i] = sign * (field(rows[i]!, name) as number);
    const n = Math.min(count, rows.length);
    const threshold = kthSmallest(Float64Array.from(keys), n - 1);
    const kept: number[] = [];
    const ties: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      if (keys[i]! < threshold) kept.push(i);
      else if (keys[i] === threshold) ties.push(i);
    }
    const byDomain = (a: number, b: number) => domains(rows[a]!, rows[b]!);
    const chosen = [...kept, ...topK(ties, n - kept.length, byDomain)];
    return chosen.sort((a, b) => keys[a]! - keys[b]! || byDomain(a, b)).map((i) => rows[i]!);
  }
  const compare = (a: number, b: number) => sign * text(field(a, name) as string, field(b, name) as string) || domains(a, b);
  return topK(rows, count, compare);
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
