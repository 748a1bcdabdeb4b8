/**
 * Frozen node factories. `and` and `or` flatten nested groups of the same kind and collapse a
 * single operand, so every AST they build is already in the shape the parser produces.
 *
 * @module
 */
import type {
  And,
  BooleanLiteral,
  Comparison,
  ComparisonOperator,
  Field,
  FilterNode,
  Like,
  Literal,
  NumberLiteral,
  Or,
  Span,
  StringLiteral,
} from './nodes.js';
import { NO_SPAN } from './nodes.js';
import { ParameterError } from '../errors/filter-error.js';

/**
 * A string literal node.
 *
 * @example
 * ```ts
 * stringLiteral("it's"); // { kind: 'String', value: "it's", span: { offset: 0, length: 0 } }
 * ```
 */
export function stringLiteral(value: string, span: Span = NO_SPAN): StringLiteral {
  return Object.freeze({ kind: 'String', value, span });
}

/**
 * A number literal node; `-0` becomes `0`.
 *
 * @example
 * ```ts
 * numberLiteral(50).value; // 50
 * ```
 */
export function numberLiteral(value: number, span: Span = NO_SPAN): NumberLiteral {
  return Object.freeze({ kind: 'Number', value: value === 0 ? 0 : value, span });
}

/**
 * A boolean literal node.
 *
 * @example
 * ```ts
 * booleanLiteral(true).value; // true
 * ```
 */
export function booleanLiteral(value: boolean, span: Span = NO_SPAN): BooleanLiteral {
  return Object.freeze({ kind: 'Boolean', value, span });
}

/**
 * A field reference, with an optional 1-based index (`backlinks_counts[1]`).
 *
 * @example
 * ```ts
 * field('domain_score'); // { kind: 'Field', name: 'domain_score', index: null, ... }
 * field('backlinks_counts', 2);
 * ```
 */
export function field(name: string, index: number | null = null, span: Span = NO_SPAN): Field {
  return Object.freeze({ kind: 'Field', name, index, span });
}

/**
 * A comparison node.
 *
 * @example
 * ```ts
 * comparison(field('domain_score'), '>', numberLiteral(50));
 * ```
 */
export function comparison(
  fieldNode: Field,
  operator: ComparisonOperator,
  value: Literal,
  span: Span = NO_SPAN,
): Comparison {
  return Object.freeze({ kind: 'Comparison', field: fieldNode, operator, value, span });
}

/**
 * A LIKE or NOT LIKE node.
 *
 * @example
 * ```ts
 * like(field('anchor'), stringLiteral('%seo%'));
 * like(field('anchor'), stringLiteral('%seo%'), true); // NOT LIKE
 * ```
 */
export function like(fieldNode: Field, pattern: StringLiteral, negated = false, span: Span = NO_SPAN): Like {
  return Object.freeze({ kind: 'Like', field: fieldNode, negated, pattern, span });
}

function group<K extends 'And' | 'Or'>(kind: K, operands: readonly FilterNode[], span: Span): FilterNode {
  const flat: FilterNode[] = [];
  for (const operand of operands) {
    // One push per operand: spreading a large nested group into push(...) overflows the stack.
    if (operand.kind === kind) for (const inner of (operand as And | Or).operands) flat.push(inner);
    else flat.push(operand);
  }
  if (flat.length === 0) throw new ParameterError('operands', 'invalid_value', `${kind} needs at least one operand.`);
  if (flat.length === 1) return flat[0]!;
  return Object.freeze({ kind, operands: Object.freeze(flat), span }) as And | Or;
}

/**
 * A conjunction; nested conjunctions are flattened and a single operand is returned as it is.
 *
 * @example
 * ```ts
 * and([a, and([b, c])]); // And with operands [a, b, c]
 * ```
 */
export function and(operands: readonly FilterNode[], span: Span = NO_SPAN): FilterNode {
  return group('And', operands, span);
}

/**
 * A disjunction; nested disjunctions are flattened and a single operand is returned as it is.
 *
 * @example
 * ```ts
 * or([a, or([b, c])]); // Or with operands [a, b, c]
 * ```
 */
export function or(operands: readonly FilterNode[], span: Span = NO_SPAN): FilterNode {
  return group('Or', operands, span);
}
