/**
 * The error answers of the service: one envelope for every failure, in the real service's shape
 * (`src/catalogue/errors.ts`):
 * `{ meta: { request_id, status_code, success: false }, error: { type, code, message, retryable, details } }`.
 *
 * @module
 */
import { ERROR_KINDS, isRetryableStatus, kindOfStatus, type ErrorDetail, type ErrorEnvelope, type ErrorKind, type ErrorStatus } from '../catalogue/errors.js';
import { errorBrand } from '../shared/brand.js';

export type { ErrorDetail, ErrorEnvelope, ErrorKind, ErrorStatus };
export { ERROR_KINDS };

const SERVICE_ERROR = /* @__PURE__ */ errorBrand<ServiceError>('ServiceError');

/**
 * An error the service answers with its envelope; thrown by hooks and handlers.
 *
 * @example
 * ```ts
 * throw new ServiceError(404, 'No data for this keyword in this month.');
 * ```
 */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly status: ErrorStatus;
  readonly details: readonly ErrorDetail[];
  /** Extra response headers (Retry-After, ...). */
  readonly headers: Readonly<Record<string, string>>;
  constructor(status: ErrorStatus, message: string, details: readonly ErrorDetail[] = [], headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.details = details;
    this.headers = headers;
    SERVICE_ERROR.mark(this);
  }
}

/**
 * Whether `value` is a {@link ServiceError}, across realms and package copies.
 *
 * @example
 * ```ts
 * isServiceError(new ServiceError(404, 'No data.')); // true
 * ```
 */
export function isServiceError(value: unknown): value is ServiceError {
  return SERVICE_ERROR.is(value);
}

/**
 * A `publicUrl` option as the base of the URLs the server writes: `scheme://host[:port][/prefix]`,
 * no trailing slash. The server never builds a URL from a request (its Host header, its
 * protocol): a hostile Host would come back in answers, and be kept by a shared cache.
 *
 * @example
 * ```ts
 * publicBaseUrl('https://api.example.com/backlinks/'); // 'https://api.example.com/backlinks'
 * ```
 *
 * @throws TypeError when `publicUrl` is not such a URL: an option the caller checks, as the
 * server's other options (`serve` turns it into its usage error naming `--public-url`).
 */
export function publicBaseUrl(publicUrl: string): string {
  let url: URL | undefined;
  try {
    url = new URL(publicUrl);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '' || /[?#]$/.test(publicUrl)) {
    throw new TypeError(`publicUrl must be an http(s) URL without query or fragment, such as https://api.example.com (got ${JSON.stringify(publicUrl)}).`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The page every error's `type` names: `errorDocsUrl` when given, else the `/errors` page this
 * server serves, under `publicUrl` when given and as a relative reference (`/errors`) otherwise.
 *
 * @example
 * ```ts
 * errorDocsUrlOf({ publicUrl: 'https://api.example.com' }); // 'https://api.example.com/errors'
 * errorDocsUrlOf({}); // '/errors'
 * ```
 */
export function errorDocsUrlOf(options: { readonly errorDocsUrl?: string | undefined; readonly publicUrl?: string | undefined }): string {
  // Checked also beside errorDocsUrl: the server calls this first, so a bad publicUrl is refused
  // before anything is written to the store.
  const base = options.publicUrl === undefined ? '' : publicBaseUrl(options.publicUrl);
  return options.errorDocsUrl ?? `${base}/errors`;
}

/**
 * The kind an error status is answered as.
 *
 * @example
 * ```ts
 * errorKind(429); // 'rate_limited'
 * ```
 */
export function errorKind(status: ErrorStatus): ErrorKind {
  return kindOfStatus(status)!;
}

/**
 * The error envelope; `docsUrl` is the page documenting every kind (its anchors are the kinds).
 *
 * @example
 * ```ts
 * errorEnvelope('req-1', 401, 'A valid API key is required.', [], '/errors');
 * // { meta: {...}, error: { type: '/errors#unauthorized', code: 401, ... } }
 * ```
 */
export function errorEnvelope(requestId: string, status: ErrorStatus, message: string, details: readonly ErrorDetail[], docsUrl: string): ErrorEnvelope {
  return {
    meta: { request_id: requestId, status_code: status, success: false },
    error: { type: `${docsUrl}#${errorKind(status)}`, code: status, message, retryable: isRetryableStatus(status), details },
  };
}
