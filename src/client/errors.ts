/**
 * The errors a client call can fail with, in the style of ky: one {@link ApiError} base and one
 * class per way a call can fail, each with a guard (`isApiError`, `isHttpError`, ...)
 * that tests its brand (`src/shared/brand.ts`), so it works across realms and package copies.
 * Messages name the method and the URL (which never contains the API key: it travels in a header).
 * Parameter and filter mistakes found before sending are `ParameterError` and `FilterError`.
 *
 * @module
 */

import { kindOfStatus, kindOfType, type ErrorDetail, type ErrorEnvelope } from '../catalogue/errors.js';
import { errorBrand } from '../shared/brand.js';

const API_ERROR = /* @__PURE__ */ errorBrand<ApiError>('ApiError');
const HTTP_ERROR = /* @__PURE__ */ errorBrand<HttpError>('HttpError');
const NETWORK_ERROR = /* @__PURE__ */ errorBrand<NetworkError>('NetworkError');
const TIMEOUT_ERROR = /* @__PURE__ */ errorBrand<TimeoutError>('TimeoutError');
const ABORT_ERROR = /* @__PURE__ */ errorBrand<AbortError>('AbortError');
const RESPONSE_SHAPE_ERROR = /* @__PURE__ */ errorBrand<ResponseShapeError>('ResponseShapeError');
const BUDGET_ERROR = /* @__PURE__ */ errorBrand<BudgetError>('BudgetError');

/**
 * The kinds of {@link ApiError}.
 *
 * @example
 * ```ts
 * if (isApiError(error) && error.kind === 'timeout') retryLater();
 * ```
 */
export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'abort' | 'response-shape' | 'budget';

/**
 * The service's error body, `{ meta, error: { type, code, message, retryable, details } }`: one
 * type for the server that writes it and the client that reads it (`src/catalogue/errors.ts`).
 * A body from another server may lack members; {@link HttpError} reads each defensively.
 *
 * @example
 * ```ts
 * if (isHttpError(error)) console.log(error.envelope?.error.details);
 * ```
 */
export type { ErrorEnvelope, ErrorDetail, ErrorKind } from '../catalogue/errors.js';

/**
 * The base of every error of a call that reached (or tried to reach) the service.
 *
 * @example
 * ```ts
 * try { await client.links({ url: 'example.com', scope: 'ROOT_DOMAIN' }); }
 * catch (error) { if (isApiError(error)) console.log(error.kind, error.url); }
 * ```
 */
export abstract class ApiError extends Error {
  /** What went wrong, for `switch` statements. */
  abstract readonly kind: ApiErrorKind;
  /** `GET`. */
  readonly method: string;
  /** The request URL (no key in it). */
  readonly url: string;

  constructor(message: string, method: string, url: string, options?: { cause?: unknown }) {
    super(message, options);
    this.method = method;
    this.url = url;
    API_ERROR.mark(this);
  }
}

/**
 * Whether `value` is an {@link ApiError}, across realms and package copies.
 *
 * @example
 * ```ts
 * if (isApiError(error) && error.kind === 'http') console.log(error.message);
 * ```
 */
export const isApiError: (value: unknown) => value is ApiError = API_ERROR.is;

/** The URL as messages show it: the path and at most 120 characters of the query. */
function shortUrl(url: string): string {
  const cut = url.indexOf('?');
  if (cut === -1 || url.length - cut <= 121) return url;
  return `${url.slice(0, cut + 121)}… (${url.length - cut - 1} characters of query)`;
}

/** A detail as one line: `limit: limit must be at most 10000. [too_large]`. */
const detailLine = (detail: ErrorDetail) =>
  `${detail.parameter && !detail.message.startsWith(detail.parameter) ? `${detail.parameter}: ` : ''}${detail.message}${detail.rule ? ` [${detail.rule}]` : ''}`;

/** At most this many details are spelled out in the message (all are in `details`). */
const DETAILS_IN_MESSAGE = 3;

function readDetails(envelope: ErrorEnvelope | undefined): ErrorDetail[] {
  const raw: unknown = envelope?.error.details;
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null && typeof (d as { message?: unknown }).message === 'string')
    .map((d) => (typeof d['rule'] !== 'string' && typeof d['code'] === 'string' ? { ...d, rule: d['code'] } : d) as ErrorDetail);
}

