/**
 * The guard in front of every operation: the API key (401, same body whether missing or wrong),
 * then the key's rate and concurrency limits (429 with Retry-After). Runs in `onRequest`, before
 * validation, so an unauthenticated caller learns nothing about parameters.
 *
 * @module
 * @internal
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { routeOperation } from '../validation/fastify-plugin.js';
import type { KeyRing } from './key-ring.js';
import type { RateLimiter, RateLimits } from './rate-limiter.js';

/** What the guard remembers about an admitted request. @internal */
export interface Admitted {
  readonly keyId: string;
  readonly release: () => void;
  units: number;
}

const ADMITTED = new WeakMap<FastifyRequest, Admitted>();

/** The admitted state of a request, if it was admitted. @internal */
export const admitted = (request: FastifyRequest): Admitted | undefined => ADMITTED.get(request);

/** Installs the guard hooks. @internal */
export function installGuard(
  fastify: FastifyInstance,
  ring: () => KeyRing,
  limiter: RateLimiter,
  limitsOf: (keyId: string) => RateLimits,
): void {
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    if (routeOperation(request) === undefined) return;
    const keyId = ring().authenticate(request.headers.authorization);
    if (keyId === undefined) throw new ApiError(401, 'A valid API key is required: send the header "Authorization: Apikey <key>".');
    const admission = limiter.acquire(keyId, limitsOf(keyId));
    if (!admission.ok) {
      const what = admission.reason === 'rate' ? 'requests per second' : 'requests at once';
      throw new ApiError(429, `Too many ${what} for this key; retry after ${admission.retryAfterSeconds} s.`, [], {
        'Retry-After': String(admission.retryAfterSeconds),
      });
    }
    ADMITTED.set(request, { keyId, release: admission.release, units: 0 });
  });
  const release = async (request: FastifyRequest) => ADMITTED.get(request)?.release();
  fastify.addHook('onResponse', release);
  fastify.addHook('onRequestAbort', release);
}
