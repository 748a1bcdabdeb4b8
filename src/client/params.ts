/**
 * The parameters of a call, checked before it is sent with the shared parameter rules of
 * `catalogue/rules.ts` (the rules, codes and messages the server answers with), and encoded as a
 * query string. Nothing here names an operation or a field: the rules come from
 * `operations[op].params`.
 *
 * @module
 */
import { isOperationName, operations, type OperationName } from '../catalogue/operations.js';
import type { ParamSpec } from '../catalogue/parameters.js';
import { checkParameters, parameterIssue, returnedFields as fieldsReturned } from '../catalogue/rules.js';
import { ParameterError } from '../errors/filter-error.js';
import { sendAsWritten, type FilterEncoder } from './filter-param.js';

/** Parameters as plain data, before typing narrows them. @internal */
export type RawParams = Readonly<Record<string, unknown>>;

/**
 * Checks `params` against the operation's rules and returns the query to send, in catalogue order
 * (canonical values: a country in upper case, list items trimmed; lists comma-joined, the filter
 * as `encodeFilter` makes it: as written by default, in canonical text with `normalizeFilter`).
 * Throws `ParameterError` with the first broken rule (its `code` is the rule's code, as the
 * server names it in `details[].rule`), or `FilterError`.
 *
 * @example
 * ```ts
 * checkParams('links', { url: 'example.com', scope: 'ROOT_DOMAIN', fields: ['anchor'] }, Date.now(), normalizeFilter);
 * // URLSearchParams url=example.com&scope=ROOT_DOMAIN&fields=anchor
 * ```
 */
export function checkParams(operation: OperationName, params: RawParams, now: number, encodeFilter: FilterEncoder = sendAsWritten): URLSearchParams {
  if (!isOperationName(operation)) {
    const issue = parameterIssue.unknown_operation(operation);
    throw new ParameterError(issue.parameter, issue.rule, issue.message);
  }
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new ParameterError('params', 'invalid_type', `The parameters must be an object, not ${Array.isArray(params) ? 'an array' : String(params)}.`);
  }
  const { values, issues } = checkParameters(operation, params, { currentMonth: currentMonth(now) });
  const first = issues[0];
  if (first !== undefined) throw new ParameterError(first.parameter, first.rule, first.message);
  const query = new URLSearchParams();
  for (const name of Object.keys(operations[operation].params)) {
    const value = values[name];
    if (value === undefined) continue;
    const wire = name === 'filter' ? encodeFilter(operation, value, values) : Array.isArray(value) ? value.join(',') : String(value);
    if (wire !== undefined) query.set(name, wire);
  }
  return query;
}

/** The month {@link currentMonth} computed last, and the span of time it covers: one `Date` a month, not one a call. */
let lastMonth: { readonly text: string; readonly from: number; readonly to: number } | undefined;

/** `YYYY-MM` of the current month, UTC. @internal */
export function currentMonth(now: number): string {
  if (lastMonth !== undefined && now >= lastMonth.from && now < lastMonth.to) return lastMonth.text;
  const date = new Date(now);
  const text = date.toISOString().slice(0, 7);
  // Only whole years 0-9999 print as `YYYY-MM`; other dates are not kept.
  if (/^\d{4}-\d{2}$/.test(text)) {
    const from = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
    const to = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
    lastMonth = { text, from, to };
  }
  return text;
}

/** The fields a call returns: its `fields`, else the operation's default list, else every field. @internal */
export function returnedFields(operation: OperationName, params: RawParams): readonly string[] {
  const fields = params['fields'];
  const specs = operations[operation].params as Readonly<Record<string, ParamSpec>>;
  return fieldsReturned(operation, 'fields' in specs && Array.isArray(fields) ? (fields as string[]) : undefined);
}