/**
 * The service answered with a status other than 2xx (after any retries). The message leads with
 * the service's reason: `400 invalid_request: limit: limit must be at most 10000. [too_large] (GET
 * https://…/links?url=…)`.
 *
 * @example
 * ```ts
 * if (isHttpError(error)) console.log(error.status, error.code, error.details[0]?.rule);
 * ```
 */
export class HttpError extends ApiError {
  override readonly name = 'HttpError';
  readonly kind = 'http' as const;
  readonly status: number;
  /** `meta.request_id` of the error body, else the `x-request-id` header. */
  readonly requestId: string | undefined;
  /** The service's error envelope, when the body is one. */
  readonly envelope: ErrorEnvelope | undefined;
  /**
   * The kind of error (`'invalid_request'`, `'rate_limited'`, ...: the anchor of `error.type`),
   * else the kind of the HTTP status.
   */
  readonly code: string | undefined;
  /** The problems the service listed: `message`, and `parameter`, `rule`, a filter's place where they apply. */
  readonly details: readonly ErrorDetail[];
  /** The start of the body (at most 1,000 characters). */
  readonly body: string;

  constructor(init: { method: string; url: string; status: number; statusText: string; requestId?: string | undefined; envelope?: ErrorEnvelope | undefined; body: string }) {
    const error = init.envelope?.error as Partial<ErrorEnvelope['error']> & { code?: unknown } | undefined;
    const code = kindOfType(error?.type) ?? (typeof error?.code === 'string' ? error.code : undefined) ?? kindOfStatus(init.status);
    const details = readDetails(init.envelope);
    const shown = details.slice(0, DETAILS_IN_MESSAGE).map(detailLine);
    if (details.length > DETAILS_IN_MESSAGE) shown.push(`and ${details.length - DETAILS_IN_MESSAGE} more`);
    const reason = shown.length > 0 ? shown.join('; ') : typeof error?.message === 'string' ? error.message : init.statusText;
    super(`${init.status}${code ? ` ${code}` : ''}: ${reason} (${init.method} ${shortUrl(init.url)})`, init.method, init.url);
    this.status = init.status;
    this.requestId = init.requestId;
    this.envelope = init.envelope;
    this.code = code;
    this.details = details;
    this.body = init.body;
    HTTP_ERROR.mark(this);
  }
}

/**
 * Whether `value` is an {@link HttpError}, across realms and package copies.
 *
 * @example
 * ```ts
 * if (isHttpError(error) && error.status === 404) console.log('no data');
 * ```
 */
export const isHttpError: (value: unknown) => value is HttpError = HTTP_ERROR.is;

/**
 * The request did not complete: refused connection, reset, DNS failure, body cut short.
 * The original error is in `cause`.
 *
 * @example
 * ```ts
 * if (isNetworkError(error)) console.log(error.cause);
 * ```
 */
export class NetworkError extends ApiError {
  override readonly name = 'NetworkError';
  readonly kind = 'network' as const;
  constructor(method: string, url: string, cause: unknown) {
    super(`${method} ${url} failed: ${describeCause(cause)}`, method, url, { cause });
    NETWORK_ERROR.mark(this);
  }
}

/**
 * Whether `value` is a {@link NetworkError}, across realms and package copies.
 *
 * @example
 * ```ts
 * if (isNetworkError(error)) console.log('the service cannot be reached');
 * ```
 */
export const isNetworkError: (value: unknown) => value is NetworkError = NETWORK_ERROR.is;

/** `fetch failed (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9)`: fetch hides the reason one level down. */
function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof inner !== 'object' || inner === null) return cause.message;
  const code = typeof inner.code === 'string' ? `${inner.code}: ` : '';
  return `${cause.message} (${code}${typeof inner.message === 'string' ? inner.message : 'no detail'})`;
}

/**
 * An attempt took longer than the `timeout` option (headers and body together).
 *
 * @example
 * ```ts
 * const client = createClient({ apiKey, baseUrl, timeout: 5_000 }); // TimeoutError after 5 s
 * ```
 */
