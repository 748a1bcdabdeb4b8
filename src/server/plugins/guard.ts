/**
 * The guard in front of every operation (and every other keyed route, such as the balance): the
 * API key from the Authorization header or the `key` query parameter (401, same body whether
 * missing or wrong), then the key's rate and concurrency limits (429 with Retry-After). Runs in
 * `onRequest`, before validation, so an unauthenticated caller learns nothing about parameters.
 * A call whose client leaves is stopped (its signal aborts, which cancels its queries) and keeps
 * its slot until its work has ended, so leaving never makes room for more work than the limit.
 * The `key` query parameter is taken out of the query before anything else reads it, so it is
 * neither validated as a parameter nor echoed nor logged.
 *
 * @module
 * @internal
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors.js';
import { routeOperation } from '../validation/fastify-plugin.js';
import type { KeyRing } from './key-ring.js';
import type { Accounts } from './accounts.js';
import type { RateLimits } from './rate-limiter.js';

/** What the guard remembers about an admitted request. @internal */
export interface Admitted {
  readonly keyId: string;
  /** Aborted when the client goes away before its answer is written: the call's queries stop. */
  readonly signal: AbortSignal;
  /** Units charged (0 until the answer is charged, and when it is not written). */
  units: number;
  /**
   * Runs the call's store work. The call's slot (its place among the key's calls at once) is held
   * until this work ends, also when the client leaves first: leaving stops the work, it does not
   * free the slot early.
   */
  work<T>(running: Promise<T>): Promise<T>;
}

/** How an abandoned call ended, for its log line. @internal */
export interface Abandoned {
  readonly keyId: string;
  readonly units: number;
  /** Whether the call's store work was stopped by the abandonment (not whether it had any). */
  readonly cancelled: boolean;
  /** Milliseconds from the request to the end of its work. */
  readonly ms: number;
}

const ADMITTED = new WeakMap<FastifyRequest, Admitted>();
const KEY_OF = new WeakMap<FastifyRequest, string>();

/** The admitted state of a request, if it was admitted. @internal */
export const admitted = (request: FastifyRequest): Admitted | undefined => ADMITTED.get(request);

/** The id of the key a request authenticated with (also when it was then refused with 429). @internal */
export const keyIdOf = (request: FastifyRequest): string | undefined => KEY_OF.get(request);

/** Whether a route takes a key: every operation, and routes configured `{ keyed: true }`. @internal */
export const isKeyed = (request: FastifyRequest): boolean =>
  routeOperation(request) !== undefined || (request.routeOptions.config as { keyed?: unknown } | undefined)?.keyed === true;

/** Takes the `key` parameter out of the parsed query; returns it (the first, when repeated). */
function takeQueryKey(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || !Object.hasOwn(query, 'key')) return undefined;
  const value = query['key'];
  delete query['key'];
  return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
}

/** Installs the guard hooks; `onAbandoned` is told about a call whose client left, once its work has ended. @internal */
export function installGuard(
  fastify: FastifyInstance,
  ring: () => KeyRing,
  accounts: Pick<Accounts, 'admit'>,
  limitsOf: (keyId: string) => RateLimits,
  onAbandoned: (request: FastifyRequest, call: Abandoned) => void,
): void {
  const calls = new WeakMap<FastifyRequest, { readonly abort: AbortController; readonly release: () => void; readonly reply: FastifyReply; work?: Promise<unknown>; running: boolean }>();
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    if (!isKeyed(request)) return;
    const queryKey = request.method === 'GET' ? takeQueryKey(request) : undefined;
    const keyId = ring().authenticate(request.headers.authorization, queryKey);
    if (keyId === undefined) {
      throw new ServiceError(401, 'A valid API key is required: send the header "Authorization: Apikey <key>" or the query parameter key=<key>.');
    }
    KEY_OF.set(request, keyId);
    const admission = await accounts.admit(keyId, limitsOf(keyId));
    if (!admission.ok) {
      const what = admission.reason === 'rate' ? 'requests per second' : 'requests at once';
      throw new ServiceError(429, `Too many ${what} for this key; retry after ${admission.retryAfterSeconds} s.`, [], {
        'Retry-After': String(admission.retryAfterSeconds),
      });
    }
    const call = { abort: new AbortController(), release: admission.release, reply, work: undefined as Promise<unknown> | undefined, running: false };
    calls.set(request, call);
    ADMITTED.set(request, {
      keyId,
      signal: call.abort.signal,
      units: 0,
      work: (running) => {
        call.work = running;
        call.running = true;
        const ended = () => void (call.running = false);
        running.then(ended, ended);
        return running;
      },
    });
  });
  // A call answered (or refused) is over: its work ended before its answer was written.
  fastify.addHook('onResponse', async (request) => calls.get(request)?.release());
  fastify.addHook('onRequestAbort', async (request) => {
    const call = calls.get(request);
    const state = ADMITTED.get(request);
    if (!call || !state) return;
    const working = call.running;
    call.abort.abort();
    // The slot is given back when the work has stopped, not when the client left.
    await call.work?.catch(() => undefined);
    call.release();
    onAbandoned(request, { keyId: state.keyId, units: state.units, cancelled: working, ms: call.reply.elapsedTime });
  });
}
