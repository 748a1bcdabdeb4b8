/**
 * The canonical printer: one text per AST, as the language page's "Canonical text" part says.
 *
 * @module
 */
import type { And, Field, FilterNode, Literal, Or } from '../ast/nodes.js';
import { assertFilterNode } from '../ast/shape.js';
import { visit, type FilterVisitor } from '../ast/visitor.js';
import { ParameterError } from '../errors/filter-error.js';

/**
 * A number in the shortest form that reads back to the same double, never with an exponent.
 *
 * @example
 * ```ts
 * printNumber(1e-7); // '0.0000001'
 * printNumber(-0);   // '0'
 * printNumber(NaN);  // throws ParameterError
 * ```
 */
export function printNumber(value: number): string {
  if (!Number.isFinite(value)) {
    throw new ParameterError('value', 'invalid_value', `Cannot print the number ${value} in a filter: only finite numbers have a filter text.`);
  }
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

/**
 * The shorter of a string literal in single and in double quotes (single on a tie): a value full
 * of `'` is written in double quotes, where `'` needs no escape.
 *
 * @example
 * ```ts
 * printShortestString("it's"); // "it's"  (as filter text: 6 characters instead of 7)
 * ```
 */
export function printShortestString(value: string): string {
  let singles = 0;
  let doubles = 0;
  for (const c of value) {
    if (c === "'") singles++;
    else if (c === '"') doubles++;
  }
  return doubles < singles ? `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"` : printString(value);
}

/** Options of {@link printFilter}. */
export interface PrintOptions {
  /**
   * `'single'` (default, the canonical text): every string in single quotes. `'shortest'`: each
   * string in the quotes that need fewer escapes, so the text is never longer than needed (what the
   * client sends).
   */
  readonly quotes?: 'single' | 'shortest';
}

const printLiteral = (literal: Literal, quote: (value: string) => string): string =>
  literal.kind === 'String' ? quote(literal.value) : literal.kind === 'Number' ? printNumber(literal.value) : String(literal.value);

const printField = (field: Field): string => (field.index === null ? field.name : `${field.name}[${field.index}]`);

/** What is left to print: a node (with the kind of its parent group) or finished text. @internal */
type Task = string | { readonly node: FilterNode; readonly parent: FilterNode['kind'] | undefined };

/** The printer's state: the output so far and the tasks left, last first. */
interface Frame {
  readonly out: string[];
  readonly tasks: Task[];
  readonly parent: FilterNode['kind'] | undefined;
  readonly quote: (value: string) => string;
}

/** Schedules a group's operands with their separator; an Or inside an And needs parentheses. */
function pushGroup(node: And | Or, frame: Frame, separator: string, parenthesize: boolean): void {
  if (parenthesize) frame.tasks.push(')');
  for (let i = node.operands.length - 1; i >= 0; i--) {
    frame.tasks.push({ node: node.operands[i]!, parent: node.kind });
    if (i > 0) frame.tasks.push(separator);
  }
  if (parenthesize) frame.tasks.push('(');
}

// Groups schedule their operands instead of recursing, so no tree is too deep to print.
const printer: FilterVisitor<void, Frame> = {
  Or: (node, frame) => pushGroup(node, frame, ' OR ', frame.parent === 'And'),
  And: (node, frame) => pushGroup(node, frame, ' AND ', false),
  Comparison: (node, frame) => {
    frame.out.push(`${printField(node.field)} ${node.operator} ${printLiteral(node.value, frame.quote)}`);
  },
  Like: (node, frame) => {
    frame.out.push(`${printField(node.field)} ${node.negated ? 'NOT LIKE' : 'LIKE'} ${frame.quote(node.pattern.value)}`);
  },
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
export function printFilter(node: FilterNode, options: PrintOptions = {}): string {
  const quote = options.quotes === 'shortest' ? printShortestString : printString;
  const out: string[] = [];
  const tasks: Task[] = [{ node, parent: undefined }];
  while (tasks.length > 0) {
    const task = tasks.pop()!;
    if (typeof task === 'string') {
      out.push(task);
      continue;
    }
    assertFilterNode(task.node);
    visit(printer, task.node, { out, tasks, parent: task.parent, quote });
  }
  return out.join('');
}
