/**
 * The `filter` parameter, without the filter language: how a call's filter becomes the text it
 * sends, and which code that takes. Text sent unchecked needs nothing; an AST or a builder result
 * needs the printer; local validation needs the parser and the validator. The last two are loaded
 * with `import()` on the first call that needs them, so a bundle of the client carries neither
 * unless it is used (a bundler puts them in chunks of their own).
 *
 * @module
 * @internal
 */
import type { FilterNode } from '../ast/nodes.js';
import { isOperationName, operations, type OperationName } from '../catalogue/operations.js';
import { ParameterError } from '../errors/filter-error.js';
import type { ValidationMode } from './query.js';
import type { FilterBuilderLike } from './types.js';

/**
 * Turns the checked `filter` value of a call into the text to send; `undefined` for no filter.
 * Throws `FilterError` (local validation) or `ParameterError` (not a filter at all).
 *
 * @internal
 */
export type FilterEncoder = (operation: OperationName, value: unknown, params: Readonly<Record<string, unknown>>) => string | undefined;

const FILTER_KINDS = new Set(['Or', 'And', 'Comparison', 'Like']);

/** Whether `value` is a filter node (by its kind; the printer and validator check the rest). @internal */
export function isFilterNode(value: unknown): value is FilterNode {
  return typeof value === 'object' && value !== null && FILTER_KINDS.has((value as { kind?: unknown }).kind as string);
}

/** Whether `value` has a `toAst()`, as results of the filter builder do. @internal */
export function isBuilder(value: unknown): value is FilterBuilderLike {
  return typeof value === 'object' && value !== null && typeof (value as { toAst?: unknown }).toAst === 'function';
}

/** The interface treats a text that is empty or only white space as no filter. */
const isBlank = (text: string) => /^[ \t\r\n]*$/.test(text);

/** The error of a `filter` that is neither text, nor an AST, nor a builder result. @internal */
export const notAFilter = () => new ParameterError('filter', 'invalid_type', 'filter must be filter text, a filter AST, or an object with toAst().');

/**
 * Filter text sent as the caller wrote it, unchecked (the service checks it); blank text is no
 * filter. Only text reaches it: anything else goes to an encoder that prints.
 *
 * @internal
 */
export const sendAsWritten: FilterEncoder = (_operation, value) => {
  if (typeof value !== 'string') throw notAFilter();
  return isBlank(value) ? undefined : value;
};

/**
 * An `import()` done once, on first need: the loaded function itself once it is there (no await
 * on later calls), the pending load until then; a failed load is tried again by the next call.
 *
 * @internal
 */
export function lazy<F extends (...args: never[]) => unknown>(load: () => Promise<F>): () => F | Promise<F> {
  let loaded: F | undefined;
  let loading: Promise<F> | undefined;
  return () =>
    loaded ??
    (loading ??= load().then(
      (encoder) => (loaded = encoder),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
}

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
