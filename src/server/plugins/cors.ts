/**
 * CORS for browser callers, through @fastify/cors: pages on allowed origins may call every route,
 * read the units and request-id headers, and send the Authorization header (a preflight, OPTIONS on
 * any path, is answered 204 in @fastify/cors's onRequest hook, before the key is asked for).
 * OPTIONS is answered on every path, with `Allow: GET, OPTIONS`, also when CORS is off.
 *
 * Registered before the guard (`app.ts`), so that the guard's refusals (401, 429) and every later
 * error carry the grant too: a page can read why its call failed.
 *
 * @module
 * @internal
 */
import type { FastifyCorsOptions } from '@fastify/cors';
import { loadServerDeps, serverPlugin } from '../deps.js';

/**
 * Which origins may call the server from a browser: `'*'` any, a list of exact origins
 * (`https://app.example`), or `false` (no CORS headers: browsers refuse cross-origin calls).
 */
export type CorsOrigins = '*' | readonly string[] | false;

/** Response headers a browser page may read. */
export const EXPOSED_HEADERS = ['X-Request-Id', 'X-Units-Charged', 'X-Units-Remaining', 'Retry-After'] as const;
/** The methods the server answers (also the `Allow` of OPTIONS and of a 405). */
const METHODS = ['GET', 'OPTIONS'];

/**
 * The grant, as @fastify/cors reads it. `'*'` grants every response (no `Vary`); a list answers an
 * allowed `Origin` with that origin, and every response (granted or not) varies on `Origin`. A
 * preflight is any OPTIONS (`strictPreflight: false`: one without `Origin` or
 * `Access-Control-Request-Method` is answered 204 too, where @fastify/cors would answer a plain-text
 * 400 outside the service's envelope).
 */
const corsOptions = (origins: '*' | readonly string[]): FastifyCorsOptions => ({
  origin: origins === '*' ? '*' : [...origins],
  methods: METHODS,
  allowedHeaders: ['Authorization', 'Content-Type'],
  exposedHeaders: [...EXPOSED_HEADERS],
  // How long a browser may cache a preflight answer (seconds).
  maxAge: 600,
  strictPreflight: false,
});

/** Options of {@link corsPlugin}. */
export interface CorsPluginOptions {
  readonly origins: CorsOrigins;
}

/**
 * The CORS headers on every response and the preflight answer.
 *
 * @example
 * ```ts
 * await fastify.register(corsPlugin, { origins: ['https://app.example'] });
 * ```
 */
export const corsPlugin = serverPlugin<CorsPluginOptions>(
  async (fastify, { origins }) => {
    fastify.addHook('onRequest', async (request, reply) => {
      if (request.method === 'OPTIONS') reply.header('Allow', METHODS.join(', '));
    });
    if (origins !== false) {
      const { cors } = await loadServerDeps();
      await fastify.register(cors, corsOptions(origins));
      return;
    }
    // No CORS: OPTIONS is still answered (the Allow of every 405 names it).
    fastify.options('*', { exposeHeadRoute: false }, async (_request, reply) => reply.code(204).send());
  },
  { name: 'backlink-query-cors' },
);
