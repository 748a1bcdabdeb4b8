/**
 * Validation of a filter against one operation's fields: unknown fields (with a suggestion),
 * operators and literals that do not fit the field's type, the timestamp literal rule, indexes,
 * and the structural limits of ASTs built in code.
 *
 * @module
 */
import type { Condition, FilterNode, Literal, Span } from '../ast/nodes.js';
import { isOperationName, MAX_MATRIX_TARGETS, operations, type OperationName } from '../catalogue/operations.js';
import type { FieldType, RecordSpec } from '../catalogue/records.js';
import { ParameterError } from '../errors/filter-error.js';
import { finishIssues } from '../errors/format.js';
import type { FilterIssue, IssueDraft } from '../errors/issue.js';
import { assertFilterNode } from '../ast/shape.js';
import { resolveLimits, type Limits } from './limits.js';
import { suggest } from './suggest.js';
import { isTimestampLiteral } from './timestamp.js';

/** The operation a filter is meant for, and for matrix the number of targets. */
export interface TargetOptions {
  /** Operation name, the last segment of its path: `'links'`, `'ref-domains'`, `'matrix'`, ... */
  readonly operation: string;
  /** Number of targets (matrix `urls`), 1-6; when absent `backlinks_counts[n]` takes n up to 6. */
  readonly targets?: number | undefined;
}

/** Options of {@link validateFilter}. */
export interface ValidateOptions extends TargetOptions {
  readonly limits?: Partial<Limits>;
  /** The text the AST was parsed from, for line and column; without it spans are used as they are. */
  readonly text?: string;
}

/**
 * Checks the operation name and target count, which are the caller's parameters, not filter text.
 * Throws {@link ParameterError}.
 *
 * @example
 * ```ts
 * checkTargetOptions('matrix', 3); // 'matrix'
 * checkTargetOptions('matrix', 7); // throws ParameterError (parameter 'targets')
 * ```
 */
export function checkTargetOptions(operation: string, targets?: number): OperationName {
  if (typeof operation !== 'string') {
    throw new ParameterError('operation', 'unknown_operation', 'The operation must be given by its name, a string such as "links".');
  }
  if (!isOperationName(operation)) {
    const hint = suggest(operation, Object.keys(operations));
    throw new ParameterError(
      'operation',
      'unknown_operation',
      `Unknown operation ${JSON.stringify(operation)}${hint ? `; did you mean ${hint}?` : '.'}`,
    );
  }
  if (targets !== undefined && !(Number.isInteger(targets) && targets >= 1 && targets <= MAX_MATRIX_TARGETS)) {
    const rule = typeof targets !== 'number' ? 'invalid_type' : !Number.isInteger(targets) ? 'not_an_integer' : targets < 1 ? 'too_small' : 'too_large';
    throw new ParameterError('targets', rule, `The number of targets must be an integer from 1 to ${MAX_MATRIX_TARGETS}.`);
  }
  return operation;
}

/**
 * Validates an AST (parsed, or built in code) for one operation. Returns the issues, sorted by
 * offset; an empty array means the filter is valid for that operation.
 *
 * @example
 * ```ts
 * const issues = validateFilter(filter, { operation: 'matrix', targets: 2 });
 * if (issues.length > 0) console.log(issues.map((i) => i.code));
 * ```
 */
export function validateFilter(node: FilterNode, options: ValidateOptions): FilterIssue[] {
  checkTargetOptions(options.operation, options.targets);
  const limits = resolveLimits(options.limits);
  const text = options.text ?? '';
  const { conditions, structural } = walk(node, limits);
  const drafts = structural.length > 0 ? structural : [...checkNumbers(conditions), ...validateConditions(conditions, options, text, node)];
  return finishIssues(drafts, text);
}

/**
 * Number literals the text could never hold (built in code): not finite, or beyond 2^53 - 1.
 * Parsed text never needs this: the lexer already reports such numbers.
 */
function checkNumbers(conditions: readonly Condition[]): IssueDraft[] {
  const issues: IssueDraft[] = [];
  for (const condition of conditions) {
    if (condition.kind !== 'Comparison' || condition.value.kind !== 'Number') continue;
    const { value, span } = condition.value;
    if (!(Math.abs(value) <= Number.MAX_SAFE_INTEGER)) issues.push({ code: 'number_out_of_range', ...span });
  }
  return issues;
}

/** Field and type issues of the given conditions. @internal */
export function validateConditions(
  conditions: readonly Condition[],
  options: TargetOptions,
  text: string,
  whole?: FilterNode,
): IssueDraft[] {
  const name = checkTargetOptions(options.operation, options.targets);
  const operation = operations[name];
  if (!operation.filter) {
    const span = text.length > 0 ? { offset: 0, length: text.length } : (whole?.span ?? { offset: 0, length: 0 });
    return [{ code: 'filter_not_allowed', ...span, expected: name }];
  }
  const record: RecordSpec = operation.record;
  let names: string[] | undefined;
  const fieldNames = (): string[] => (names ??= Object.keys(record));
  const maxIndex = options.targets ?? MAX_MATRIX_TARGETS;
  const issues: IssueDraft[] = [];
  for (const condition of conditions) {
    checkCondition(condition, record, fieldNames, maxIndex, text, issues);
  }
  return issues;
}

const TYPE_NAMES: Readonly<Record<FieldType, string>> = {
  string: 'a string',
  timestamp: 'a timestamp',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  'integer[]': 'an integer array',
  'string[]': 'a string array',
};

