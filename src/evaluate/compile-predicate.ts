/**
 * The evaluator's entry points: a filter compiled once into a predicate over records, the
 * reference meaning of the language.
 *
 * @module
 */
import type { FilterNode } from '../ast/nodes.js';
import type { Row } from './row.js';
import { compileCode } from './code-mode.js';
import { compileClosure } from './closure-mode.js';
import { invalidOption } from '../ast/shape.js';

/**
 * Options of {@link compilePredicate}.
 *
 * @example
 * ```ts
 * compilePredicate(filter, { mode: 'closure' }); // no `new Function`
 * ```
 */
export interface PredicateOptions {
  /**
   * `'auto'` (default) generates a JavaScript function with `new Function`, and falls back to the
   * closure tree by itself where the platform forbids code generation (a Content Security Policy
   * without `unsafe-eval`). `'code'` insists on the generated function and throws the platform's
   * error where it is forbidden. `'closure'` always builds a closure tree. All give the same results.
   */
  mode?: 'auto' | 'code' | 'closure';
}

/**
 * Compiles a filter AST once into a predicate over records as the service returns them. The AST is
 * expected to be validated for its operation (`parseFilter` does it); a node no parser produces is
 * a `ParameterError` (`filter`, `invalid_value`), as in every other consumer of the AST. Rows must carry each field the filter names with its catalogue type.
 *
 * @example
 * ```ts
 * const keep = compilePredicate(parseFilter("domain_score > 50 AND anchor LIKE '%seo%'", { operation: 'links' }));
 * rows.filter(keep);
 * ```
 */
export function compilePredicate(filter: FilterNode, options: PredicateOptions = {}): (row: Row) => boolean {
  const mode = options.mode ?? 'auto';
  if (mode === 'closure') return compileClosure(filter);
  if (mode === 'code') return compileCode(filter);
  if (mode !== 'auto') throw invalidOption('mode', `Unknown evaluator mode ${String(mode)}`);
  try {
    return compileCode(filter);
  } catch {
    // Code generation forbidden (an EvalError under CSP) or unavailable: the closure tree means the
    // same. A malformed AST fails the same way in compileClosure, so no error is swallowed.
    return compileClosure(filter);
  }
}

/**
 * Evaluates a filter on one record without keeping anything compiled: convenient for one-off
 * checks; compile with {@link compilePredicate} to test many rows.
 *
 * @example
 * ```ts
 * evaluateFilter(parseFilter('domain_score >= 40', { operation: 'links' }), { domain_score: 40 }); // true
 * ```
 */
export function evaluateFilter(filter: FilterNode, row: Row): boolean {
  return compileClosure(filter)(row);
}
