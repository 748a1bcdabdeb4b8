/**
 * The server's request validation, framework-agnostic: query parameters in, typed parameters or
 * the 400 envelope out. Every rule comes from the catalogue; every problem is reported at once.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { isOperationName, operations, type OperationName, type OperationSpec } from '../../catalogue/operations.js';
import { suggest } from '../../validate/suggest.js';
import { formatTimestamp } from '../clock.js';
import { errorEnvelope, type ErrorDetail, type ErrorEnvelope } from '../errors.js';
import { checkParam, type RuleContext } from './param-rules.js';
import { checkFields, checkFilter, checkOrderBy, checkRange, checkTargets } from './cross-checks.js';
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
  if (!isOperationName(operation)) {
    const detail = { parameter: 'operation', code: 'unknown_operation', message: `Unknown operation ${JSON.stringify(operation)}.` };
    return { ok: false, status: 400, body: errorEnvelope(requestId, 400, 'The request is invalid.', [detail]) };
  }
  const spec: OperationSpec = operations[operation];
  const ctx = { currentMonth: formatTimestamp(options.now ?? new Date()).slice(0, 7), maxLimit: options.maxLimit ?? DEFAULT_MAX_LIMIT };
  const issues: ErrorDetail[] = [];
  const values = readParams(spec, query, ctx, issues);
  const params = assemble(operation, spec, values, ctx.currentMonth, issues);
  if (issues.length > 0) {
    const message = `The request has ${issues.length} invalid parameter value${issues.length === 1 ? '' : 's'}.`;
    return { ok: false, status: 400, body: errorEnvelope(requestId, 400, message, issues) };
  }
  return { ok: true, params };
}

/** Unknown and repeated names, required ones, and each value against its rule. */
function readParams(spec: OperationSpec, query: RawQuery, ctx: Omit<RuleContext, 'parameter'>, issues: ErrorDetail[]): Map<string, unknown> {
  const known = Object.keys(spec.params);
  for (const name of Object.keys(query)) {
    if (known.includes(name) || query[name] === undefined) continue;
    const hint = suggest(name, known);
    issues.push({ parameter: name, code: 'unknown_parameter', message: `Unknown parameter ${name}${hint ? `; did you mean ${hint}?` : '.'}`, ...(hint ? { suggestion: hint } : {}) });
  }
  const values = new Map<string, unknown>();
  for (const [name, rule] of Object.entries(spec.params)) {
    const raw = query[name];
    if (Array.isArray(raw)) {
      issues.push({ parameter: name, code: 'repeated_parameter', message: `${name} may be given only once.` });
      continue;
    }
    const text = typeof raw === 'string' && raw.length > 0 ? raw : undefined;
    if (text === undefined) {
      if (rule.required) issues.push({ parameter: name, code: 'required', message: `${name} is required.` });
      continue;
    }
    const checked = checkParam(rule, text, { ...ctx, parameter: name });
    if ('issues' in checked) issues.push(...checked.issues);
    else values.set(name, checked.value);
  }
  return values;
}

/** Defaults, and the checks that depend on several parameters. */
function assemble(operation: OperationName, spec: OperationSpec, values: Map<string, unknown>, currentMonth: string, issues: ErrorDetail[]): RequestParams {
  const defaults: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(spec.params)) {
    if ('default' in rule && rule.default !== undefined && rule.kind !== 'fields') defaults[name] = rule.default;
  }
  if (operation === 'metrics') defaults['month'] = currentMonth;
  if ('date_to' in spec.params) defaults['date_to'] = currentMonth;
  const get = (name: string): unknown => (values.has(name) ? values.get(name) : defaults[name]);
  const fields = checkFields(spec, values.get('fields') as string | undefined, issues);
  const orderBy = checkOrderBy(spec, values.get('order_by') as string | undefined, fields, issues);
  checkTargets(values, issues);
  checkRange(values.get('date_from') as string | undefined, get('date_to') as string | undefined, issues);
  const urls = values.get('urls') as string[] | undefined;
  const filter = checkFilter(operation, values.get('filter') as string | undefined, urls?.length, issues);
  const params: Record<string, unknown> = { operation, format: get('format') ?? 'json', fields: fields.list, fieldsGiven: fields.given, ...filter };
  for (const name of Object.keys(spec.params)) {
    if (name === 'fields' || name === 'filter' || name === 'format') continue;
    const value = name === 'order_by' ? orderBy : get(name);
    if (value !== undefined) params[name] = value;
  }
  return params as unknown as RequestParams;
}
