/**
 * Competitors computed ahead of the call: for every registrable domain, each other registrable
 * domain sharing referring domains with it, with similarity = |R(t) ∩ R(c)| / |R(t) ∪ R(c)|, kept
 * when it passes the interface's thresholds (at least {@link COMPETITOR_MIN_COMMON} shared
 * referring domains, similarity at least {@link COMPETITOR_MIN_SIMILARITY}). The same numbers as
 * the query over the links (`graph.ts`): integer counts, one IEEE division.
 *
 * {@link CompetitorIndex} is the batch pass after a load into an empty store: referring-domain
 * sets as integer ids, for each domain one count per other domain over the domains linked from
 * each of its referrers (work Σ over referrers of (domains they link to)²), no SQL join.
 *
 * @module
 * @internal
 */
import { COMPETITOR_MIN_COMMON, COMPETITOR_MIN_SIMILARITY } from './graph.js';

/** Whether a pair is listed, and its similarity. @internal */
export function similarityOf(common: number, mine: number, theirs: number): number | undefined {
  if (common < COMPETITOR_MIN_COMMON) return undefined;
  const similarity = common / (mine + theirs - common);
  return similarity >= COMPETITOR_MIN_SIMILARITY ? similarity : undefined;
}

/**
 * The listed competitors of every domain of a graph, from its (registrable domain, referring
 * domain) pairs as integer ids: `targetIds[i]` is linked from `sourceIds[i]`, each pair once.
 *
 * @example
 * ```ts
 * const index = new CompetitorIndex(Int32Array.from([0, 1]), Int32Array.from([7, 7]), 2, 8);
 * index.competitorsOf(0, (competitor, similarity, common) => {});
 * ```
 */
export class CompetitorIndex {
  readonly #bySource: { start: Int32Array; items: Int32Array };
  readonly #byTarget: { start: Int32Array; items: Int32Array };
  readonly #counts: Int32Array;
  readonly #seen: Int32Array;

  constructor(targetIds: Int32Array, sourceIds: Int32Array, targets: number, sources: number) {
    // Both directions as compressed lists: the referrers of each domain, the domains of each referrer.
    this.#bySource = csr(sourceIds, targetIds, sources);
    this.#byTarget = csr(targetIds, sourceIds, targets);
    this.#counts = new Int32Array(targets);
    this.#seen = new Int32Array(targets);
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
