/**
 * Competitors without SQL joins: the graph of registrable domains and their referring domains as
 * integer ids in memory (both directions as compressed lists), and for one domain one count per
 * other domain over the domains linked from each of its referrers. For every listed competitor,
 * similarity = |R(t) ∩ R(c)| / |R(t) ∪ R(c)|, kept when it passes the interface's thresholds (at
 * least {@link COMPETITOR_MIN_COMMON} shared referring domains, similarity at least
 * {@link COMPETITOR_MIN_SIMILARITY}): the same numbers as the query over the links (`graph.ts`),
 * integer counts and one IEEE division.
 *
 * Not a table of every listed pair: nearly every pair of domains passes the thresholds, so such a
 * table grows with the square of the domains, while the graph is the referring-domain rollup once
 * more. Counting one domain's overlaps (Σ over its referrers of the domains they link to) is the
 * whole cost of a call and depends on the graph alone, so a domain's listed competitors are kept
 * once counted (within {@link KEPT_COMPETITOR_BYTES}, least recently asked dropped first) for its
 * later pages and orders; they live as long as one load's graph. The figures: docs/design-store.md,
 * "Measurements behind the store's code".
 *
 * @module
 * @internal
 */
import { COMPETITOR_MIN_COMMON, COMPETITOR_MIN_SIMILARITY } from '../../../catalogue/operations.js';
import type { RowOf } from '../../../catalogue/types.js';
import { compareCodePoints } from '../../../evaluate/text-order.js';
import { BoundedCache, ENTRY_BYTES } from '../../../shared/bounded-cache.js';
import type { Page, RowsResult } from '../store.js';
import { topK } from './top-k.js';

/** Least shared referring domains, and least similarity, for a competitor to be listed (the interface's thresholds, from the catalogue). @internal */
export { COMPETITOR_MIN_COMMON, COMPETITOR_MIN_SIMILARITY };

/** Whether a pair is listed, and its similarity. @internal */
export function similarityOf(common: number, mine: number, theirs: number): number | undefined {
  if (common < COMPETITOR_MIN_COMMON) return undefined;
  const similarity = common / (mine + theirs - common);
  return similarity >= COMPETITOR_MIN_SIMILARITY ? similarity : undefined;
}

/** The estimated bytes of a kept competitor row. @internal */
export const COMPETITOR_ROW_BYTES = 100;

/** The estimated bytes of the competitor lists kept between calls, over all domains: a million rows. @internal */
export const KEPT_COMPETITOR_BYTES = 1_000_000 * COMPETITOR_ROW_BYTES;

/**
 * The listed competitors of the domains of a graph, from its (registrable domain, referring
 * domain) pairs as integer ids: `targetIds[i]` is linked from `sourceIds[i]`, each pair once;
 * `names[t]` is domain `t`.
 */
export class CompetitorIndex {
  readonly #bySource: { start: Int32Array; items: Int32Array };
  readonly #byTarget: { start: Int32Array; items: Int32Array };
  readonly #counts: Int32Array;
  readonly #seen: Int32Array;

  readonly #ids: ReadonlyMap<string, number>;
  /** Listed competitors by domain id. */
  readonly #kept: BoundedCache<number, readonly RowOf<'competitors'>[]>;

  constructor(
    targetIds: Int32Array,
    sourceIds: Int32Array,
    private readonly names: readonly string[],
    sources: number,
    /** The estimated bytes of the lists kept between calls ({@link COMPETITOR_ROW_BYTES} a row and {@link ENTRY_BYTES} a list). */
    keepBytes = KEPT_COMPETITOR_BYTES,
  ) {
    this.#kept = new BoundedCache(keepBytes, (rows) => ENTRY_BYTES + rows.length * COMPETITOR_ROW_BYTES);
    // Both directions as compressed lists: the referrers of each domain, the domains of each referrer.
    this.#bySource = csr(sourceIds, targetIds, sources);
    this.#byTarget = csr(targetIds, sourceIds, names.length);
    this.#counts = new Int32Array(names.length);
    this.#seen = new Int32Array(names.length);
    this.#ids = new Map(names.map((name, t) => [name, t]));
  }

  /** The estimated bytes of the graph (its lists both ways and the names), for the read-cache's bound. */
  get bytes(): number {
    return this.#bySource.start.byteLength + this.#bySource.items.byteLength + this.#byTarget.start.byteLength + this.#byTarget.items.byteLength + this.names.length * 64;
  }

  /** A page of a domain's listed competitors, in the page's order (then by domain, ascending). */
  competitors(domain: string, page: Page): RowsResult<RowOf<'competitors'>> {
    const t = this.#ids.get(domain);
    if (t === undefined) return { total: 0, rows: [] };
    const found = this.#listed(t);
    const field = page.orderBy as keyof RowOf<'competitors'>;
    const sign = page.direction === 'ASC' ? 1 : -1;
    const compare = (a: RowOf<'competitors'>, b: RowOf<'competitors'>): number => {
      const x = a[field];
      const y = b[field];
      const byField = typeof x === 'number' ? x - (y as number) : compareCodePoints(x, y as string);
      return byField !== 0 ? sign * byField : compareCodePoints(a.domain, b.domain);
    };
    // Copies: the kept rows outlive the answer, which its caller may change.
    return { total: found.length, rows: topK(found, page.offset + page.limit, compare).slice(page.offset).map((row) => ({ ...row })) };
  }

  /** Domain `t`'s listed competitors, counted once and kept. */
  #listed(t: number): readonly RowOf<'competitors'>[] {
    const kept = this.#kept.get(t);
    if (kept !== undefined) return kept;
    const found: RowOf<'competitors'>[] = [];
    this.competitorsOf(t, (c, similarity, common) => found.push({ domain: this.names[c]!, similarity, common_refdomains: common }));
    this.#kept.set(t, found);
    return found;
  }

  #size(t: number): number {
    return this.#byTarget.start[t + 1]! - this.#byTarget.start[t]!;
  }

  /** Calls `emit` for each listed competitor of domain `t`: one count per other domain over the domains linked from each of `t`'s referrers. */
  competitorsOf(t: number, emit: (competitor: number, similarity: number, common: number) => void): void {
    const { start: referrers, items: sources } = this.#byTarget;
    const { start: linked, items: domains } = this.#bySource;
    const counts = this.#counts;
    const seen = this.#seen;
    let touched = 0;
    for (let i = referrers[t]!; i < referrers[t + 1]!; i++) {
      const s = sources[i]!;
      for (let j = linked[s]!; j < linked[s + 1]!; j++) {
        const c = domains[j]!;
        if (c === t) continue;
        if (counts[c]!++ === 0) seen[touched++] = c;
      }
    }
    const mine = this.#size(t);
    for (let k = 0; k < touched; k++) {
      const c = seen[k]!;
      const similarity = similarityOf(counts[c]!, mine, this.#size(c));
      if (similarity !== undefined) emit(c, similarity, counts[c]!);
      counts[c] = 0;
    }
  }
}

/** Items grouped by key: `items[start[k] .. start[k + 1])` are the values paired with key `k`. */
function csr(keys: Int32Array, values: Int32Array, size: number): { start: Int32Array; items: Int32Array } {
  const start = new Int32Array(size + 1);
  for (let i = 0; i < keys.length; i++) start[keys[i]! + 1]!++;
  for (let k = 0; k < size; k++) start[k + 1]! += start[k]!;
  const next = start.slice(0, size);
  const items = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) items[next[keys[i]!]!++] = values[i]!;
  return { start, items };
}
