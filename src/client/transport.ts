/**
 * Sends one GET with the API key, a per-attempt timeout and the caller's signal, retrying as the
 * policy says, and returns the status, headers and whole body text. Every failure leaves as an
 * {@link ApiError}.
 *
 * @module
 * @internal
 */
import { AbortError, HttpError, NetworkError, TimeoutError, type ErrorEnvelope } from './errors.js';
import type { Limiter } from './limiter.js';
import { parseRetryAfter, retryDelay, type AttemptFailure, type RetryPolicy, type Timing } from './retry.js';

/** Everything a request needs from the client. @internal */
export interface TransportConfig {
  readonly apiKey: string;
  readonly fetch: typeof fetch;
  readonly timeout: number | false;
  readonly retry: RetryPolicy;
  readonly timing: Timing;
  readonly limiter: Limiter | undefined;
  readonly headers: Readonly<Record<string, string>>;
}

/** A successful response, read to the end. @internal */
export interface RawResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

type Attempt = { ok: true; response: RawResponse } | { ok: false; error: Error; failure: AttemptFailure | undefined };

const isEnvelope = (value: unknown): value is ErrorEnvelope =>
  typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'object' && (value as { error?: unknown }).error !== null;

function parseEnvelope(body: string): ErrorEnvelope | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    return isEnvelope(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function httpFailure(url: string, response: Response, body: string, now: number): Attempt {
  const envelope = parseEnvelope(body);
  const metaId = envelope?.meta?.['request_id'];
  const error = new HttpError({
    method: 'GET',
    url,
    status: response.status,
    statusText: response.statusText,
    requestId: typeof metaId === 'string' ? metaId : (response.headers.get('x-request-id') ?? undefined),
    envelope,
    body: body.slice(0, 1000),
  });
  const retryable = typeof envelope?.error.retryable === 'boolean' ? envelope.error.retryable : undefined;
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'), now);
  return { ok: false, error, failure: { kind: 'status', status: response.status, retryable, retryAfter } };
}

async function attempt(config: TransportConfig, url: string, signal: AbortSignal | undefined, timeout: number | false): Promise<Attempt> {
  const timer = timeout === false ? undefined : new AbortController();
  const handle = timer && setTimeout(() => timer.abort(), timeout as number);
  const combined = timer === undefined ? signal : signal === undefined ? timer.signal : anySignal([signal, timer.signal]);
  try {
    const response = await config.fetch(url, {
      method: 'GET',
      headers: { ...config.headers, Authorization: `Apikey ${config.apiKey}` },
      ...(combined && { signal: combined }),
    });
    // The body is part of the attempt: a reset or a stall while reading it fails the attempt too.
    const body = await response.text();
    if (response.ok) return { ok: true, response: { status: response.status, headers: response.headers, body } };
    return httpFailure(url, response, body, config.timing.now());
  } catch (error) {
    if (signal?.aborted) return { ok: false, error: new AbortError('GET', url, signal.reason), failure: undefined };
    if (timer?.signal.aborted) return { ok: false, error: new TimeoutError('GET', url, timeout as number), failure: { kind: 'timeout' } };
    return { ok: false, error: new NetworkError('GET', url, error), failure: { kind: 'network' } };
  } finally {
    if (handle !== undefined) clearTimeout(handle);
  }
}

/** `AbortSignal.any` where it exists (Node 20.3+, browsers); a small fallback elsewhere. */
function anySignal(signals: readonly AbortSignal[]): AbortSignal {
  const any = (AbortSignal as { any?: (s: AbortSignal[]) => AbortSignal }).any;
  if (any) return any([...signals]);
  const controller = new AbortController();
  for (const s of signals) {
    if (s.aborted) controller.abort(s.reason);
    else s.addEventListener('abort', () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

/**
 * GETs `url`, retrying per policy; resolves to the 2xx response or rejects with an `ApiError`.
 *
 * @internal
 */
export async function send(config: TransportConfig, url: string, signal?: AbortSignal, timeout: number | false = config.timeout): Promise<RawResponse> {
  for (let retry = 1; ; retry++) {
    if (signal?.aborted) throw new AbortError('GET', url, signal.reason);
    const result = config.limiter
      ? await limited(config.limiter, () => attempt(config, url, signal, timeout), url, signal)
      : await attempt(config, url, signal, timeout);
    if (result.ok) return result.response;
    const delay = result.failure && retryDelay(config.retry, result.failure, retry, config.timing.random);
    if (delay === undefined) throw result.error;
    try {
      await config.timing.sleep(delay, signal);
    } catch {
      throw new AbortError('GET', url, signal?.reason);
    }
  }
}

async function limited(limiter: Limiter, run: () => Promise<Attempt>, url: string, signal: AbortSignal | undefined): Promise<Attempt> {
  try {
    return await limiter.run(run, signal);
  } catch (error) {
    // Only the wait for a slot can throw here (attempts report, they do not throw): an abort.
    throw new AbortError('GET', url, signal?.reason ?? error);
  }
}
