/**
 * {@link validateRequest} as a Fastify plugin: any route whose config names an operation
 * (`config: { operation: 'links' }`) has its query validated before the handler runs; invalid
 * requests get the 400 envelope, valid ones expose their typed parameters as
 * `request.operationParams` (and {@link requestParams}).
 *
 * @module
 */
import type { FastifyPluginAsync, FastifyRequest, RouteOptions } from 'fastify';
import { isOperationName, OPERATION_NAMES, operations } from '../../catalogue/operations.js';
import { serverPlugin } from '../deps.js';
import { badEscapesOf, parseQueryString } from './query-string.js';
import type { RequestParams } from './request-params.js';
import { validateRequest, type RawQuery } from './validate-request.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The validated parameters of a route whose config names an operation, defaults applied (set
     * by {@link validationPlugin}'s preValidation hook); null on other routes, and before that hook.
     */
    operationParams: RequestParams | null;
  }
}

/** Options of {@link validationPlugin}. */
export interface ValidationPluginOptions {
  /** The server's clock (default: the system clock). */
  readonly now?: () => Date;
  /** The largest `limit` (default 10,000). */
  readonly maxLimit?: number;
  /** The error docs page of the envelope's `type` (default `/errors`). */
  readonly docsUrl?: string;
}

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
 * The validated parameters of a request, in a handler of a route whose config names an operation
 * (`request.operationParams`, never null there).
 *
 * @throws TypeError when called where there are none: on a route whose config names no operation,
 * before the validation's preValidation hook (in an onRequest hook), or on an instance without
 * {@link validationPlugin}. That is a mistake in the server's code, not in a request (a route
 * registered after the plugin that names an operation the catalogue does not have is refused at
 * its registration).
 *
 * @example
 * ```ts
 * fastify.get('/_api/apis/v4/backlinks/v1/links', { config: { operation: 'links' } }, async (request) => {
 *   const params = requestParams(request); // typed, defaults applied
 * });
 * ```
 */
export function requestParams(request: FastifyRequest): RequestParams {
  const params = request.operationParams;
  if (params == null) {
    throw new TypeError(`requestParams: ${request.method} ${request.routeOptions.url ?? request.url} has no validated parameters: its route's config names no operation, or validationPlugin is not registered, or its hook has not run yet.`);
  }
  return params;
}

/**
 * Refuses, when it is registered, a route whose config names an operation the catalogue does not
 * have (each of its requests would otherwise be refused as the caller's fault).
 */
function checkRoute(route: RouteOptions): void {
  const operation = (route.config as { operation?: unknown } | undefined)?.operation;
  if (operation === undefined || (typeof operation === 'string' && isOperationName(operation))) return;
  throw new TypeError(`The route ${String(route.method)} ${route.url} names the operation ${JSON.stringify(operation)} in its config; the operations are ${OPERATION_NAMES.join(', ')}.`);
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

/** The name of {@link validationPlugin}, for the `dependencies` of plugins that read `request.operationParams`. */
export const VALIDATION_PLUGIN = 'backlink-query-validation';

const plugin: FastifyPluginAsync<ValidationPluginOptions> = async (fastify, options) => {
  fastify.decorateRequest('operationParams', null);
  fastify.addHook('onRoute', checkRoute);
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
      ...(options.docsUrl ? { docsUrl: options.docsUrl } : {}),
    });
    if (!result.ok) return reply.code(result.status).header('X-Request-Id', request.id).send(result.body);
    request.operationParams = result.params;
    return undefined;
  });
};

/**
 * The server's request validation as a Fastify plugin (named `backlink-query-validation`, which
 * plugins that read the parameters name as a dependency). Its hooks apply to the routes of the
 * instance that registers it.
 *
 * @example
 * ```ts
 * await fastify.register(validationPlugin, { maxLimit: 1000 });
 * ```
 */
export const validationPlugin: FastifyPluginAsync<ValidationPluginOptions> = serverPlugin(plugin, { name: VALIDATION_PLUGIN });
