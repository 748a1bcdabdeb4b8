/**
 * The typed filter builder: `filterFor(operation)` gives a builder whose `where`, `like` and
 * `notLike` accept only that operation's fields, each with only the operators and values its type
 * allows. It produces AST nodes (the same the parser produces), never text.
 *
 * @module
 */
import type { FilterNode } from '../ast/nodes.js';
import { operations, type FilterableOperation } from '../catalogue/operations.js';
import { FilterError, type ParameterError } from '../errors/filter-error.js';
import { parseFilter } from '../syntax/parse.js';
import type { Limits } from '../validate/limits.js';
import { checkTargetOptions, validateFilter } from '../validate/validate.js';
import { buildCondition, buildLike, issueError } from './conditions.js';
import type { AnyFilterFields, FilterFields, OperatorFor, TextFieldOf, ValueFor } from './field-types.js';
import { combineFilters, Filter, type FilterContext } from './filter.js';

/** Options of {@link filterFor} for operations other than matrix. */
export interface BuilderOptions {
  /**
   * Limits checked when a filter is taken out with `toAst()`/`toString()`; the defaults are the
   * language's (4,096 characters of canonical text, parentheses 32 deep, 100 conditions).
   */
  readonly limits?: Partial<Limits>;
}

/** Options of {@link filterFor} for matrix: also the number of targets of the request. */
export interface MatrixBuilderOptions<N extends number = number> extends BuilderOptions {
  /** Number of targets (1-6); `backlinks_counts[n]` then takes `n` from 1 to this number. */
  readonly targets?: N;
}

/**
 * Builds conditions for one operation. `M` maps each usable field name to its type.
 *
 * @example
 * ```ts
 * const f = filterFor('links');
 * const filter = f.and(f.where('domain_score', '>=', 40), f.notLike('source_url', '%/tag/%'));
 * ```
 */
export interface FilterBuilder<Op extends string, M extends AnyFilterFields> {
  /** The operation. */
  readonly operation: Op;
  /** The number of targets (matrix), when given. */
  readonly targets: number | undefined;
  /**
   * A comparison (or, with `'LIKE'`/`'NOT LIKE'`, a pattern match) on one field.
   *
   * @example
   * ```ts
   * f.where('domain_score', '>', 50);
   * f.where('is_nofollow', '=', false);
   * f.where('first_seen_at', '>=', '2024-05');
   * ```
   */
  where<K extends keyof M & string>(field: K, operator: OperatorFor<M[K]>, value: ValueFor<M[K]>): Filter<Op>;
  /**
   * `field LIKE pattern`: `%` matches any run of characters; only text and timestamp fields.
   *
   * @example
   * ```ts
   * f.like('anchor', '%seo%');
   * ```
   */
  like<K extends TextFieldOf<M>>(field: K, pattern: string): Filter<Op>;
  /**
   * `field NOT LIKE pattern`.
   *
   * @example
   * ```ts
   * f.notLike('source_url', '%/tag/%');
   * ```
   */
  notLike<K extends TextFieldOf<M>>(field: K, pattern: string): Filter<Op>;
  /**
   * All of the filters.
   *
   * @example
   * ```ts
   * f.and(f.where('domain_score', '>', 50), f.where('is_lost', '=', false));
   * ```
   */
  and(first: Filter<Op>, ...rest: readonly Filter<Op>[]): Filter<Op>;
  /**
   * Any of the filters.
   *
   * @example
   * ```ts
   * f.or(f.like('anchor', '%seo%'), f.like('anchor', '%backlink%'));
   * ```
   */
  or(first: Filter<Op>, ...rest: readonly Filter<Op>[]): Filter<Op>;
  /**
   * All filters of a list (for lists built at run time); throws {@link ParameterError} when empty.
   *
   * @example
   * ```ts
   * f.all(['%seo%', '%links%'].map((p) => f.notLike('anchor', p)));
   * ```
   */
  all(filters: Iterable<Filter<Op>>): Filter<Op>;
  /**
   * Any filter of a list (for lists built at run time); throws {@link ParameterError} when empty.
   *
   * @example
   * ```ts
   * f.any(['de', 'at', 'ch'].map((code) => f.where('lang', '=', code)));
   * ```
   */
  any(filters: Iterable<Filter<Op>>): Filter<Op>;
  /**
   * A filter from text (a user's input, a saved filter), checked for this operation; throws
   * {@link FilterError}. Combine it with built conditions.
   *
   * @example
   * ```ts
   * f.parse(userText).and(f.where('is_lost', '=', false));
   * ```
   */
  parse(text: string): Filter<Op>;
  /**
   * A filter from an AST (parsed or made with the node factories), checked for this operation.
   *
   * @example
   * ```ts
   * f.fromAst(parseFilter('domain_score > 5'));
   * ```
   */
  fromAst(node: FilterNode): Filter<Op>;
}

