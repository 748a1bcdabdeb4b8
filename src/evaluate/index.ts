/**
 * The in-memory evaluator: the reference meaning of the filter language.
 *
 * @example
 * ```ts
 * import { compilePredicate } from 'backlink-query';
 * const keep = compilePredicate(filter);
 * const selected = rows.filter(keep);
 * ```
 *
 * @module
 */
export type { Row } from './row.js';
export { compilePredicate, evaluateFilter, type PredicateOptions } from './compile-predicate.js';
export { compareCodePoints } from './text-order.js';
export { likeMatches } from './like.js';