export class TimeoutError extends ApiError {
  override readonly name = 'TimeoutError';
  readonly kind = 'timeout' as const;
  readonly timeout: number;
  constructor(method: string, url: string, timeout: number) {
    super(`${method} ${url} timed out after ${timeout} ms`, method, url);
    this.timeout = timeout;
    TIMEOUT_ERROR.mark(this);
  }
}

/**
 * Whether `value` is the client's {@link TimeoutError} (not a DOMException of that name), across
 * realms and package copies.
 *
 * @example
 * ```ts
 * if (isTimeoutError(error)) console.log(`no answer within ${error.timeout} ms`);
 * ```
 */
export const isTimeoutError: (value: unknown) => value is TimeoutError = TIMEOUT_ERROR.is;

/**
 * The caller's `signal` aborted the call; `cause` is the signal's reason.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const call = client.links(params, { signal: controller.signal });
 * controller.abort(); // call rejects with AbortError
 * ```
 */
export class AbortError extends ApiError {
  override readonly name = 'AbortError';
  readonly kind = 'abort' as const;
  constructor(method: string, url: string, reason: unknown) {
    super(`${method} ${url} was aborted`, method, url, { cause: reason });
    ABORT_ERROR.mark(this);
  }
}

/**
 * Whether `value` is the client's {@link AbortError} (not a DOMException of that name), across
 * realms and package copies.
 *
 * @example
 * ```ts
 * if (isAbortError(error)) console.log('cancelled:', error.cause);
 * ```
 */
export const isAbortError: (value: unknown) => value is AbortError = ABORT_ERROR.is;

/**
 * The body is not what the interface describes (not JSON, no `meta`/`data`, a wrong field type,
 * a CSV cell that does not fit its column). `bodyStart` shows the start of the body.
 *
 * @example
 * ```ts
 * if (isResponseShapeError(error)) console.log(error.problem, error.bodyStart);
 * ```
 */
export class ResponseShapeError extends ApiError {
  override readonly name = 'ResponseShapeError';
  readonly kind = 'response-shape' as const;
  /** What does not match. */
  readonly problem: string;
  /** The first 200 characters of the body. */
  readonly bodyStart: string;
  constructor(method: string, url: string, problem: string, body: string) {
    const bodyStart = body.slice(0, 200);
    super(`${method} ${url}: unexpected response: ${problem}. Body starts: ${JSON.stringify(bodyStart)}`, method, url);
    this.problem = problem;
    this.bodyStart = bodyStart;
    RESPONSE_SHAPE_ERROR.mark(this);
  }
}

/**
 * Whether `value` is a {@link ResponseShapeError}, across realms and package copies.
 *
 * @example
 * ```ts
 * if (isResponseShapeError(error)) console.log(error.problem);
 * ```
 */
export const isResponseShapeError: (value: unknown) => value is ResponseShapeError = RESPONSE_SHAPE_ERROR.is;

/**
 * A call's worst-case price exceeds what is left of the client's budget; nothing was sent.
 *
 * @example
 * ```ts
 * const client = createClient({ apiKey, baseUrl, budget: 1_000 });
 * await client.links({ url: 'example.com', scope: 'ROOT_DOMAIN', limit: 100 }); // BudgetError: 4,500 > 1,000
 * ```
 */
export class BudgetError extends ApiError {
  override readonly name = 'BudgetError';
  readonly kind = 'budget' as const;
  /** The call's worst-case price. */
  readonly estimate: number;
  /** What was left of the budget. */
  readonly remaining: number;
  constructor(method: string, url: string, estimate: number, remaining: number) {
    super(`${method} ${url} could cost up to ${estimate} units, but only ${remaining} are left of the budget; not sent`, method, url);
    this.estimate = estimate;
    this.remaining = remaining;
    BUDGET_ERROR.mark(this);
  }
}

/**
 * Whether `value` is a {@link BudgetError}, across realms and package copies.
 *
 * @example
 * ```ts
 * if (isBudgetError(error)) console.log(`${error.estimate} > ${error.remaining}`);
 * ```
 */
export const isBudgetError: (value: unknown) => value is BudgetError = BUDGET_ERROR.is;