/** The builder of an operation known only at run time: any name, every check at run time. */
export type DynamicFilterBuilder = FilterBuilder<string, AnyFilterFields>;

/**
 * A typed builder for `operation`. Field names, operators and value types are checked by
 * TypeScript from the catalogue; every condition is also validated at run time (timestamps,
 * number range, and everything when the operation is only known at run time), throwing
 * {@link FilterError} with the parser's issue codes, or {@link ParameterError} for a bad
 * operation name, target count, operator or value kind.
 *
 * @example
 * ```ts
 * const f = filterFor('links');
 * f.where('domain_score', '>', 50).and(f.like('anchor', '%seo%').or(f.where('is_nofollow', '=', false))).toString();
 * // "domain_score > 50 AND (anchor LIKE '%seo%' OR is_nofollow = false)"
 *
 * const m = filterFor('matrix', { targets: 3 });
 * m.where('backlinks_counts[3]', '>', 0); // backlinks_counts[4] would not compile
 *
 * const dynamic = filterFor(operationFromConfig as string); // checked at run time only
 * ```
 */
export function filterFor<const N extends number = 6>(
  operation: 'matrix',
  options?: MatrixBuilderOptions<N>,
): FilterBuilder<'matrix', FilterFields<'matrix', N>>;
export function filterFor<Op extends Exclude<FilterableOperation, 'matrix'>>(
  operation: Op,
  options?: BuilderOptions,
): FilterBuilder<Op, FilterFields<Op>>;
export function filterFor<S extends string>(
  operation: string extends S ? S : never,
  options?: MatrixBuilderOptions,
): DynamicFilterBuilder;
export function filterFor(operation: string, options: MatrixBuilderOptions = {}): DynamicFilterBuilder {
  const name = checkTargetOptions(operation, options.targets);
  if (!operations[name].filter) throw issueError('filter_not_allowed', `The operation ${name} takes no filter.`, name);
  return new Builder({ operation: name, targets: options.targets, limits: options.limits });
}

/** @internal The one implementation behind every typed view. */
class Builder implements DynamicFilterBuilder {
  readonly operation: string;
  readonly targets: number | undefined;
  readonly #context: FilterContext;

  constructor(context: FilterContext) {
    this.operation = context.operation;
    this.targets = context.targets;
    this.#context = context;
    Object.freeze(this);
  }

  where(field: string, operator: string, value: string | number | boolean): Filter<string> {
    return new Filter(buildCondition(this.#context, field, operator, value), this.#context);
  }

  like(field: string, pattern: string): Filter<string> {
    return new Filter(buildLike(this.#context, field, pattern, false), this.#context);
  }

  notLike(field: string, pattern: string): Filter<string> {
    return new Filter(buildLike(this.#context, field, pattern, true), this.#context);
  }

  and(...filters: readonly Filter<string>[]): Filter<string> {
    return combineFilters('And', filters);
  }

  or(...filters: readonly Filter<string>[]): Filter<string> {
    return combineFilters('Or', filters);
  }

  all(filters: Iterable<Filter<string>>): Filter<string> {
    return combineFilters('And', [...filters]);
  }

  any(filters: Iterable<Filter<string>>): Filter<string> {
    return combineFilters('Or', [...filters]);
  }

  parse(text: string): Filter<string> {
    const { operation, targets, limits } = this.#context;
    return new Filter(parseFilter(text, { operation, targets, limits }), this.#context);
  }

  fromAst(node: FilterNode): Filter<string> {
    const issues = validateFilter(node, this.#context);
    if (issues.length > 0) throw new FilterError(issues, '');
    return new Filter(node, this.#context);
  }
}
