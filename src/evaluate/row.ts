/**
 * The record type the evaluator reads.
 *
 * @module
 */

/**
 * A record as the service returns it (one JSON object of `data`). Matrix rows carry the
 * `backlinks_counts` array, read by `backlinks_counts[n]` at element n-1.
 *
 * @example
 * ```ts
 * const row: Row = { domain: 'example.com', domain_score: 62, backlinks_counts: [3, 0] };
 * ```
 */
export type Row = Readonly<Record<string, unknown>>;
