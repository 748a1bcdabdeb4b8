/**
 * The filter language alone (`backlink-query/filter`): parse and validate filter text, print an
 * AST back to canonical text, build and walk ASTs, and report issues. No client, SQL, evaluator or
 * builder: this is the entry to import where only the language is needed (a form that checks a
 * filter as it is typed, a service of your own that accepts filters). It is also what the client
 * loads, on the first call with a filter, when it validates filters locally.
 *
 * The parsers are built on first use, not when the entry is imported.
 *
 * @example
 * ```ts
 * import { safeParseFilter, printFilter, formatIssues } from 'backlink-query/filter';
 * const text = "domain_score>50 and anchor like '%seo%'";
 * const result = safeParseFilter(text, { operation: 'links' });
 * console.log(result.ok ? printFilter(result.filter) : formatIssues(result.issues, text));
 * ```
 *
 * @module
 */
export type {
  And,
  BooleanLiteral,
  Comparison,
  ComparisonOperator,
  Condition,
  Field,
  FilterNode,
  Like,
  Literal,
  Node,
  NodeKind,
  NumberLiteral,
  Or,
  Span,
  StringLiteral,
} from '../ast/nodes.js';
export { COMPARISON_OPERATORS, NO_SPAN } from '../ast/nodes.js';
export { and, booleanLiteral, comparison, field, like, numberLiteral, or, stringLiteral } from '../ast/factories.js';
export { nodesEqual, stripSpans, visit, type FilterVisitor } from '../ast/visitor.js';

export { ISSUE_CODES, type FilterIssue, type IssueCode } from '../errors/issue.js';
export { FilterError, isFilterError, ParameterError, isParameterError } from '../errors/filter-error.js';
export { formatIssues, MAX_FORMATTED_ISSUES, SOURCE_WINDOW, type FormatOptions } from '../errors/format.js';

export { parseFilter, safeParseFilter, type ParseOptions, type ParseResult } from '../syntax/parse.js';
export { validateFilter, checkTargetOptions, type TargetOptions, type ValidateOptions } from '../validate/validate.js';
export { DEFAULT_LIMITS, type Limits } from '../validate/limits.js';
export { isTimestampLiteral } from '../validate/timestamp.js';
export { printFilter, printNumber, printString, type PrintOptions } from '../print/printer.js';
