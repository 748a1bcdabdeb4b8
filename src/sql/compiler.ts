/**
 * The one SQL compiler every dialect shares (Kysely's `DefaultQueryCompiler`). It walks the AST,
 * binds every literal as a parameter, and leaves each difference between engines to a protected
 * hook that a dialect overrides in a few lines. Its defaults are standard SQL: `?` placeholders,
 * `"` quoting, `LIKE ... ESCAPE '!'`, array subscripts counted from 1.
 *
 * @module
 */
import type { Comparison, ComparisonOperator, FilterNode, Like } from '../ast/nodes.js';
import type { CompiledSql, SqlFragments } from './compiled-sql.js';
import { resolveField, type ArrayStorage, type ColumnMapping, type ColumnRef } from './columns.js';
import { escapeLikePattern } from './like-pattern.js';
import { numericKind, rewriteIntegerComparison, type NumericKind } from './numeric-kind.js';

import { UnsupportedError } from './unsupported-error.js';
import { invalidOption, malformedAst } from '../ast/shape.js';

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * What the compiler needs besides the filter: the options of `toSql` other than the dialect.
 *
 * @example
 * ```ts
 * dialects.sqlite.createCompiler().compile(filter, { columns: { anchor: 'anchor_text' } });
 * ```
 */
export interface CompileContext {
  readonly columns?: ColumnMapping;
  readonly array?: ArrayStorage;
  readonly operation?: string;
}

const SQL_OPERATORS: { readonly [K in ComparisonOperator]: string } = { '=': '=', '!=': '<>', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };
// Parameters are first written as NUL-delimited markers and turned into placeholders at the end;
// NUL is refused in identifiers and trusted SQL, so a marker is never ambiguous.
const MARKER = /\u0000(\d+)\u0000/g;

/**
 * The shared compiler. Create one per compilation (it collects parameters); dialects subclass it.
 *
 * @example
 * ```ts
 * class MyCompiler extends FilterCompiler {
 *   protected override placeholder(index: number): string { return `:p${index}`; }
 * }
 * const myDialect: Dialect = { name: 'mine', createCompiler: () => new MyCompiler('mine') };
 * ```
 */
export class FilterCompiler {
  readonly #values: unknown[] = [];
  #context: CompileContext = {};

  /** @param dialect the name used in {@link UnsupportedError} messages. */
  constructor(readonly dialect: string) {}

  /** Lowers a filter to a WHERE-clause expression with placeholders. */
  compile(filter: FilterNode, context: CompileContext = {}): CompiledSql {
    const { fragments, parameters } = this.compileFragments(filter, context);
    let sql = fragments[0]!;
    for (let i = 1; i < fragments.length; i++) sql += this.placeholder(i, parameters[i - 1]) + fragments[i]!;
    return Object.freeze({ sql, parameters: Object.freeze([...parameters]) });
  }