const LITERAL_FOR: Readonly<Record<FieldType, Literal['kind'] | undefined>> = {
  string: 'String',
  timestamp: 'String',
  integer: 'Number',
  number: 'Number',
  boolean: 'Boolean',
  'integer[]': 'Number',
  'string[]': undefined,
};

const EXPECTED_LITERAL: Readonly<Record<Literal['kind'], string>> = {
  String: 'a string',
  Number: 'a number',
  Boolean: 'true or false',
};

function checkCondition(
  condition: Condition,
  record: RecordSpec,
  fieldNames: () => readonly string[],
  maxIndex: number,
  text: string,
  issues: IssueDraft[],
): void {
  const { field } = condition;
  const spec = Object.prototype.hasOwnProperty.call(record, field.name) ? record[field.name] : undefined;
  if (spec === undefined) {
    const nameSpan = { offset: field.span.offset, length: Math.min(field.span.length, field.name.length) || field.span.length };
    const suggestion = suggest(field.name, fieldNames());
    issues.push({ code: 'unknown_field', ...nameSpan, field: field.name, expected: fieldNames().join(', '), ...(suggestion ? { suggestion } : {}) });
    return;
  }
  let type: FieldType = spec.type;
  if (type === 'integer[]') {
    if (field.index === null) {
      issues.push({ code: 'index_required', ...field.span, field: field.name });
      return;
    }
    // Integer check for ASTs built in code: `[1.5]` cannot come from text but can from `field()`.
    if (!(Number.isInteger(field.index) && field.index >= 1 && field.index <= maxIndex)) {
      issues.push({ code: 'index_out_of_range', ...indexSpan(field.span, field.name, text), field: field.name, expected: String(maxIndex) });
      return;
    }
    type = 'integer';
  } else if (field.index !== null) {
    issues.push({ code: 'index_not_allowed', ...indexSpan(field.span, field.name, text), field: field.name });
    return;
  }
  const label = field.index === null ? field.name : `${field.name}[${field.index}]`;
  if (condition.kind === 'Like') {
    if (type !== 'string' && type !== 'timestamp') {
      issues.push({ code: 'operator_not_allowed', ...operatorSpan(condition, text), field: label, expected: TYPE_NAMES[type] });
    }
    return;
  }
  const allowed = LITERAL_FOR[type];
  if (allowed === undefined || (type === 'boolean' && condition.operator !== '=' && condition.operator !== '!=')) {
    issues.push({ code: 'operator_not_allowed', ...operatorSpan(condition, text), field: label, expected: TYPE_NAMES[type] });
    return;
  }
  if (condition.value.kind !== allowed) {
    issues.push({ code: 'literal_type_mismatch', ...condition.value.span, field: label, expected: EXPECTED_LITERAL[allowed] });
    return;
  }
  if (type === 'timestamp' && condition.value.kind === 'String' && !isTimestampLiteral(condition.value.value)) {
    issues.push({ code: 'invalid_timestamp', ...condition.value.span, field: label, expected: 'YYYY-MM-DDTHH:MM:SS or a prefix of it' });
  }
}

/** The `[n]` part of a field's span (from its `[`, past any white space), or the whole span when it cannot be told apart. */
function indexSpan(span: Span, name: string, text: string): Span {
  if (span.length <= name.length) return span;
  let start = span.offset + name.length;
  const end = span.offset + span.length;
  while (start < end && text.length > start && text[start] !== '[') start++;
  if (start >= end || text.length <= start) start = span.offset + name.length;
  return { offset: start, length: end - start };
}

/** The operator between the field and the value, trimmed of white space; the condition when unknown. */
function operatorSpan(condition: Condition, text: string): Span {
  const start = condition.field.span.offset + condition.field.span.length;
  const valueSpan = condition.kind === 'Like' ? condition.pattern.span : condition.value.span;
  const between = text.slice(start, valueSpan.offset);
  const trimmed = between.trim();
  if (text.length === 0 || trimmed.length === 0) return condition.span;
  return { offset: start + between.indexOf(trimmed[0]!), length: trimmed.length };
}

/** Conditions of an AST, and its structural issues (depth, number of conditions), without recursion. */
function walk(root: FilterNode, limits: Limits): { conditions: Condition[]; structural: IssueDraft[] } {
  const conditions: Condition[] = [];
  const structural: IssueDraft[] = [];
  const stack: { node: FilterNode; depth: number; parent: FilterNode['kind'] | undefined }[] = [{ node: root, depth: 0, parent: undefined }];
  let deepest = 0;
  while (stack.length > 0) {
    const { node, depth, parent } = stack.pop()!;
    assertFilterNode(node);
    if (node.kind === 'And' || node.kind === 'Or') {
      // Parentheses are needed where an Or sits inside an And: that is one level of nesting.
      const level = node.kind === 'Or' && parent === 'And' ? depth + 1 : depth;
      if (level > limits.maxDepth && level > deepest) {
        deepest = level;
        structural.push({ code: 'too_deep', ...node.span, expected: String(limits.maxDepth) });
      }
      if (structural.length > 0) continue;
      for (let i = node.operands.length - 1; i >= 0; i--) stack.push({ node: node.operands[i]!, depth: level, parent: node.kind });
    } else {
      conditions.push(node);
    }
  }
  if (structural.length === 0 && conditions.length > limits.maxConditions) {
    const first = conditions[limits.maxConditions]!;
    structural.push({ code: 'too_many_conditions', ...first.span, expected: String(limits.maxConditions) });
  }
  return { conditions, structural: structural.slice(0, 1) };
}

