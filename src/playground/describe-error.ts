/**
 * What a page says when a call fails: refused in the page before sending (a filter or parameter
 * mistake), refused by the service (its status, message and details: 400, 401, 402, 429...), or
 * not answered at all (the server down, a timeout). Shared by the playground and the target page.
 *
 * @module
 * @internal
 */
import { isApiError, isHttpError } from '../client/errors.js';
import { isFilterError, isParameterError } from '../errors/filter-error.js';
import { formatIssues } from '../errors/format.js';

/**
 * The text of a failed call, for people; `text` is the filter as typed (for the caret lines).
 *
 * @example
 * ```ts
 * describeError(error, 'domain_scor > 1'); // 'Not sent: the filter has issues.\n1:1 unknown_field: ...'
 * ```
 * @internal
 */
export function describeError(error: unknown, text: string): string {
  if (isFilterError(error)) return `Not sent: the filter has issues.\n${formatIssues(error.issues, text)}`;
  if (isParameterError(error)) return `Not sent: ${error.message}`;
  if (isHttpError(error)) return `HTTP ${error.status}: ${error.message}${error.details.map((d) => `\n  ${d.parameter ?? ''} ${d.rule}: ${d.message}`).join('')}`;
  if (isApiError(error)) return `${error.kind}: ${error.message}`;
  return String(error);
}
