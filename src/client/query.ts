/**
 * The query string of a call, checked where the client's `validation` option says. `'local'`
 * (the default): the parameters go through the shared parameter rules (`params.ts`) and the
 * filter through the filter language (`local-filter.ts`), each loaded with `import()` on the
 * first call that needs it. `'server'`: the values are sent as given and the service checks them;
 * neither is ever loaded. Either way neither is in the client's bundle: a bundler puts each in a
 * chunk of its own, fetched only when used.
 *
 * @module
 * @internal
 */
import { isOperationName, operations, type OperationName } from '../catalogue/operations.js';
import { ParameterError } from '../errors/filter-error.js';
import { lazy } from '../shared/lazy.js';
import { isBlank, isBuilder, isFilterNode, sendAsWritten, type FilterEncoder } from './filter-param.js';
import type { RawParams } from './params.js';

/**
 * Where a call's parameters and filter are checked: `'local'`, by the client before anything is
 * sent (the default), or `'server'`, only by the service.
 */
export type ValidationMode = 'local' | 'server';

/** The validation modes {@link createClient} accepts. @internal */
export const VALIDATION_MODES: readonly ValidationMode[] = ['local', 'server'];

/** Parser, validator and printer: the whole filter language. */
const localEncoder = lazy<FilterEncoder>(() => import('./local-filter.js').then((m) => m.normalizeFilter));
/** The printer only, for ASTs and builder results sent unchecked. */
const printingEncoder = lazy<FilterEncoder>(() => import('./printed-filter.js').then((m) => m.printedFilter));

/**
 * The encoder for the filter of one call, loading what it needs on first use. Calls without a
 * filter, on operations that take none, or with blank text load nothing; so does text with
 * `'server'` validation.
 *
 * @internal
 */
export function filterEncoderFor(validation: ValidationMode, operation: OperationName, params: unknown): FilterEncoder | Promise<FilterEncoder> {
  const value = typeof params === 'object' && params !== null ? (params as Record<string, unknown>)['filter'] : undefined;
  if (value === undefined || value === null || !isOperationName(operation) || !operations[operation].filter) return sendAsWritten;
  if (typeof value === 'string') return validation === 'local' && !isBlank(value) ? localEncoder() : sendAsWritten;
  // Not a filter at all: sendAsWritten says so, once the other parameters have been checked.
  if (!isFilterNode(value) && !isBuilder(value)) return sendAsWritten;
  return validation === 'local' ? localEncoder() : printingEncoder();
}

/** The parameter rules, loaded on the first call with local validation. */
const loadCheckedQuery = lazy(() => import('./params.js').then((m) => m.checkedQuery));

/**
 * Starts loading what local validation needs for every call (the parameter rules, a few KB), so
 * that a client's first call does not wait for it; the filter language is loaded only by a call
 * with a filter. A failed load is left for that call to report.
 *
 * @internal
 */
export function preloadChecks(): void {
  const loading = loadCheckedQuery();
  if (typeof loading !== 'function') loading.catch(() => undefined);
}

/**
 * The query text of a call (`url=example.com&scope=ROOT_DOMAIN`), checked as `mode` says; a
 * promise only while a checker is still loading. Throws (or rejects with) `ParameterError` or
 * `FilterError` before anything is sent.
 *
 * @internal
 */
export function queryFor(mode: ValidationMode, operation: OperationName, params: RawParams, now: number): string | Promise<string> {
  const encoder = filterEncoderFor(mode, operation, params);
  if (mode === 'server') {
    return typeof encoder === 'function' ? uncheckedQuery(operation, params, encoder).toString() : encoder.then((loaded) => uncheckedQuery(operation, params, loaded).toString());
  }
  const check = loadCheckedQuery();
  if (typeof check === 'function' && typeof encoder === 'function') return check(operation, params, now, encoder);
  return Promise.all([check, encoder]).then(([checkQuery, encode]) => checkQuery(operation, params, now, encode));
}

const isAbsent = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * The query of a call as given: the operation's parameters in catalogue order, then any other
 * names (the service answers those with `unknown_parameter`); lists comma-joined; absent values
 * (`undefined`, `null`, `''`, `[]`) left out, as the rules treat them. Only what stops a request
 * from being built at all is refused here: an unknown operation, parameters that are not an object.
 *
 * @example
 * ```ts
 * uncheckedQuery('links', { url: 'example.com', scope: 'ROOT_DOMAIN', fields: ['anchor'], limit: 5 }, sendAsWritten);
 * // url=example.com&scope=ROOT_DOMAIN&fields=anchor&limit=5
 * ```
 * @internal
 */
export function uncheckedQuery(operation: OperationName, params: RawParams, encodeFilter: FilterEncoder): URLSearchParams {
  if (!isOperationName(operation)) throw new ParameterError('operation', 'unknown_operation', `Unknown operation ${JSON.stringify(operation)}.`);
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new ParameterError('params', 'invalid_type', `The parameters must be an object, not ${Array.isArray(params) ? 'an array' : String(params)}.`);
  }
  const known = operations[operation].params as RawParams;
  const has = (name: string) => Object.prototype.hasOwnProperty.call(known, name);
  const query = new URLSearchParams();
  for (const name of [...Object.keys(known), ...Object.keys(params).filter((name) => !has(name))]) {
    const value = params[name];
    if (isAbsent(value)) continue;
    const wire = name === 'filter' && has(name) ? encodeFilter(operation, value, params) : Array.isArray(value) ? value.join(',') : String(value);
    if (wire !== undefined) query.set(name, wire);
  }
  return query;
}
