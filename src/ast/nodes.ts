/**
 * The filter AST: a small, JSON-serializable discriminated union. Every node carries the
 * {@link Span} of the text it came from; nodes built in code (the builder) carry an empty span.
 *
 * @module
 */

/** A place in the filter text: 0-based offset and length, in UTF-16 units. */
export interface Span {
  readonly offset: number;
  readonly length: number;
}

/**
 * The span of nodes that were not parsed from text.
 *
 * @example
 * ```ts
 * field('domain_score').span === NO_SPAN; // true
 * ```
 */
export const NO_SPAN: Span = Object.freeze({ offset: 0, length: 0 });

/**
 * Comparison operators, in canonical spelling (`<>` is parsed as `!=`).
 *
 * @example
 * ```ts
 * COMPARISON_OPERATORS.includes('<>' as never); // false: `<>` is printed as `!=`
 * ```
 */
export const COMPARISON_OPERATORS = ['=', '!=', '<', '<=', '>', '>='] as const;
/** A comparison operator. */
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];

/**
 * Every spelling of a comparison operator, to its canonical operator.
 *
 * @example
 * ```ts
 * OPERATOR_SPELLINGS['<>']; // '!='
 * ```
 */
export const OPERATOR_SPELLINGS: Readonly<Record<string, ComparisonOperator>> = Object.freeze({
  '=': '=',
  '!=': '!=',
  '<>': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
});

/** A string literal; `value` is the text after escapes are resolved. */
export interface StringLiteral {
  readonly kind: 'String';
  readonly value: string;
  readonly span: Span;
}
/** A number literal; `value` is a finite double whose magnitude is at most 2^53 - 1 (never -0). */
export interface NumberLiteral {
  readonly kind: 'Number';
  readonly value: number;
  readonly span: Span;
}
/** `true` or `false`. */
export interface BooleanLiteral {
  readonly kind: 'Boolean';
  readonly value: boolean;
  readonly span: Span;
}
/** Any literal. */
export type Literal = StringLiteral | NumberLiteral | BooleanLiteral;

/** A field reference, `name` or `name[index]`; `index` is `null` when absent. */
export interface Field {
  readonly kind: 'Field';
  readonly name: string;
  readonly index: number | null;
  readonly span: Span;
}

/** `field op literal`. */
export interface Comparison {
  readonly kind: 'Comparison';
  readonly field: Field;
  readonly operator: ComparisonOperator;
  readonly value: Literal;
  readonly span: Span;
}

/** `field [NOT] LIKE 'pattern'`. */
export interface Like {
  readonly kind: 'Like';
  readonly field: Field;
  readonly negated: boolean;
  readonly pattern: StringLiteral;
  readonly span: Span;
}

/** An n-ary conjunction (at least two operands, none of them an `And`). */
export interface And {
  readonly kind: 'And';
  readonly operands: readonly FilterNode[];
  readonly span: Span;
}

/** An n-ary disjunction (at least two operands, none of them an `Or`). */
export interface Or {
  readonly kind: 'Or';
  readonly operands: readonly FilterNode[];
  readonly span: Span;
}

/** A condition: the leaves of a filter. */
export type Condition = Comparison | Like;
/** Any node that is a whole filter or a part of one. */
export type FilterNode = Or | And | Condition;
/** Any AST node. */
export type Node = FilterNode | Field | Literal;
/** The `kind` of any node. */
export type NodeKind = Node['kind'];
