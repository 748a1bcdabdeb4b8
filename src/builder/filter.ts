/**
 * A filter built in code: an immutable wrapper around a frozen AST, tied to one operation.
 *
 * @module
 */
import * as ast from '../ast/factories.js';
import type { FilterNode } from '../ast/nodes.js';
import { FilterError, ParameterError } from '../errors/filter-error.js';
import { printFilter } from '../print/printer.js';
import { parseFilter } from '../syntax/parse.js';
import { resolveLimits, type Limits } from '../validate/limits.js';
import { validateFilter } from '../validate/validate.js';
import type { BuilderContext } from './conditions.js';

/** What a built filter is checked against when it is taken out. @internal */
export interface FilterContext extends BuilderContext {
  readonly limits: Partial<Limits> | undefined;
}

/**
 * A filter for operation `Op`, built with {@link filterFor}. Immutable: `and` and `or` return new
 * filters. `toAst()` gives the same AST the parser produces for the canonical text, and
 * `toString()` that canonical text.
 *
 * @example
 * ```ts
 * const f = filterFor('links');
 * const strong = f.where('domain_score', '>', 50);
 * const filter = strong.and(f.like('anchor', '%seo%').or(f.where('is_nofollow', '=', false)));
 * filter.toString(); // "domain_score > 50 AND (anchor LIKE '%seo%' OR is_nofollow = false)"
 * ```
 */
export class Filter<Op extends string = string> {
  /** The operation this filter is for. */
  readonly operation: Op;
  readonly #node: FilterNode;
  readonly #context: FilterContext;
  #checked: FilterNode | undefined;

  /** @internal Use {@link filterFor} to build filters. */
  constructor(node: FilterNode, context: FilterContext) {
    this.operation = context.operation as Op;
    this.#node = node;
    this.#context = context;
    Object.freeze(this);
  }

  /**
   * This filter AND the others (nested ANDs are flattened, as the parser does).
   *
   * @example
   * ```ts
   * f.where('domain_score', '>', 50).and(f.where('is_lost', '=', false));
   * ```
   */
  and(...others: readonly Filter<Op>[]): Filter<Op> {
    return combine('And', [this, ...others]);
  }

  /**
   * This filter OR the others (nested ORs are flattened; an OR inside an AND prints in parentheses).
   *
   * @example
   * ```ts
   * f.like('anchor', '%seo%').or(f.like('anchor', '%links%'));
   * ```
   */
  or(...others: readonly Filter<Op>[]): Filter<Op> {
    return combine('Or', [this, ...others]);
  }

  /**
   * The AST, frozen, with empty spans. Throws {@link FilterError} (`too_many_conditions`,
   * `too_deep`, `index_out_of_range` after combining filters of different target counts, and
   * `too_long` when the canonical text is longer than the text limit, 4,096 characters by
   * default, with the parser's issue for an over-long text) when the whole filter breaks the
   * builder's limits; single conditions were already checked when built.
   *
   * @example
   * ```ts
   * printFilter(f.where('domain_score', '>', 50).toAst()); // 'domain_score > 50'
   * ```
   */
  toAst(): FilterNode {
    if (this.#checked === undefined) {
      const issues = validateFilter(this.#node, this.#context);
      if (issues.length > 0) throw new FilterError(issues, '');
      checkLength(this.#node, this.#context.limits);
      this.#checked = this.#node;
    }
    return this.#checked;
  }

  /**
   * The canonical text, ready for the `filter` parameter; strings are always quoted and escaped.
   *
   * @example
   * ```ts
   * f.where('anchor', '=', "it's").toString(); // "anchor = 'it\\'s'"
   * ```
   */
  toString(): string {
    return printFilter(this.toAst());
  }

  /** @internal The unchecked node and context, for combining. */
  static parts(filter: Filter<string>): { node: FilterNode; context: FilterContext } {
    if (!(filter instanceof Filter)) {
      throw new ParameterError('filters', 'invalid_value', 'Only filters built by filterFor can be combined.');
    }
    return { node: filter.#node, context: filter.#context };
  }
}

/**
 * The text limit of the language (4,096 UTF-16 units by default) applies to the text sent: the
 * canonical text of a built filter. Past it, the parser's own error for an over-long text
 * (`FilterError` with one `too_long` issue), obtained by handing the text to the parser, which
 * stops at the length check.
 */
function checkLength(node: FilterNode, limits: Partial<Limits> | undefined): void {
  const text = printFilter(node);
  if (text.length > resolveLimits(limits).maxLength) parseFilter(text, { limits });
}

/** Joins filters of one operation; the stricter target count wins, the first filter's limits apply. */
function combine<Op extends string>(kind: 'And' | 'Or', filters: readonly Filter<Op>[]): Filter<Op> {
  const parts = filters.map((f) => Filter.parts(f));
  const first = parts[0];
  if (first === undefined) throw new ParameterError('filters', 'required', `${kind.toUpperCase()} needs at least one filter.`);
  let targets = first.context.targets;
  for (const { context } of parts) {
    if (context.operation !== first.context.operation) {
      throw new ParameterError(
        'filters',
        'invalid_value',
        `Cannot combine a filter for ${context.operation} with one for ${first.context.operation}.`,
      );
    }
    if (context.targets !== undefined) targets = targets === undefined ? context.targets : Math.min(targets, context.targets);
  }
  const nodes = parts.map((part) => part.node);
  const node = kind === 'And' ? ast.and(nodes) : ast.or(nodes); // the factories flatten nested groups
  return new Filter<Op>(node, { ...first.context, targets });
}

/** Combines filters with AND or OR (used by the builder's own `and`/`or`). @internal */
export function combineFilters<Op extends string>(kind: 'And' | 'Or', filters: readonly Filter<Op>[]): Filter<Op> {
  return combine(kind, filters);
}
