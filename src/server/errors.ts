/**
 * The error model of the service: one envelope for every failure,
 * `{ meta: { request_id, status_code, success: false }, error: { code, message, retryable, details } }`.
 *
 * @module
 */

/** One detail of an error: for parameters, the parameter and the rule it broke. */
export interface ErrorDetail {
  /** The parameter at fault (`limit`, `filter`, ...), when there is one. */
  readonly parameter?: string;
  /** A stable snake_case code (`required`, `too_large`, `unknown_field`, ...). */
  readonly code: string;
  readonly message: string;
  /** Filter issues: 0-based offset and length (UTF-16 units), 1-based line and column. */
  readonly offset?: number;
  readonly length?: number;
  readonly line?: number;
  readonly column?: number;
  /** The closest known name, for unknown names. */
  readonly suggestion?: string;
  readonly [extra: string]: unknown;
}

/** The body of every error response. */
export interface ErrorEnvelope {
  readonly meta: { readonly request_id: string; readonly status_code: number; readonly success: false };
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly retryable: boolean;
    readonly details: readonly ErrorDetail[];
  };
}

/**
 * Top-level error codes by status.
 *
 * @example
 * ```ts
 * ERROR_CODES[429]; // 'rate_limited'
 * ```
 */
export const ERROR_CODES = {
  400: 'invalid_request',
  401: 'unauthorized',
  402: 'insufficient_units',
  404: 'not_found',
  405: 'method_not_allowed',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'unavailable',
} as const;

/** An HTTP status the service answers errors with. */
export type ErrorStatus = keyof typeof ERROR_CODES;

/**
 * An error the service answers with its envelope; thrown by hooks and handlers.
 *
 * @example
 * ```ts
 * throw new ApiError(404, 'No data for this keyword in this month.');
 * ```
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: ErrorStatus;
  readonly details: readonly ErrorDetail[];
  /** Extra response headers (Retry-After, ...). */
  readonly headers: Readonly<Record<string, string>>;
  constructor(status: ErrorStatus, message: string, details: readonly ErrorDetail[] = [], headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.details = details;
    this.headers = headers;
  }
}

/**
 * Whether the same request may succeed later: rate limits and server-side failures.
 *
 * @example
 * ```ts
 * isRetryable(429); // true
 * ```
 */
export function isRetryable(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * The error envelope.
 *
 * @example
 * ```ts
 * errorEnvelope('req-1', 401, 'A valid API key is required.');
 * ```
 */
export function errorEnvelope(requestId: string, status: ErrorStatus, message: string, details: readonly ErrorDetail[] = []): ErrorEnvelope {
  return {
    meta: { request_id: requestId, status_code: status, success: false },
    error: { code: ERROR_CODES[status], message, retryable: isRetryable(status), details },
  };
}
