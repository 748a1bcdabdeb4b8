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
  readonly fetch: typeof fetch;
  readonly timeout: number | false;
  readonly retry: RetryPolicy;
  readonly timing: Timing;
  readonly limiter: Limiter | undefined;
  /** Every request's headers, the key's `Authorization` among them: built once, shared by every request. */
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

/**
 * The signal of a per-attempt timeout, and how many attempts have had it. Node 20 is slow to make
 * an `AbortSignal`, and undici to follow a new one (README.md, section "Benchmarks"), so an attempt
 * that ends before its timer fires hands its signal on to a later attempt. Each attempt has a timer
 * of its own, and a signal is in one attempt at a time, so a timer that fires aborts only its own
 * attempt's fetch: the fetches the signal was handed before have ended (body read or failed), and
 * aborting an ended fetch does nothing.
 */
interface Deadline {
  readonly controller: AbortController;
  readonly signal: AbortSignal;
  uses: number;
}

/** Signals whose attempts ended without a timeout, ready for another attempt (the client's own and other clients'). */
const spareDeadlines: Deadline[] = [];
/**
 * Attempts per signal. A fetch may leave its listener on the signal until it is garbage (undici
 * does), so a signal collects one per attempt: no more than the 10 Node allows before it warns of
 * a leak.
 */
const DEADLINE_USES = 10;
/** Spare signals kept: as many as calls usually run at once. */
const SPARE_DEADLINES = 8;

function takeDeadline(): Deadline {
  let deadline = spareDeadlines.pop();
  if (deadline === undefined) {
    const controller = new AbortController();
    deadline = { controller, signal: controller.signal, uses: 0 };
  }
  deadline.uses++;
  return deadline;
}

/** Ends an attempt's use of a signal: kept for another attempt unless its timer fired or it has had enough. */
function releaseDeadline(deadline: Deadline): void {
  if (!deadline.signal.aborted && deadline.uses < DEADLINE_USES && spareDeadlines.length < SPARE_DEADLINES) spareDeadlines.push(deadline);
}

const abortOnTimeout = (controller: AbortController) => controller.abort();

async function attempt(config: TransportConfig, url: string, signal: AbortSignal | undefined, timeout: number | false): Promise<Attempt> {
  const deadline = timeout === false ? undefined : takeDeadline();
  const timer = deadline?.signal;
  const handle = deadline && setTimeout(abortOnTimeout, timeout as number, deadline.controller);
  const combined = timer === undefined ? signal : signal === undefined ? timer : anySignal([signal, timer]);
  try {
    const response = await config.fetch(url, combined === undefined ? { method: 'GET', headers: config.headers } : { method: 'GET', headers: config.headers, signal: combined });
    // The body is part of the attempt: a reset or a stall while reading it fails the attempt too.
    const body = await response.text();
    if (response.ok) return { ok: true, response: { status: response.status, headers: response.headers, body } };
    return httpFailure(url, response, body, config.timing.now());
  } catch (error) {
    if (signal?.aborted) return { ok: false, error: new AbortError('GET', url, signal.reason), failure: undefined };
    if (timer?.aborted) return { ok: false, error: new TimeoutError('GET', url, timeout as number), failure: { kind: 'timeout' } };
    return { ok: false, error: new NetworkError('GET', url, error), failure: { kind: 'network' } };
  } finally {
    if (deadline !== undefined) {
      clearTimeout(handle);
      releaseDeadline(deadline);
    }
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
