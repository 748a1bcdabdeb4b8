/**
 * Which exit code each kind of error gives, as a table, and the one-line description printed
 * for it on stderr.
 *
 * @module
 * @internal
 */
import { isApiError, type ApiError } from '../client/errors.js';
import { isFilterError, isParameterError } from '../errors/filter-error.js';
import { UsageError } from './args.js';
import { EXIT } from './command.js';
import { RefusedError } from './refused.js';

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
  if (error instanceof UsageError || isParameterError(error)) return EXIT.usage;
  if (isFilterError(error)) return EXIT.failure;
  if (error instanceof RefusedError) return EXIT.refused;
  if (isApiError(error)) {
    // A 5xx that survived the retries means the service is unavailable, not that the input is wrong.
    if (error.kind === 'http' && (error as ApiError & { status: number }).status >= 500) return EXIT.unavailable;
    return API_ERROR_EXIT[error.kind];
  }
  return EXIT.internal;
}

/** A one-line (or, for filters, a caret-annotated) description of an error. @internal */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
