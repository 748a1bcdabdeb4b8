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
// The filter language (AST, parse, validate, print, issues) is the `backlink-query/filter` entry; the
// root re-exports it whole rather than listing its names a second time.
export * from './filter/index.js';
// Completion (editors, the playground, the MCP server) is in the root only: it adds Chevrotain's
// content assist to what `backlink-query/filter` carries.
export { complete, type Completion, type CompletionKind, type CompletionOptions } from './complete/index.js';

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
export { FIELD_DOCS, fieldDoc } from './catalogue/field-docs.js';
export {
  PARAMETER_RULES,
  PARAMETER_RULE_CODES,
  SERVICE_RULES,
  checkParameters,
  type ErrorRule,
  type ParameterRule,
  type ServiceRule,
  type ParameterIssue,
  type CheckParametersOptions,
  type CheckedParameters,
  type RuleContext,
} from './catalogue/rules.js';
export type { FieldTypeOf, FieldsOfType, FieldValueTypes, RecordSpecOf, RowOf, ValueOfType } from './catalogue/types.js';
export {
  COUNTRIES,
  ALL_SCOPES,
  NARROW_SCOPES,
  type ParamSpec,
  type StringParam,
  type StringListParam,
  type EnumParam,
  type IntegerParam,
  type MonthParam,
  type FieldsParam,
  type OrderByParam,
  type FilterParam,
} from './catalogue/parameters.js';

export { ISSUE_CODES, type FilterIssue, type IssueCode } from './errors/issue.js';
export { FilterError, isFilterError, ParameterError, isParameterError } from './errors/filter-error.js';
export { formatIssues } from './errors/format.js';

export { parseFilter, safeParseFilter, type ParseOptions, type ParseResult } from './syntax/parse.js';
export { validateFilter, checkTargetOptions, type TargetOptions, type ValidateOptions } from './validate/validate.js';
export { DEFAULT_LIMITS, type Limits } from './validate/limits.js';
export { isTimestampLiteral } from './validate/timestamp.js';
export { printFilter, printNumber, printString } from './print/printer.js';

export { compilePredicate, evaluateFilter, compareCodePoints, likeMatches, type PredicateOptions, type Row } from './evaluate/index.js';
export {
  toSql,
  dialects,
  FilterCompiler,
  UnsupportedError,
  isUnsupportedError,
  type SqlOptions,
  type CompiledSql,
  type ColumnMapping,
  type ArrayStorage,
  type Dialect,
  type DialectName,
  type CompileContext,
  type ColumnRef,
  type NumericKind,
} from './sql/index.js';

export * from './builder/index.js';

export {
  createClient,
  estimateUnits,
  unitsOf,
  decodeCsv,
  ApiError,
  isApiError,
  HttpError,
  NetworkError,
  TimeoutError,
  AbortError,
  ResponseShapeError,
  BudgetError,
  isHttpError,
  isNetworkError,
  isTimeoutError,
  isAbortError,
  isResponseShapeError,
  isBudgetError,
  DEFAULT_RETRY_POLICY,
  DEFAULT_RATE_LIMIT,
  backoffDelay,
  parseRetryAfter,
  resolveRetryPolicy,
  type Client,
  type ClientOptions,
  type ValidationMode,
  type ApiErrorKind,
  type ErrorEnvelope,
  type ErrorDetail,
  type ErrorKind,
  ERROR_KINDS,
  kindOfType,
  kindOfStatus,
  BALANCE_PATH,
  type BalanceResponse,
  type RetryPolicy,
  type Timing,
  type RateLimit,
  type CallOptions,
  type CsvResult,
  type DataOf,
  type DefaultRow,
  type FilterBuilderLike,
  type FilterInput,
  type JsonResult,
  type ListOperation,
  type MethodName,
  type OperationMethod,
  type OperationMethods,
  type PageParamsOf,
  type PaginateMethod,
  type PaginateOptions,
  type PaginationEnd,
  type Paginators,
  type ParamSpecsOf,
  type ParamsOf,
  type RequiredKeys,
  type ResponseMeta,
  type ResultOf,
  type RowFor,
  type SelectedFields,
  type Simplify,
  type ValueOfParam,
} from './client/index.js';
