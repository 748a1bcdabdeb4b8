/**
 * The guard in front of every operation (and every other keyed route, such as the balance): the
 * API key from the Authorization header or the `key` query parameter (401, same body whether
 * missing or wrong), then the key's rate and concurrency limits (429 with Retry-After). Runs in
 * `onRequest`, before validation, so an unauthenticated caller learns nothing about parameters.
 * The `key` query parameter is taken out of the query before anything else reads it, so it is
 * neither validated as a parameter nor echoed nor logged.
 *
 * @module
 * @internal
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors.js';
import { routeOperation } from '../validation/fastify-plugin.js';
import type { KeyRing } from './key-ring.js';
import type { RateLimiter, RateLimits } from './rate-limiter.js';

/** What the guard remembers about an admitted request. @internal */
export interface Admitted {
  readonly keyId: string;
  readonly release: () => void;
  units: number;
  /** The client went away before the answer was sent (it is not charged then). */
  aborted: boolean;
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

/** Installs the guard hooks. @internal */
export function installGuard(
  fastify: FastifyInstance,
  ring: () => KeyRing,
  limiter: RateLimiter,
  limitsOf: (keyId: string) => RateLimits,
): void {
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    if (!isKeyed(request)) return;
    const queryKey = request.method === 'GET' ? takeQueryKey(request) : undefined;
    const keyId = ring().authenticate(request.headers.authorization, queryKey);
    if (keyId === undefined) {
      throw new ServiceError(401, 'A valid API key is required: send the header "Authorization: Apikey <key>" or the query parameter key=<key>.');
    }
    KEY_OF.set(request, keyId);
    const admission = limiter.acquire(keyId, limitsOf(keyId));
    if (!admission.ok) {
      const what = admission.reason === 'rate' ? 'requests per second' : 'requests at once';
      throw new ServiceError(429, `Too many ${what} for this key; retry after ${admission.retryAfterSeconds} s.`, [], {
        'Retry-After': String(admission.retryAfterSeconds),
      });
    }
    ADMITTED.set(request, { keyId, release: admission.release, units: 0, aborted: false });
  });
  fastify.addHook('onResponse', async (request) => ADMITTED.get(request)?.release());
  fastify.addHook('onRequestAbort', async (request) => {
    const state = ADMITTED.get(request);
    if (!state) return;
    state.aborted = true;
    state.release();
  });
}
