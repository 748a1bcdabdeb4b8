/**
 * The canonical printer: one text per AST, as the language page's "Canonical text" part says.
 *
 * @module
 */
import type { Field, FilterNode, Literal } from '../ast/nodes.js';
import { visit, type FilterVisitor } from '../ast/visitor.js';

/**
 * A number in the shortest form that reads back to the same double, never with an exponent.
 *
 * @example
 * ```ts
 * printNumber(1e-7); // '0.0000001'
 * printNumber(-0);   // '0'
 * ```
 */
export function printNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`Cannot print the number ${value} in a filter.`);
  if (value === 0) return '0';
  const text = String(value);
  const e = text.indexOf('e');
  if (e === -1) return text;
  const sign = value < 0 ? '-' : '';
  const mantissa = text.slice(value < 0 ? 1 : 0, e).replace('.', '');
  const exponent = Number(text.slice(e + 1));
  const pointAt = (text[value < 0 ? 1 : 0] === '0' ? 0 : 1) + exponent;
  if (pointAt <= 0) return `${sign}0.${'0'.repeat(-pointAt)}${mantissa}`;
  if (pointAt >= mantissa.length) return `${sign}${mantissa}${'0'.repeat(pointAt - mantissa.length)}`;
  return `${sign}${mantissa.slice(0, pointAt)}.${mantissa.slice(pointAt)}`;
}

/**
 * A string literal in single quotes, with `'` and `\` escaped by a backslash.
 *
 * @example
 * ```ts
 * printString("it's C:\\"); // 'it\'s C:\\'  (as filter text)
 * ```
 */
export function printString(value: string): string {
  return `'${value.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

const printLiteral = (literal: Literal): string =>
  literal.kind === 'String' ? printString(literal.value) : literal.kind === 'Number' ? printNumber(literal.value) : String(literal.value);

const printField = (field: Field): string => (field.index === null ? field.name : `${field.name}[${field.index}]`);

const printer: FilterVisitor<string, FilterNode['kind'] | undefined> = {
  Or: (node, parent) => {
    const text = node.operands.map((o) => visit(printer, o, 'Or')).join(' OR ');
    return parent === 'And' ? `(${text})` : text;
  },
  And: (node) => node.operands.map((o) => visit(printer, o, 'And')).join(' AND '),
  Comparison: (node) => `${printField(node.field)} ${node.operator} ${printLiteral(node.value)}`,
  Like: (node) => `${printField(node.field)} ${node.negated ? 'NOT LIKE' : 'LIKE'} ${printString(node.pattern.value)}`,
};

/**
 * Prints an AST as canonical filter text: single spaces, upper-case keywords, lower-case
 * booleans, `!=` for `<>`, single-quoted strings, shortest numbers, and parentheses only
 * where an OR group sits inside an AND group.
 *
 * @example
 * ```ts
 * printFilter(parseFilter('a=1 or (B_2 like "x" and c <> 2)'));
 * // "a = 1 OR B_2 LIKE 'x' AND c != 2"
 * ```
 */
export function printFilter(node: FilterNode): string {
  return visit(printer, node, undefined);
}
