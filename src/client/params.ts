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
import { checkParameters, isAbsent, parameterIssue, returnedFields as fieldsReturned } from '../catalogue/rules.js';
import { ParameterError } from '../errors/filter-error.js';
import { sendAsWritten, type FilterEncoder } from './filter-param.js';
import { BoundedCache, ENTRY_BYTES, textBytes } from '../shared/bounded-cache.js';

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
  return new URLSearchParams(queryText(checkCall(operation, params, now), operation, params, encodeFilter));
}

/** A call's parameters, checked: all of them but its filter, which is checked on its own. */
interface CheckedCall {
  /** The query text of the parameters before the filter's place in catalogue order. */
  readonly before: string;
  /** The query text of the parameters after the filter's place. */
  readonly after: string;
  /** The canonical values, the filter left out: what the filter encoder reads (the number of targets). */
  readonly values: Readonly<Record<string, unknown>>;
  /** The operation takes a filter. */
  readonly filtered: boolean;
  /** The filter text sent last with these parameters, and the query text it was sent in (see {@link checkedQuery}). */
  last?: { readonly filter: string; readonly query: string };
}

/** Checks every parameter of a call but its filter; throws `ParameterError` with the first broken rule. */
function checkCall(operation: OperationName, params: RawParams, now: number): CheckedCall {
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
  const parts = { before: new URLSearchParams(), after: new URLSearchParams() };
  let part = parts.before;
  let filtered = false;
  const rest: Record<string, unknown> = {};
  for (const name of Object.keys(operations[operation].params)) {
    if (name === 'filter') {
      filtered = true;
      part = parts.after;
      continue;
    }
    const value = values[name];
    if (value === undefined) continue;
    rest[name] = value;
    part.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  return { before: parts.before.toString(), after: parts.after.toString(), values: rest, filtered };
}

/**
 * The query text of a checked call with its filter (the rules take a filter left out as none).
 * Filter text is checked once per text in a row: the same text as last time gets the same query.
 */
function queryText(call: CheckedCall, operation: OperationName, params: RawParams, encodeFilter: FilterEncoder): string {
  const filter = call.filtered ? params['filter'] : undefined;
  if (isAbsent(filter)) return joinQuery(call.before, call.after);
  if (typeof filter !== 'string') return withFilter(call, encodeFilter(operation, filter, call.values));
  if (call.last?.filter === filter) return call.last.query;
  const query = withFilter(call, encodeFilter(operation, filter, call.values));
  call.last = { filter, query };
  return query;
}

/** The query text of a checked call with the text its filter is sent as (`undefined`: none). */
const withFilter = (call: CheckedCall, wire: string | undefined): string =>
  joinQuery(wire === undefined ? call.before : joinQuery(call.before, new URLSearchParams({ filter: wire }).toString()), call.after);

const joinQuery = (a: string, b: string): string => (a === '' ? b : b === '' ? a : `${a}&${b}`);

/** Calls with more text than this are checked each time rather than kept. */
const MAX_KEY_LENGTH = 8192;
/** The estimated bytes of a kept call: its key, the query text made of it, and the last filter sent with it and its query (four times the key's, say). */
const callBytes = (_call: CheckedCall, key: string): number => ENTRY_BYTES + 4 * textBytes(key);

/**
 * Calls checked before with local validation, by operation and parameters (the filter aside): the
 * most recently used, within the estimated bytes of 256 calls of the longest kept, of the current
 * month only (a month is `too_late` until it comes). A call is kept only when it passed (a mistake
 * is found again, and throws again) and every value but the filter is plain data: text, a number,
 * a boolean, a list of texts.
 */
const checkedCalls = new BoundedCache<string, CheckedCall>(256 * (ENTRY_BYTES + 8 * MAX_KEY_LENGTH), callBytes);
let checkedMonth = '';

/**
 * The query text of a call with local validation, as {@link checkParams} makes it with
 * `encodeFilter`, which must be the encoder the client picks for the call's filter (one encoder
 * per filter value, so the parameters decide it). Parameters checked before (the same call again,
 * or with another filter) are looked up rather than checked again, and so is the filter when its
 * text is the one sent last with them; a new filter is checked alone.
 *
 * @example
 * ```ts
 * checkedQuery('links', { url: 'example.com', scope: 'ROOT_DOMAIN', fields: ['anchor'] }, Date.now(), sendAsWritten);
 * // 'url=example.com&scope=ROOT_DOMAIN&fields=anchor'
 * ```
 * @internal
 */
export function checkedQuery(operation: OperationName, params: RawParams, now: number, encodeFilter: FilterEncoder): string {
  const month = currentMonth(now);
  if (month !== checkedMonth) {
    checkedCalls.clear();
    checkedMonth = month;
  }
  const key = callKey(operation, params);
  let call = key === undefined ? undefined : checkedCalls.get(key);
  if (call === undefined) {
    call = checkCall(operation, params, now);
    if (key !== undefined && key.length <= MAX_KEY_LENGTH) {
      checkedCalls.set(key, call);
    }
  }
  return queryText(call, operation, params, encodeFilter);
}

/**
 * A text that differs between any two calls the rules may answer differently, the filter aside:
 * `10` and `'10'` differ, while a value left out, `undefined`, `null`, `''` and `[]` do not (the
 * rules take each as left out). `undefined` for a call not kept: a value that is not plain data, a
 * name the operation does not take (the rules refuse it), or `params` not a plain object (the rules
 * would read inherited values not seen here). Names have neither `;` nor `=` (a unit test checks
 * the catalogue's) and each text says its length, so no key can pass for another.
 */
function callKey(operation: OperationName, params: RawParams): string | undefined {
  if (typeof params !== 'object' || params === null || !isOperationName(operation)) return undefined;
  const proto: unknown = Object.getPrototypeOf(params);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const specs = operations[operation].params;
  let key: string = operation;
  for (const name in params) {
    const value = params[name];
    // The rules pass over any name whose value is undefined.
    if (value === undefined) continue;
    if (!Object.prototype.hasOwnProperty.call(specs, name)) return undefined;
    if (name === 'filter' || isAbsent(value)) continue;
    const text = valueKey(value);
    if (text === undefined) return undefined;
    key += `;${name}=${text}`;
  }
  return key;
}

/** One value of {@link callKey}: its type, and its text with its length. */
function valueKey(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return `s${value.length}:${value}`;
    case 'number':
      // No number prints with a `;`. -0 reads as 0, as the rules read it.
      return `n${value};`;
    case 'boolean':
      return value ? 't' : 'f';
    case 'object': {
      if (!Array.isArray(value)) return undefined;
      let key = `a${value.length};`;
      for (const item of value as unknown[]) {
        if (typeof item !== 'string') return undefined;
        key += `${item.length}:${item}`;
      }
      return key;
    }
    default:
      return undefined;
  }
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
