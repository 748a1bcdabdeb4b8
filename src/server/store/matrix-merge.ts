/**
 * The matrix in one pass over the targets' referring-domain lists, each sorted by the referring
 * domain's integer id: a merge (no join, no GROUP BY), the filter run by the package's evaluator
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

/** One target's referring domains, sorted by `ids` ascending (ids unique within a list). */
export interface ReferrerList {
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
  // The union, in id order: for each row, the list and position its domain data is read from, and the count per target.
  const from = new Int32Array(capacity);
  const at = new Int32Array(capacity);
  const counts = lists.map(() => new Float64Array(capacity));
  const matches = new Int32Array(capacity);
  const heads = new Int32Array(k);
  let rows = 0;
  for (;;) {
    let next = -1;
    let id = 0;
    for (let t = 0; t < k; t++) {
      const list = lists[t]!;
      if (heads[t]! < list.ids.length && (next === -1 || list.ids[heads[t]!]! < id)) {
        next = t;
        id = list.ids[heads[t]!]!;
      }
    }
    if (next === -1) break;
    from[rows] = next;
    at[rows] = heads[next]!;
    for (let t = next; t < k; t++) {
      const list = lists[t]!;
      const h = heads[t]!;
      if (h < list.ids.length && list.ids[h] === id) {
        counts[t]![rows] = list.backlinks[h]!;
        if (list.backlinks[h]! > 0) matches[rows]!++;
        heads[t] = h + 1;
      }
    }
    rows++;
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
  let kept = rows;
  let order = Int32Array.from({ length: rows }, (_, i) => i);
  if (query.filter !== null) {
    const test = compilePredicate(query.filter);
    const probe: { -readonly [K in keyof RowOf<'matrix'>]: RowOf<'matrix'>[K] } = { domain: '', domain_score: 0, ip_address: '', country: '', matches_count: 0, backlinks_counts: new Array<number>(k).fill(0) };
    kept = 0;
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
  }

  const { orderBy, direction, limit, offset } = query.page;
  const sign = direction === 'ASC' ? 1 : -1;
  const name = orderBy as OrderField;
  const compare = (a: number, b: number): number => {
    const x = field(a, name);
    const y = field(b, name);
    const byField = typeof x === 'number' ? x - (y as number) : compareCodePoints(x, y as string);
    return byField !== 0 ? sign * byField : compareCodePoints(field(a, 'domain') as string, field(b, 'domain') as string);
  };
  return { total: kept, rows: topK(order, offset + limit, compare).slice(offset).map(record) };
}