  /** Lowers a filter to SQL split at its parameters, for query builders. @internal */
  compileFragments(filter: FilterNode, context: CompileContext = {}): SqlFragments {
    this.#values.length = 0;
    this.#context = context;
    const marked = this.node(filter);
    const pieces = marked.split(MARKER);
    const fragments: string[] = [];
    const parameters: unknown[] = [];
    for (let i = 0; i < pieces.length; i++) {
      if (i % 2 === 0) fragments.push(pieces[i]!);
      else parameters.push(this.#values[Number(pieces[i])]);
    }
    return Object.freeze({ fragments: Object.freeze(fragments), parameters: Object.freeze(parameters) });
  }

  /** Compiles any filter node. */
  protected node(node: FilterNode): string {
    switch (node.kind) {
      case 'And':
        return `(${node.operands.map((operand) => this.node(operand)).join(' AND ')})`;
      case 'Or':
        return `(${node.operands.map((operand) => this.node(operand)).join(' OR ')})`;
      case 'Comparison':
        return this.comparison(node);
      case 'Like':
        return this.likeCondition(node);
      default:
        throw malformedAst(`unknown node kind ${String((node as { kind?: unknown }).kind)}`);
    }
  }

  /** `field op literal`, dispatched on the literal's type. */
  protected comparison(node: Comparison): string {
    const operator = node.operator;
    if (!Object.hasOwn(SQL_OPERATORS, operator)) throw malformedAst(`unknown comparison operator ${String(operator)}`);
    const ref = resolveField(node.field, this.#context.columns, this.#context.array);
    const left = this.column(ref);
    const literal = node.value;
    switch (literal.kind) {
      case 'String':
        this.refuseLoneSurrogate(literal.value);
        this.checkText(literal.value, 'compare');
        return this.compareText(left, SQL_OPERATORS[operator], this.parameter(literal.value));
      case 'Number':
        return this.numberComparison(left, operator, literal.value, numericKind(node.field, ref, this.#context.operation));
      case 'Boolean':
        if (operator !== '=' && operator !== '!=') throw malformedAst(`operator ${operator} on a boolean`);
        return `${left} ${SQL_OPERATORS[operator]} ${this.parameter(this.bindBoolean(literal.value))}`;
      default:
        throw malformedAst(`unknown literal kind ${String((literal as { kind?: unknown }).kind)}`);
    }
  }

  /** A number comparison, with the exact integer rewrite for integer columns. */
  protected numberComparison(left: string, operator: ComparisonOperator, value: number, kind: NumericKind): string {
    if (!Number.isFinite(value)) throw malformedAst(`a number literal that is not finite (${String(value)})`);
    if (kind === 'integer') {
      const rewritten = rewriteIntegerComparison(operator, value);
      if (typeof rewritten === 'boolean') return this.constant(rewritten);
      return `${left} ${SQL_OPERATORS[rewritten.operator]} ${this.parameter(rewritten.value)}`;
    }
    return `${left} ${SQL_OPERATORS[operator]} ${this.numberParameter(this.parameter(value), value)}`;
  }

  /** `field [NOT] LIKE 'pattern'`. */
  protected likeCondition(node: Like): string {
    if (node.pattern?.kind !== 'String') throw malformedAst('a LIKE pattern that is not a string literal');
    const ref = resolveField(node.field, this.#context.columns, this.#context.array);
    this.refuseLoneSurrogate(node.pattern.value);
    this.checkText(node.pattern.value, 'like');
    return this.likeMatch(this.column(ref), node.pattern.value, node.negated === true);
  }

  /** Binds a value and returns its marker. */
  protected parameter(value: unknown): string {
    this.#values.push(value);
    return `\u0000${this.#values.length - 1}\u0000`;
  }

  /** Renders a resolved field. */
  protected column(ref: ColumnRef): string {
    switch (ref.kind) {
      case 'column':
        return ref.table === undefined ? this.identifier(ref.column) : `${this.identifier(ref.table)}.${this.identifier(ref.column)}`;
      case 'sql':
        this.refuseNul(ref.sql, 'a trusted SQL expression');
        return `(${ref.sql})`;
      case 'element':
        return this.arrayElement(this.column(ref.array), ref.position);
    }
  }

  /** A quoted identifier. */
  protected identifier(name: string): string {
    if (typeof name !== 'string' || name === '') throw invalidOption('columns', 'A column or table name must be a non-empty string');
    this.refuseNul(name, 'an identifier');
    return this.quoteIdentifier(name);
  }

  /** Raises {@link UnsupportedError} for this dialect. */
  protected unsupported(message: string): never {
    throw new UnsupportedError(this.dialect, message);
  }

  // A lone surrogate is not a character: a driver sends it to a UTF-8 database as U+FFFD, which
  // would select other rows than the evaluator, which keeps it as it is.
  private refuseLoneSurrogate(text: string): void {
    if (LONE_SURROGATE.test(text)) this.unsupported('a string literal cannot contain a lone surrogate (not valid Unicode)');
  }

  private refuseNul(text: string, what: string): void {
    if (text.includes('\u0000')) this.unsupported(`${what} cannot contain U+0000`);
  }

  // ---- Hooks: the differences between dialects. ----

  /** The placeholder of the index-th parameter (from 1), which binds `value`. */
  protected placeholder(_index: number, _value: unknown): string {
    return '?';
  }

  /** Quotes an identifier, doubling embedded quotes. */
  protected quoteIdentifier(name: string): string {
    return `"${name.replaceAll('"', '""')}"`;
  }

  /** A text comparison that must order by code point and compare case-sensitively. */
  protected compareText(left: string, operator: string, right: string): string {
    return `${left} ${operator} ${right}`;
  }

  /** Wraps a number placeholder whose literal is not known to suit an integer column. */
  protected numberParameter(placeholder: string, _value: number): string {
    return placeholder;
  }

  /** The value bound for a boolean literal. */
  protected bindBoolean(value: boolean): unknown {
    return value;
  }

  /** The escape character of {@link like}'s pattern. */
  protected readonly likeEscape: string = '!';

  /** The bound form of a filter-language LIKE pattern (only `%` is a wildcard). */
  protected likePattern(pattern: string): string {
    return escapeLikePattern(pattern, this.likeEscape);
  }

  /**
   * `left [NOT] LIKE pattern` for a filter-language pattern (only `%` is a wildcard), its parts
   * bound with {@link parameter}; a dialect may match a pattern of a simple shape another way.
   */
  protected likeMatch(left: string, pattern: string, negated: boolean): string {
    return this.like(left, this.parameter(this.likePattern(pattern)), negated);
  }

  /** A case-sensitive whole-value LIKE. */
  protected like(left: string, pattern: string, negated: boolean): string {
    return `${left} ${negated ? 'NOT LIKE' : 'LIKE'} ${pattern} ESCAPE '${this.likeEscape}'`;
  }

  /** Element `position` (from 1) of an array column. */
  protected arrayElement(array: string, position: number): string {
    return `(${array})[${position}]`;
  }

  /** A condition that always or never holds. */
  protected constant(value: boolean): string {
    return value ? '(1 = 1)' : '(1 = 0)';
  }

  /** Refuses text the dialect cannot compare or match exactly. */
  protected checkText(_value: string, _use: 'compare' | 'like'): void {}
}
