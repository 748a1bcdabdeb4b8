/**
 * The `filter` parameter, without the filter language: what a call's filter may be (text, an AST,
 * a builder result) and the shape of the code that turns it into the text sent
 * ({@link FilterEncoder}). The encoders that need the language (the printer; the parser and the
 * validator) live in modules of their own, loaded by `query.ts` on first need.
 *
 * @module
 * @internal
 */
import type { FilterNode } from '../ast/nodes.js';
import type { OperationName } from '../catalogue/operations.js';
import { ParameterError } from '../errors/filter-error.js';
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
/** Whether filter text is blank (sent as no filter). @internal */
export const isBlank = (text: string) => /^[ \t\r\n]*$/.test(text);

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
