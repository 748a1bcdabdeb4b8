/**
 * The typed client of the Backlink and Keyword Data Service (`backlink-query/client`). Web
 * standard APIs only: runs in Node 20+, Deno, Bun and browsers.
 *
 * @example
 * ```ts
 * import { createClient } from 'backlink-query/client';
 * const client = createClient({ apiKey: 'KEY', baseUrl: 'https://api.example.com' });
 * for await (const row of client.paginate.refDomains({ url: 'example.com', scope: 'ROOT_DOMAIN' }, { maxRows: 500 })) {
 *   console.log(row.domain, row.domain_score);
 * }
 * ```
 *
 * @module
 */
export { createClient, type Client, type ClientOptions } from './client.js';
export type { AnyResult } from './call.js';
export type { ValidationMode } from './query.js';
export { estimateUnits, unitsOf } from './units.js';
export { decodeCsv } from './decode.js';
export {
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
  type ApiErrorKind,
  type ErrorEnvelope,
  type ErrorDetail,
  type ErrorKind,
} from './errors.js';
export { ERROR_KINDS, kindOfType, kindOfStatus } from '../catalogue/errors.js';
export { BALANCE_PATH, type BalanceResponse } from '../catalogue/balance.js';
export {
  DEFAULT_RETRY_POLICY,
  backoffDelay,
  parseRetryAfter,
  resolveRetryPolicy,
  sleep,
  type RetryPolicy,
  type Timing,
} from './retry.js';
export { DEFAULT_RATE_LIMIT, type RateLimit } from './limiter.js';
export { FilterError, isFilterError, ParameterError, isParameterError } from '../errors/filter-error.js';
export type {
  CallOptions,
  CsvResult,
  DataOf,
  DefaultRow,
  FilterBuilderLike,
  FilterInput,
  JsonResult,
  ListOperation,
  MethodName,
  NoExtra,
  OperationMethod,
  OperationMethods,
  PageParamsOf,
  PaginateMethod,
  PaginateOptions,
  PaginationEnd,
  Paginators,
  ParamSpecsOf,
  ParamsOf,
  RequiredKeys,
  ResponseMeta,
  ResultOf,
  RowFor,
  SelectedFields,
  Simplify,
  ValueOfParam,
} from './types.js';
