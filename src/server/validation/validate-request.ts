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
import { DEFAULT_MAX_LIMIT } from '../../catalogue/parameters.js';
import { checkParameters, defaultValue, parameterIssue, type ParameterIssue, type RuleContext } from '../../catalogue/rules.js';
import { formatTimestamp } from '../clock.js';
import { errorEnvelope, type ErrorDetail, type ErrorEnvelope } from '../errors.js';
import { readWireValue } from './param-rules.js';
import { badEscapesOf } from './query-string.js';
import { checkFilter, returnedFieldList } from './cross-checks.js';
import type { RequestParams } from './request-params.js';

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
  /**
   * The request's `Accept` header. Without a `format` parameter, an operation with a CSV form
   * answers CSV when `Accept` ranks `text/csv` above `application/json` (with a higher quality);
   * a `format` parameter always wins.
   */
  readonly accept?: string | undefined;
  /**
   * Parameters whose percent-escapes did not decode to UTF-8, each with its first bad escape as
   * written (rule `bad_encoding`). Default: what `parseQueryString` recorded, when it
   * parsed `query`.
   */
  readonly badEscapes?: ReadonlyMap<string, string>;
}

/**
 * Whether an `Accept` header asks for CSV rather than JSON: `text/csv` named with a quality above
 * 0 and above that of `application/json` (absent: 0). Wildcards (`*\/*`, `text/*`) name neither;
 * a tie keeps JSON, the default.
 *
 * @example
 * ```ts
 * prefersCsv('text/csv');                          // true
 * prefersCsv('text/csv, application/json');        // false (a tie: JSON)
 * prefersCsv('application/json;q=0.5, text/csv');  // true
 * ```
 */
export function prefersCsv(accept: string): boolean {
  let csv = 0;
  let json = 0;
  for (const range of accept.split(',')) {
    const [type = '', ...parameters] = range.split(';');
    const media = type.trim().toLowerCase();
    if (media !== 'text/csv' && media !== 'application/json') continue;
    const q = parameters.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)).find(Boolean);
    const quality = q ? Number(q[1]) : 1;
    if (!(quality >= 0 && quality <= 1)) continue;
    if (media === 'text/csv') csv = Math.max(csv, quality);
    else json = Math.max(json, quality);
  }
  return csv > 0 && csv > json;
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
 * The most details a 400 lists. Past them (or past {@link MAX_DETAILS_BYTES}), one last detail,
 * rule `more_issues`, says how many more there are, so the answer stays small whatever the
 * request: a query of thousands of unknown names, a filter with hundreds of errors.
 */
export const MAX_LISTED_ISSUES = 20;

/** The most bytes of details (as JSON) a 400 lists; the first detail is listed whatever its size. */
export const MAX_DETAILS_BYTES = 16 * 1024;

/**
 * How many issues of a filter the server looks for: the filter language stops there (its
 * `maxIssues`), so a filter's errors cost a bounded amount of work to refuse.
 */
export const MAX_FILTER_ISSUES = MAX_LISTED_ISSUES;

/** Unknown parameter names longer than this are cut in the answer (`…` at the end). */
const MAX_NAME_SHOWN = 100;

/**
 * The top-level message of a 400: the issue itself when there is one, else how many and the first.
 * `more` counts issues found but not among `issues`; `atLeast` says the count is a lower bound
 * (a filter checked up to its first {@link MAX_FILTER_ISSUES} issues).
 *
 * @example
 * ```ts
 * invalidRequestMessage([{ parameter: 'limit', rule: 'too_large', message: 'limit must be at most 10000.' }]); // 'limit must be at most 10000.'
 * ```
 */
export function invalidRequestMessage(issues: readonly ErrorDetail[], more = 0, atLeast = false): string {
  const count = issues.length + more;
  if (count === 1 && !atLeast) return issues[0]!.message;
  return `The request has ${atLeast ? 'at least ' : ''}${count} invalid parameter value${count === 1 ? '' : 's'}; the first: ${issues[0]!.message}`;
}

/**
 * The details a 400 lists: at most {@link MAX_LISTED_ISSUES} and {@link MAX_DETAILS_BYTES}, then one
 * detail counting the rest (`more` found beyond `issues`; with `atLeast`, perhaps more).
 */
