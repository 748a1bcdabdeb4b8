/**
 * CORS for browser callers: pages on allowed origins may call every route, read the units and
 * request-id headers, and send the Authorization header (preflight answered with 204).
 *
 * @module
 * @internal
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Which origins may call the server from a browser: `'*'` any, a list of exact origins
 * (`https://app.example`), or `false` (no CORS headers: browsers refuse cross-origin calls).
 */
export type CorsOrigins = '*' | readonly string[] | false;

/** Response headers a browser page may read. */
export const EXPOSED_HEADERS = ['X-Request-Id', 'X-Units-Charged', 'X-Units-Remaining', 'Retry-After'] as const;
/** Request headers a page may send. */
const ALLOWED_HEADERS = 'Authorization, Content-Type';
/** How long a browser may cache a preflight answer (seconds). */
const MAX_AGE = 600;

function allowedOrigin(origins: CorsOrigins, origin: string | undefined): string | undefined {
  if (origin === undefined || origins === false) return undefined;
  if (origins === '*') return '*';
  return origins.includes(origin) ? origin : undefined;
}

function setCors(origins: CorsOrigins, request: FastifyRequest, reply: FastifyReply): boolean {
  if (origins !== false && origins !== '*') reply.header('Vary', 'Origin');
  const allowed = allowedOrigin(origins, request.headers.origin);
  if (allowed === undefined) return false;
  reply.header('Access-Control-Allow-Origin', allowed).header('Access-Control-Expose-Headers', EXPOSED_HEADERS.join(', '));
  return true;
}

/**
 * Installs the CORS headers on every response and the preflight route.
 *
 * @example
 * ```ts
 * installCors(fastify, ['https://app.example']);
 * ```
 */
export function installCors(fastify: FastifyInstance, origins: CorsOrigins): void {
  fastify.addHook('onRequest', async (request, reply) => {
    setCors(origins, request, reply);
  });
  // A preflight names the method and headers the real request will use; any path may be asked.
  fastify.options('*', { exposeHeadRoute: false }, async (request, reply) => {
    if (origins !== false && request.headers.origin !== undefined && allowedOrigin(origins, request.headers.origin) !== undefined) {
      reply
        .header('Access-Control-Allow-Methods', 'GET, OPTIONS')
        .header('Access-Control-Allow-Headers', ALLOWED_HEADERS)
        .header('Access-Control-Max-Age', String(MAX_AGE));
    }
    reply.header('Allow', 'GET, OPTIONS');
    return reply.code(204).send();
  });
}
