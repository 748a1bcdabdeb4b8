/**
 * Which exit code each kind of error gives, as a table, and the one-line description printed
 * for it on stderr.
 *
 * @module
 * @internal
 */
import { isApiError, type ApiError, type HttpError } from '../client/errors.js';
import { isFilterError, isParameterError } from '../errors/filter-error.js';
import { isUsageError } from './args.js';
import { EXIT } from './command.js';
import { isRefusedError } from './refused.js';
import { describeHttpFailure, sentence } from '../client/failure-text.js';

/** Exit code of each client error kind. */
const API_ERROR_EXIT: Readonly<Record<ApiError['kind'], number>> = {
  http: EXIT.failure,
  network: EXIT.unavailable,
  timeout: EXIT.unavailable,
  abort: EXIT.failure,
  'response-shape': EXIT.unavailable,
  budget: EXIT.refused,
};

/** The exit code for an error a command threw. @internal */
export function exitCodeOf(error: unknown): number {
  if (isUsageError(error) || isParameterError(error)) return EXIT.usage;
  if (isFilterError(error)) return EXIT.failure;
  if (isRefusedError(error)) return EXIT.refused;
  if (isApiError(error)) {
    // A 5xx that survived the retries means the service is unavailable, not that the input is wrong.
    if (error.kind === 'http' && (error as ApiError & { status: number }).status >= 500) return EXIT.unavailable;
    return API_ERROR_EXIT[error.kind];
  }
  return EXIT.internal;
}

/**
 * A one-line description of an error; for a filter, every issue with a caret; for a call the
 * service refused, one line per detail of its answer. @internal
 */
export function describeError(error: unknown): string {
  // A filter's issues quote the user's text, which is printed as it is.
  if (isFilterError(error)) return error.message;
  if (isApiError(error) && error.kind === 'http') return describeHttpFailure(error as HttpError);
  return sentence(error instanceof Error ? error.message : String(error));
}
