/**
 * {@link validateRequest} as a Fastify plugin: any route whose config names an operation
 * (`config: { operation: 'links' }`) has its query validated before the handler runs; invalid
 * requests get the 400 envelope, valid ones expose their typed parameters via {@link requestParams}.
 *
 * @module
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { isOperationName, operations } from '../../catalogue/operations.js';
import { badEscapesOf, parseQueryString } from './query-string.js';
import type { RequestParams } from './request-params.js';
import { validateRequest, type RawQuery } from './validate-request.js';

/** Options of {@link validationPlugin}. */
export interface ValidationPluginOptions {
  /** The server's clock (default: the system clock). */
  readonly now?: () => Date;
  /** The largest `limit` (default 10,000). */
  readonly maxLimit?: number;
  /** The error docs page of the envelope's `type` (default `/errors`), or how to read it off a request. */
  readonly docsUrl?: string | ((request: FastifyRequest) => string);
}

const PARAMS = new WeakMap<FastifyRequest, RequestParams>();

/**
 * The operation named by a route's config, if any.
 *
 * @example
 * ```ts
 * routeOperation(request); // 'links'
 * ```
 */
export function routeOperation(request: FastifyRequest): string | undefined {
  const config = request.routeOptions.config as { operation?: unknown } | undefined;
  return typeof config?.operation === 'string' ? config.operation : undefined;
}

/**
 * The validated parameters of a request (after the plugin's hook has run).
 *
 * @example
 * ```ts
 * fastify.get('/_api/apis/v4/backlinks/v1/links', { config: { operation: 'links' } }, async (request) => {
 *   const params = requestParams(request); // typed, defaults applied
 * });
 * ```
 */
export function requestParams(request: FastifyRequest): RequestParams {
  const params = PARAMS.get(request);
  if (!params) throw new Error('requestParams: the route has no operation in its config, or validationPlugin is not registered.');
  return params;
}

/**
 * The parameters of a request whose percent-escapes do not decode to UTF-8. Fastify's query parser
 * (whichever the instance uses) keeps such a value as written, `%` and all, and says nothing: the
 * query string is read again, only when a value holds a `%`, to tell them apart from values that
 * decoded to a `%` (`%25`).
 */
function badEscapesIn(url: string, query: RawQuery): ReadonlyMap<string, string> {
  const suspect = Object.values(query).some((value) => (typeof value === 'string' ? value.includes('%') : value?.some((v) => v.includes('%'))));
  if (!suspect) return NO_BAD_ESCAPES;
  const start = url.indexOf('?');
  return start === -1 ? NO_BAD_ESCAPES : badEscapesOf(parseQueryString(url.slice(start + 1)));
}

const NO_BAD_ESCAPES: ReadonlyMap<string, string> = new Map();

const plugin: FastifyPluginAsync<ValidationPluginOptions> = async (fastify, options) => {
  fastify.addHook('preValidation', async (request, reply) => {
    const operation = routeOperation(request);
    if (operation === undefined) return;
    // The answer depends on Accept where the operation has a CSV form (Accept: text/csv without
    // format is CSV): a shared cache must not give a JSON caller the CSV answer.
    if (isOperationName(operation) && operations[operation].csv) {
      const vary = reply.getHeader('vary');
      reply.header('Vary', vary === undefined || vary === '' ? 'Accept' : `${String(vary)}, Accept`);
    }
    const query = request.query as RawQuery;
    const result = validateRequest(operation, query, {
      requestId: request.id,
      accept: request.headers.accept,
      badEscapes: badEscapesIn(request.url, query),
      ...(options.now ? { now: options.now() } : {}),
      ...(options.maxLimit ? { maxLimit: options.maxLimit } : {}),
      ...(options.docsUrl ? { docsUrl: typeof options.docsUrl === 'string' ? options.docsUrl : options.docsUrl(request) } : {}),
    });
    if (!result.ok) return reply.code(result.status).header('X-Request-Id', request.id).send(result.body);
    PARAMS.set(request, result.params);
    return undefined;
  });
};
// Hooks must apply to the routes of the instance that registers the plugin, not a child context.
(plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

/**
 * The server's request validation as a Fastify plugin.
 *
 * @example
 * ```ts
 * await fastify.register(validationPlugin, { maxLimit: 1000 });
 * ```
 */
export const validationPlugin: FastifyPluginAsync<ValidationPluginOptions> = plugin;
