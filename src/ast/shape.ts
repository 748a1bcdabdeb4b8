/**
 * A shape check for ASTs handed to `validateFilter` and `printFilter` by JavaScript callers, who can pass
 * anything: what is not a filter node is the caller's mistake ({@link ParameterError}), never a
 * `TypeError` from deep inside the validator.
 *
 * @module
 * @internal
 */
import { COMPARISON_OPERATORS, type FilterNode } from './nodes.js';
import { ParameterError } from '../errors/filter-error.js';

type Loose = Partial<Record<string, unknown>>;

/**
 * The error of an AST no parser produces (an unknown node kind or operator, an order comparison
 * on a boolean, an index below 1, a LIKE pattern that is not a string, a number that is not
 * finite): the same {@link ParameterError} (`filter`, `invalid_value`) from every consumer of
 * the AST, whether it prints, validates, evaluates or lowers it to SQL.
 *
 * @example
 * ```ts
 * throw malformedAst('Unknown comparison operator ~');
 * ```
 * @internal
 */
export function malformedAst(problem: string): ParameterError {
  return new ParameterError('filter', 'invalid_value', `Not a filter AST as the parser builds it: ${problem}.`);
}

/**
 * The error of an option that is not one of its values (`mode`, `dialect`, a column mapping).
 *
 * @internal
 */
export function invalidOption(option: string, problem: string): ParameterError {
  return new ParameterError(option, 'invalid_value', `${problem}.`);
}

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null;

const hasSpan = (node: Loose): boolean =>
  isObject(node.span) && typeof node.span.offset === 'number' && typeof node.span.length === 'number';

const LITERAL_VALUE_TYPES: Readonly<Record<string, string>> = { String: 'string', Number: 'number', Boolean: 'boolean' };

function isLiteral(value: unknown, kind?: 'String'): boolean {
  if (!isObject(value) || !hasSpan(value) || (kind !== undefined && value.kind !== kind)) return false;
  const expected = LITERAL_VALUE_TYPES[String(value.kind)];
  return expected !== undefined && typeof value.value === expected;
}

function isField(value: unknown): boolean {
  return (
    isObject(value) &&
    value.kind === 'Field' &&
    typeof value.name === 'string' &&
    (value.index === null || typeof value.index === 'number') &&
    hasSpan(value)
  );
}

function isShallowFilterNode(node: Loose): boolean {
  if (!hasSpan(node)) return false;
  switch (node.kind) {
    case 'And':
    case 'Or':
      return Array.isArray(node.operands) && node.operands.length > 0;
    case 'Comparison':
      return isField(node.field) && (COMPARISON_OPERATORS as readonly unknown[]).includes(node.operator) && isLiteral(node.value);
    case 'Like':
      return isField(node.field) && typeof node.negated === 'boolean' && isLiteral(node.pattern, 'String');
    default:
      return false;
  }
}

/**
 * Throws {@link ParameterError} unless `node` has the shape of a filter node (its operands are
 * checked when the walker reaches them).
 *
 * @example
 * ```ts
 * assertFilterNode({ kind: 'Comparison', ... }); // passes
 * assertFilterNode(null); // throws ParameterError (parameter 'filter')
 * ```
 * @internal
 */
export function assertFilterNode(node: unknown): asserts node is FilterNode {
  if (isObject(node) && isShallowFilterNode(node)) return;
  throw new ParameterError(
    'filter',
    'invalid_value',
    'Not a filter AST: expected And, Or, Comparison or Like nodes as the node factories build them.',
  );
}
