/**
 * The service's error model, as data: every kind of error it answers, with its HTTP status, and
 * the envelope every error response carries. The server builds its answers from it, the client
 * reads them with it, and `docs/errors.md` documents one anchor per kind (a test keeps them in
 * step).
 *
 * The envelope is the real service's shape: `error.code` is the HTTP status as a number and
 * `error.type` a documentation URL whose anchor names the kind; our machine-readable reasons (the
 * parameter, the rule it broke, a filter's place) ride along in `details`.
 *
 * @module
 */
import type { ErrorRule } from './rules.js';

/**
 * Every kind of error, with the status it is answered with and a one-line meaning.
 *
 * @example
 * ```ts
 * ERROR_KINDS.rate_limited.status; // 429
 * ```
 */
export const ERROR_KINDS = {
  invalid_request: { status: 400, title: 'A parameter is missing, unknown or breaks its rule; the details name each one.' },
  unauthorized: { status: 401, title: 'No API key, or one the service does not know.' },
  insufficient_units: { status: 402, title: 'The key has fewer units left than the call costs.' },
  not_found: { status: 404, title: 'No operation at this path, or no data for a keyword metrics request.' },
  method_not_allowed: { status: 405, title: 'Operations answer GET (and OPTIONS for CORS preflight) only.' },
  request_timeout: { status: 408, title: 'The request did not arrive in full within the time the server waits for it.' },
  request_too_large: { status: 431, title: 'The request line or headers are longer than the server accepts.' },
  rate_limited: { status: 429, title: 'Too many calls per second, or at once, for this key; retry after Retry-After seconds.' },
  internal_error: { status: 500, title: 'A fault in the server; the request id identifies it in the logs.' },
  unavailable: { status: 503, title: 'The database cannot answer right now (locked, timed out, down); retry after Retry-After seconds.' },
} as const satisfies Record<string, { status: number; title: string }>;

/** A kind of error (`invalid_request`, `rate_limited`, ...): the anchor of its `type` URL. */
export type ErrorKind = keyof typeof ERROR_KINDS;

/** An HTTP status the service answers errors with. */
export type ErrorStatus = (typeof ERROR_KINDS)[ErrorKind]['status'];

/**
 * The kinds by status (one kind per status).
 *
 * @example
 * ```ts
 * kindOfStatus(401); // 'unauthorized'
 * ```
 */
export function kindOfStatus(status: number): ErrorKind | undefined {
  for (const [kind, spec] of Object.entries(ERROR_KINDS)) if (spec.status === status) return kind as ErrorKind;
  return undefined;
}

/**
 * The kind an error body names: the anchor of its `type` URL, when it is one of ours.
 *
 * @example
 * ```ts
 * kindOfType('http://127.0.0.1:8080/errors#rate_limited'); // 'rate_limited'
 * ```
 */
export function kindOfType(type: unknown): ErrorKind | undefined {
  if (typeof type !== 'string') return undefined;
  const anchor = type.slice(type.lastIndexOf('#') + 1);
  return Object.hasOwn(ERROR_KINDS, anchor) ? (anchor as ErrorKind) : undefined;
}

/** Whether the same request may succeed later: rate limits and server-side failures. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** One detail of an error: what is wrong, and for parameters which one and which rule. */
export interface ErrorDetail {
  /** A sentence for people. */
  readonly message: string;
  /** The parameter at fault (`limit`, `filter`, ...), when there is one. */
  readonly parameter?: string;
  /**
   * A stable snake_case code of the rule broken (`required`, `too_large`, `unknown_field`, ...):
   * one of `PARAMETER_RULES`, `ISSUE_CODES` or `SERVICE_RULES`.
   */
  readonly rule?: ErrorRule;
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
    /** The documentation of this kind of error: `<docs URL>#<kind>`. */
    readonly type: string;
    /** The HTTP status, as a number. */
    readonly code: number;
    readonly message: string;
    readonly retryable: boolean;
    readonly details: readonly ErrorDetail[];
  };
}
