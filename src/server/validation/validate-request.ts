/**
 * The server's request validation, framework-agnostic: query parameters in, typed parameters or
 * the 400 envelope out. The query's texts are read into values, which the shared parameter rules
 * of `catalogue/rules.ts` check (the client checks its values with the same rules, codes and
 * messages); then the filter is parsed. Every problem is reported at once.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { isOperationName, operations, type OperationName, type OperationSpec } from '../../catalogue/operations.js';
import { checkParameters, defaultValue, parameterIssue, type ParameterIssue, type RuleContext } from '../../catalogue/rules.js';
import { formatTimestamp } from '../clock.js';
import { errorEnvelope, type ErrorDetail, type ErrorEnvelope } from '../errors.js';
import { readWireValue } from './param-rules.js';
import { checkFilter, returnedFieldList } from './cross-checks.js';
import type { RequestParams } from './request-params.js';

/**
 * The largest `limit` accepted by default.
 *
 * @example
 * ```ts
 * validateRequest('links', { url: 'a.com', scope: 'PAGE', limit: String(DEFAULT_MAX_LIMIT) }).ok; // true
 * ```
 */
export const DEFAULT_MAX_LIMIT = 10_000;

/** A raw query: what a framework's query parser yields (repeated names become arrays). */
export type RawQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Options of {@link validateRequest}. */
export interface ValidateRequestOptions {
  /** The request id for the error envelope (default: a new UUID). */
  readonly requestId?: string;
  /** The server's clock (default: now); bounds months by the current month. */
  readonly now?: Date;
  /** The largest `limit` (default 10,000). */
  readonly maxLimit?: number;
  /**
   * The page documenting the error kinds, the `type` of the envelope without its anchor (default
   * `/errors`, the page the reference server serves; give an absolute URL of your own docs).
   */
  readonly docsUrl?: string;
}

/**
 * The error docs page `validateRequest` names by default.
 *
 * @example
 * ```ts
 * validateRequest('links', {}).body?.error.type; // '/errors#invalid_request'
 * ```
 */
export const DEFAULT_ERROR_DOCS_URL = '/errors';

/**
 * The top-level message of a 400: the issue itself when there is one, else how many and the first.
 *
 * @example
 * ```ts
 * invalidRequestMessage([{ parameter: 'limit', rule: 'too_large', message: 'limit must be at most 10000.' }]); // 'limit must be at most 10000.'
 * ```
 */
export function invalidRequestMessage(issues: readonly ErrorDetail[]): string {
  if (issues.length === 1) return issues[0]!.message;
  return `The request has ${issues.length} invalid parameter values; the first: ${issues[0]!.message}`;
}

/** The result of {@link validateRequest}. */
export type ValidationResult =
  | { readonly ok: true; readonly params: RequestParams }
  | { readonly ok: false; readonly status: 400; readonly body: ErrorEnvelope };

/**
 * Validates the query parameters of one operation exactly as the reference server does.
 *
 * @example
 * ```ts
 * const result = validateRequest('links', { url: 'example.com', scope: 'ROOT_DOMAIN', limit: '5' });
 * if (result.ok) result.params.limit; // 5
 * else reply.code(result.status).send(result.body);
 * ```
 */
export function validateRequest(operation: OperationName | string, query: RawQuery, options: ValidateRequestOptions = {}): ValidationResult {
  const requestId = options.requestId ?? randomUUID();
  const docsUrl = options.docsUrl ?? DEFAULT_ERROR_DOCS_URL;
  const ctx: RuleContext = { currentMonth: formatTimestamp(options.now ?? new Date()).slice(0, 7), maxLimit: options.maxLimit ?? DEFAULT_MAX_LIMIT };
  if (!isOperationName(operation)) {
    const detail = parameterIssue.unknown_operation(operation);
    return { ok: false, status: 400, body: errorEnvelope(requestId, 400, detail.message, [detail], docsUrl) };
  }
  const spec: OperationSpec = operations[operation];
  const { given, reported, wireIssues } = readQuery(spec, query);
  const checked = checkParameters(operation, given, ctx, { reported });
  const issues: ErrorDetail[] = inCatalogueOrder(spec, [...wireIssues, ...checked.issues]);
  // The filter is parsed even when other parameters are wrong, so every problem is reported at once.
  const params = assemble(operation, spec, checked.values, ctx, issues);
  if (issues.length > 0) return { ok: false, status: 400, body: errorEnvelope(requestId, 400, invalidRequestMessage(issues), issues, docsUrl) };
  return { ok: true, params };
}

/**
 * The query's texts as the values the shared rules check. What only text can get wrong is
 * reported here: a name given twice, an integer not written in digits.
 */
function readQuery(spec: OperationSpec, query: RawQuery): { given: Record<string, unknown>; reported: Set<string>; wireIssues: ParameterIssue[] } {
  const given: Record<string, unknown> = {};
  const reported = new Set<string>();
  const wireIssues: ParameterIssue[] = [];
  for (const [name, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    const rule = Object.prototype.hasOwnProperty.call(spec.params, name) ? spec.params[name] : undefined;
    if (rule === undefined) {
      given[name] = raw; // reported as unknown by the shared rules
    } else if (typeof raw !== 'string') {
      wireIssues.push(parameterIssue.repeated_parameter(name));
      reported.add(name);
    } else if (raw.length > 0) {
      const read = readWireValue(name, rule, raw);
      if ('issue' in read) {
        wireIssues.push(read.issue);
        reported.add(name);
      } else {
        given[name] = read.value;
      }
    }
  }
  return { given, reported, wireIssues };
}

/** Issues by parameter: unknown names first (in query order), then the catalogue's order. */
function inCatalogueOrder(spec: OperationSpec, issues: readonly ParameterIssue[]): ParameterIssue[] {
  const names = Object.keys(spec.params);
  const rank = (issue: ParameterIssue): number => names.indexOf(issue.parameter);
  return issues.map((issue, i) => ({ issue, i })).sort((a, b) => rank(a.issue) - rank(b.issue) || a.i - b.i).map(({ issue }) => issue);
}

/** Defaults, the fields to return in record order, and the filter parsed for the operation. */
function assemble(operation: OperationName, spec: OperationSpec, values: Readonly<Record<string, unknown>>, ctx: RuleContext, issues: ErrorDetail[]): RequestParams {
  const get = (name: string): unknown => {
    const rule = spec.params[name];
    return values[name] ?? (rule === undefined ? undefined : defaultValue(rule, ctx));
  };
  const fields = returnedFieldList(spec, values['fields'] as string[] | undefined);
  const urls = values['urls'] as string[] | undefined;
  const filter = checkFilter(operation, values['filter'] as string | undefined, urls?.length, issues);
  const params: Record<string, unknown> = { operation, format: get('format') ?? 'json', fields: fields.list, fieldsGiven: fields.given, ...filter };
  for (const name of Object.keys(spec.params)) {
    if (name === 'fields' || name === 'filter' || name === 'format') continue;
    const value = get(name);
    if (value !== undefined) params[name] = value;
  }
  return params as unknown as RequestParams;
}
