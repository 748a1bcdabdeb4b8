/**
 * backlink-query: the filter language of the Backlink and Keyword Data Service, its catalogue,
 * and the tools built on them.
 *
 * @example
 * ```ts
 * import { parseFilter, printFilter } from 'backlink-query';
 * const filter = parseFilter("domain_score > 50 AND anchor LIKE '%seo%'", { operation: 'links' });
 * printFilter(filter); // "domain_score > 50 AND anchor LIKE '%seo%'"
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
} from './ast/nodes.js';
export { COMPARISON_OPERATORS, NO_SPAN } from './ast/nodes.js';
export { and, booleanLiteral, comparison, field, like, numberLiteral, or, stringLiteral } from './ast/factories.js';
export { nodesEqual, stripSpans, visit, type FilterVisitor } from './ast/visitor.js';

export {
  operations,
  OPERATION_NAMES,
  MAX_MATRIX_TARGETS,
  isOperationName,
  type FieldName,
  type FilterableOperation,
  type OperationName,
  type Operations,
  type OperationSpec,
  type Price,
} from './catalogue/operations.js';
export type { FieldSpec, FieldType, RecordSpec } from './catalogue/records.js';
export type { FieldTypeOf, FieldsOfType, FieldValueTypes, RecordSpecOf, RowOf, ValueOfType } from './catalogue/types.js';
export { COUNTRIES, ALL_SCOPES, NARROW_SCOPES, type ParamSpec } from './catalogue/parameters.js';

export { ISSUE_CODES, type FilterIssue, type IssueCode } from './errors/issue.js';
export { FilterError, isFilterError, ParameterError, isParameterError } from './errors/filter-error.js';
export { formatIssues } from './errors/format.js';

export { parseFilter, safeParseFilter, type ParseOptions, type ParseResult } from './syntax/parse.js';
export { validateFilter, checkTargetOptions, type TargetOptions, type ValidateOptions } from './validate/validate.js';
export { DEFAULT_LIMITS, type Limits } from './validate/limits.js';
export { isTimestampLiteral } from './validate/timestamp.js';
export { printFilter, printNumber, printString } from './print/printer.js';
