/**
 * The result of lowering a filter: SQL text with placeholders and the values bound to them.
 *
 * @module
 */

/**
 * A boolean SQL expression for a `WHERE` clause, and its bound parameters in placeholder order.
 * Frozen. The expression is self-contained: it can be combined with `AND`, `OR` or `NOT` without
 * extra parentheses.
 *
 * @example
 * ```ts
 * const { sql, parameters } = toSql(filter, { dialect: 'sqlite' });
 * db.prepare(`SELECT * FROM links WHERE ${sql}`).all(...parameters);
 * ```
 */
export interface CompiledSql {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/**
 * The SQL split at its parameters: `fragments.length === parameters.length + 1`, in the shape of a
 * tagged template's strings, for query builders that bind with their own placeholders.
 *
 * @internal
 */
export interface SqlFragments {
  readonly fragments: readonly string[];
  readonly parameters: readonly unknown[];
}
