/**
 * Validation of a filter against one operation's fields: unknown fields (with a suggestion),
 * operators and literals that do not fit the field's type, the timestamp literal rule, indexes,
 * and the structural limits of ASTs built in code.
 *
 * @module
 */
import type { Condition, Field, FilterNode, Literal, Span } from '../ast/nodes.js';
import { isOperationName, MAX_MATRIX_TARGETS, operations, type OperationName } from '../catalogue/operations.js';
import type { FieldType, RecordSpec } from '../catalogue/records.js';
import { ParameterError } from '../errors/filter-error.js';
import { finishIssues } from '../errors/format.js';
import type { FilterIssue, IssueDraft } from '../errors/issue.js';
import { assertFilterNode } from '../ast/shape.js';
import { resolveLimits, type Limits } from './limits.js';
import { didYouMean, suggest } from '../shared/suggest.js';
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
      `Unknown operation ${JSON.stringify(operation)}${didYouMean(hint)}`,
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
  return validateConditionsOf(checkTargetOptions(options.operation, options.targets), options.targets, conditions, text, whole);
}

/**
 * {@link validateConditions} for an operation and a target count already checked by
 * {@link checkTargetOptions}, adding the issues to `issues`; it stops once it has added
 * `maxIssues` of them.
 * @internal
 */
export function validateConditionsOf(
  name: OperationName,
  targets: number | undefined,
  conditions: readonly Condition[],
  text: string,
  whole: FilterNode | undefined,
  issues: IssueDraft[] = [],
  maxIssues = Number.POSITIVE_INFINITY,
): IssueDraft[] {
  const operation = operations[name];
  if (!operation.filter) {
    const span = text.length > 0 ? { offset: 0, length: text.length } : (whole?.span ?? { offset: 0, length: 0 });
    issues.push({ code: 'filter_not_allowed', ...span, expected: name });
    return issues;
  }
  const table = tableOf(operation.record);
  const maxIndex = targets ?? MAX_MATRIX_TARGETS;
  const enough = issues.length + maxIssues;
  for (let i = 0; i < conditions.length && issues.length < enough; i++) {
    checkCondition(conditions[i]!, table, maxIndex, text, issues);
  }
  return issues;
}

/** What a condition on one field may be: looked up once per condition, built once per record. */
interface FieldRule {
  /** The field's name. */
  readonly name: string;
  /** The field's type. */
  readonly type: FieldType;
  /** The type of the value compared: an element's for `integer[]` (compared by index), else `type`. */
  readonly valueType: FieldType;
  /** The kind of literal a comparison needs, `undefined` when the field cannot be compared. */
  readonly literal: Literal['kind'] | undefined;
}

/** The fields of one record. */
interface FieldTable {
  /**
   * The rules by the length of the name, then in record order. Names in a parsed filter are new
   * strings every time: a `Map` would hash each one first, where comparing it with the two or
   * three names of its length settles it sooner.
   */
  readonly byLength: readonly (readonly FieldRule[] | undefined)[];
  /** Every field name, in record order (for did-you-mean and the list of known fields). */
  readonly names: readonly string[];
  /** `names` joined, as `unknown_field` lists them. */
  readonly list: string;
}

/** The rule of the field named `name`, `undefined` for a name the record does not have. */
function ruleOf(table: FieldTable, name: string): FieldRule | undefined {
  const candidates = name.length < table.byLength.length ? table.byLength[name.length] : undefined;
  if (candidates === undefined) return undefined;
  for (let i = 0; i < candidates.length; i++) {
    if (candidates[i]!.name === name) return candidates[i];
  }
  return undefined;
}

const FIELD_TABLES = new WeakMap<RecordSpec, FieldTable>();

/** The record and table of the last lookup: a run of filters for one operation skips the WeakMap. */
let lastRecord: RecordSpec | undefined;
let lastTable: FieldTable | undefined;

function tableOf(record: RecordSpec): FieldTable {
  if (record === lastRecord) return lastTable!;
  let table = FIELD_TABLES.get(record);
  if (table === undefined) {
    const names = Object.freeze(Object.keys(record));
    const byLength: FieldRule[][] = [];
    for (const name of names) {
      const type = record[name]!.type;
      const valueType: FieldType = type === 'integer[]' ? 'integer' : type;
      (byLength[name.length] ??= []).push(Object.freeze({ name, type, valueType, literal: LITERAL_FOR[valueType] }));
    }
    // A dense array (no holes): reads of the lengths no name has stay on the fast path.
    const dense = Array.from({ length: byLength.length }, (_, length) => (byLength[length] ? Object.freeze(byLength[length]) : undefined));
    table = Object.freeze({ byLength: Object.freeze(dense), names, list: names.join(', ') });
    FIELD_TABLES.set(record, table);
  }
  lastRecord = record;
  lastTable = table;
  return table;
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

function checkCondition(condition: Condition, table: FieldTable, maxIndex: number, text: string, issues: IssueDraft[]): void {
  const field = condition.field;
  const rule = ruleOf(table, field.name);
  if (rule === undefined) {
    const nameSpan = { offset: field.span.offset, length: Math.min(field.span.length, field.name.length) || field.span.length };
    const suggestion = suggest(field.name, table.names);
    issues.push({ code: 'unknown_field', ...nameSpan, field: field.name, expected: table.list, ...(suggestion ? { suggestion } : {}) });
    return;
  }
  if (rule.type === 'integer[]') {
    if (field.index === null) {
      issues.push({ code: 'index_required', ...field.span, field: field.name });
      return;
    }
    // Integer check for ASTs built in code: `[1.5]` cannot come from text but can from `field()`.
    if (!(Number.isInteger(field.index) && field.index >= 1 && field.index <= maxIndex)) {
      issues.push({ code: 'index_out_of_range', ...indexSpan(field.span, field.name, text), field: field.name, expected: String(maxIndex) });
      return;
    }
  } else if (field.index !== null) {
    issues.push({ code: 'index_not_allowed', ...indexSpan(field.span, field.name, text), field: field.name });
    return;
  }
  const type = rule.valueType;
  if (condition.kind === 'Like') {
    if (type !== 'string' && type !== 'timestamp') {
      issues.push({ code: 'operator_not_allowed', ...operatorSpan(condition, text), field: labelOf(field), expected: TYPE_NAMES[type] });
    }
    return;
  }
  const allowed = rule.literal;
  if (allowed === undefined || (type === 'boolean' && condition.operator !== '=' && condition.operator !== '!=')) {
    issues.push({ code: 'operator_not_allowed', ...operatorSpan(condition, text), field: labelOf(field), expected: TYPE_NAMES[type] });
    return;
  }
  const value = condition.value;
  if (value.kind !== allowed) {
    issues.push({ code: 'literal_type_mismatch', ...value.span, field: labelOf(field), expected: EXPECTED_LITERAL[allowed] });
    return;
  }
  if (type === 'timestamp' && value.kind === 'String' && !isTimestampLiteral(value.value)) {
    issues.push({ code: 'invalid_timestamp', ...value.span, field: labelOf(field), expected: 'YYYY-MM-DDTHH:MM:SS or a prefix of it' });
  }
}

/** The field as issues name it: `name`, or `name[n]` with its index. */
const labelOf = (field: Field): string => (field.index === null ? field.name : `${field.name}[${field.index}]`);

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