function listedDetails(issues: readonly ErrorDetail[], more: number, atLeast: boolean): ErrorDetail[] {
  const listed: ErrorDetail[] = [];
  let bytes = 0;
  for (const issue of issues) {
    if (listed.length === MAX_LISTED_ISSUES) break;
    bytes += JSON.stringify(issue).length;
    if (listed.length > 0 && bytes > MAX_DETAILS_BYTES) break;
    listed.push(issue);
  }
  const rest = issues.length - listed.length + more;
  if (rest === 0 && !atLeast) return listed;
  const message =
    rest === 0
      ? `The filter may have more issues: the server looks for its first ${MAX_FILTER_ISSUES} only.`
      : `And ${atLeast ? 'at least ' : ''}${rest} more issue${rest === 1 ? '' : 's'}, not listed${atLeast ? ` (the server looks for the first ${MAX_FILTER_ISSUES} issues of a filter only)` : ''}.`;
  return [...listed, { rule: 'more_issues', message, count: rest }];
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
  const { given, reported, wireIssues, unknownNotRead } = readQuery(spec, query, ctx.maxLimit, options.badEscapes ?? badEscapesOf(query));
  const checked = checkParameters(operation, given, ctx, { reported });
  const issues: ErrorDetail[] = inCatalogueOrder(spec, [...wireIssues, ...checked.issues]);
  // The filter is parsed even when other parameters are wrong, so every problem is reported at once.
  const { params, filterTruncated } = assemble(operation, spec, checked.values, ctx, issues, options.accept);
  if (issues.length > 0) {
    const message = invalidRequestMessage(issues, unknownNotRead, filterTruncated);
    return { ok: false, status: 400, body: errorEnvelope(requestId, 400, message, listedDetails(issues, unknownNotRead, filterTruncated), docsUrl) };
  }
  return { ok: true, params };
}

/**
 * The query's texts as the values the shared rules check. What only text can get wrong is
 * reported here: a name given twice, a value whose escapes do not decode, an integer not written
 * in digits. Of the names the operation does not take, the first {@link MAX_LISTED_ISSUES} + 1
 * are checked (each gets a did-you-mean), the others only counted (`unknownNotRead`).
 */
function readQuery(
  spec: OperationSpec,
  query: RawQuery,
  maxLimit: number | undefined,
  badEscapes: ReadonlyMap<string, string>,
): { given: Record<string, unknown>; reported: Set<string>; wireIssues: ParameterIssue[]; unknownNotRead: number } {
  // No prototype: a parameter named `__proto__` is a name like any other (reported as unknown),
  // where assigning it on a plain object would set the object's prototype and drop it.
  const given: Record<string, unknown> = Object.create(null);
  const reported = new Set<string>();
  const wireIssues: ParameterIssue[] = [];
  let unknown = 0;
  let unknownNotRead = 0;
  for (const [name, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    const rule = Object.prototype.hasOwnProperty.call(spec.params, name) ? spec.params[name] : undefined;
    const badEscape = badEscapes.get(name);
    if (rule === undefined) {
      // Reported as unknown by the shared rules; a long name by its start only.
      const shown = name.length > MAX_NAME_SHOWN ? `${name.slice(0, MAX_NAME_SHOWN)}…` : name;
      if (unknown++ > MAX_LISTED_ISSUES || shown in given) unknownNotRead++;
      else given[shown] = raw;
    } else if (typeof raw !== 'string') {
      wireIssues.push(parameterIssue.repeated_parameter(name));
      reported.add(name);
    } else if (badEscape !== undefined) {
      // The text as written is not the value meant: it is not read at all.
      wireIssues.push(parameterIssue.bad_encoding(name, badEscape));
      reported.add(name);
    } else if (raw.length > 0) {
      const read = readWireValue(name, rule, raw, maxLimit);
      if ('issue' in read) {
        wireIssues.push(read.issue);
        reported.add(name);
      } else {
        given[name] = read.value;
      }
    }
  }
  return { given, reported, wireIssues, unknownNotRead };
}

/** Issues by parameter: unknown names first (in query order), then the catalogue's order. */
function inCatalogueOrder(spec: OperationSpec, issues: readonly ParameterIssue[]): ParameterIssue[] {
  const names = Object.keys(spec.params);
  const rank = (issue: ParameterIssue): number => names.indexOf(issue.parameter);
  return issues.map((issue, i) => ({ issue, i })).sort((a, b) => rank(a.issue) - rank(b.issue) || a.i - b.i).map(({ issue }) => issue);
}

/** Defaults, the fields to return in record order, and the filter parsed for the operation. */
function assemble(
  operation: OperationName,
  spec: OperationSpec,
  values: Readonly<Record<string, unknown>>,
  ctx: RuleContext,
  issues: ErrorDetail[],
  accept: string | undefined,
): { params: RequestParams; filterTruncated: boolean } {
  const get = (name: string): unknown => {
    const rule = spec.params[name];
    return values[name] ?? (rule === undefined ? undefined : defaultValue(rule, ctx));
  };
  const fields = returnedFieldList(spec, values['fields'] as string[] | undefined);
  const urls = values['urls'] as string[] | undefined;
  const { truncated: filterTruncated, ...filter } = checkFilter(operation, values['filter'] as string | undefined, urls?.length, issues, MAX_FILTER_ISSUES);
  // An explicit format wins; without one, Accept may ask for CSV where the operation has it.
  const format = values['format'] ?? (spec.csv && accept !== undefined && prefersCsv(accept) ? 'csv' : (get('format') ?? 'json'));
  const params: Record<string, unknown> = { operation, format, fields: fields.list, fieldsGiven: fields.given, ...filter };
  for (const name of Object.keys(spec.params)) {
    if (name === 'fields' || name === 'filter' || name === 'format') continue;
    const value = get(name);
    if (value !== undefined) params[name] = value;
  }
  return { params: params as unknown as RequestParams, filterTruncated };
}
