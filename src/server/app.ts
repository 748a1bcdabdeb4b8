/**
 * The service as a Fastify plugin: every operation of the catalogue at its path, the key guard,
 * validation, billing, JSON and CSV, the error envelope for every failure, `GET /openapi.json`,
 * the browser playground at `/playground/` and one structured log line per request. `server.ts`
 * creates the instance and listens.
 *
 * @module
 */
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { didYouMean, suggest } from '../shared/suggest.js';
import { isUnsupportedError } from '../sql/unsupported-error.js';
import { serverPlugin, type DomainParser } from './deps.js';
import { errorDocsUrlOf, errorEnvelope, isServiceError, ServiceError, type ErrorStatus } from './errors.js';
import { openApiDocument } from './openapi.js';
import { registerExplore, registerPlayground } from './playground.js';
import { guardPlugin } from './plugins/guard.js';
import { KeyRing } from './accounts/key-ring.js';
import type { Accounts } from './accounts/accounts.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from './accounts/rate-limiter.js';
import { corsPlugin, type CorsOrigins } from './plugins/cors.js';
import { storePlugin } from './plugins/store.js';
import { operationRoutes } from './routes/operation-route.js';
import { serviceRoutes } from './routes/service-routes.js';
import { isStoreUnavailable } from './store/connection.js';
import type { ApiKeyConfig, Ledger } from './store/ledger.js';
import type { Store } from './store/store.js';
import { routeOperation, validationPlugin } from './validation/fastify-plugin.js';

/**
 * The route a path that leads nowhere was likely meant for: one of `answered` (the paths answered on
 * GET) in the same folder whose last segment is a likely typo of its last (`.../v1/link` for
 * `.../v1/links`, `/helth` for `/health`).
 */
function nearestPath(path: string, answered: readonly string[]): string | undefined {
  const cut = path.lastIndexOf('/') + 1;
  const [folder, last] = [path.slice(0, cut), path.slice(cut)];
  const siblings = answered.filter((known) => known.startsWith(folder) && !known.slice(folder.length).includes('/'));
  const name = last === '' ? undefined : suggest(last, siblings.map((known) => known.slice(folder.length)), { anyCase: true });
  return name === undefined ? undefined : folder + name;
}

/** Options of {@link backlinkQueryApp}. */
export interface AppOptions {
  /** The store the operations answer from (the instance's `fastify.store`). */
  readonly store: Store;
  /**
   * The units ledger: API keys and balances (the instance's `fastify.ledger`); usually the
   * store's own, `store.ledger`.
   */
  readonly ledger: Ledger;
  /**
   * Close the ledger and the store when the instance closes, after the last charges are written
   * (default true).
   */
  readonly closeStore?: boolean;
  /** The public-suffix parser (tldts). */
  readonly parser: DomainParser;
  /** Keys to store before serving; keys already stored stay valid. */
  readonly keys?: readonly ApiKeyConfig[];
  /**
   * The data's clock (default: the system clock): what "new" and the current month derive from.
   * `serve --now` fixes it; the limits do not read it (see {@link AppOptions.wallClock}).
   */
  readonly now?: () => Date;
  /**
   * Real time in milliseconds, for the per-key rate limit (default `Date.now`): a fixed data clock
   * must not freeze the limiter (a key past its rate would be refused for good).
   */
  readonly wallClock?: () => number;
  /**
   * The keys' limits and units (default: this process's own, in memory over the ledger). The
   * processes of `serve --workers N` share the primary's (see `worker-accounts.ts`).
   *
   * @internal
   */
  readonly accounts?: Accounts;
  /** Default per-key limits (10 per second, 10 at once); a key's own config overrides them. */
  readonly rateLimits?: Partial<RateLimits>;
  /** The largest `limit` (default 10,000). */
  readonly maxLimit?: number;
  /**
   * Where clients reach this server: `scheme://host[:port]`, optionally with a path prefix (such
   * as `https://api.example.com`). The URLs the server writes (every error's `type`) start with
   * it; without it they are relative (`/errors#...`). Nothing the server writes is built from a
   * request's Host header or protocol. Anything else (another scheme, a query, a fragment, user
   * or password, a port past 65535) makes `createServer` reject with a `TypeError`.
   */
  readonly publicUrl?: string;
  /**
   * The page documenting the error kinds, named by every error's `type` (`<url>#<kind>`). Default:
   * the `/errors` page this server serves, under {@link AppOptions.publicUrl} (`/errors` without it).
   */
  readonly errorDocsUrl?: string;
  /**
   * Origins whose pages may call the server from a browser: `'*'`, a list of exact origins, or
   * `false` (default: no CORS headers, so browsers refuse cross-origin calls).
   */
  readonly corsOrigins?: CorsOrigins;
  /** The folder of the built playground page (default: `dist/playground/`, what `npm run build` writes). */
  readonly playgroundDir?: string;
  /** The folder of the built target page (default: `dist/explore/`, what `npm run build` writes). */
  readonly exploreDir?: string;
}

/** Fastify errors that are the caller's fault keep their 4xx status; everything else is a 500. */
function statusOf(error: FastifyError | ServiceError): ErrorStatus {
  if (isServiceError(error)) return error.status;
  const status = error.statusCode ?? 500;
  return status === 404 || status === 405 || status === 429 ? status : status >= 400 && status < 500 ? 400 : 500;
}

/**
 * Errors of the layers below, as the service answers them: a valid filter the store's SQL cannot
 * express exactly is the caller's 400 (nothing is charged); a database that cannot answer now
 * (locked, timed out, down) is a retryable 503 with Retry-After.
 */
function fromStore(error: unknown): ServiceError | undefined {
  if (isUnsupportedError(error)) {
    return new ServiceError(400, `The filter cannot be run here: ${error.message}.`, [{ parameter: 'filter', rule: 'unsupported_filter', message: error.message }]);
  }
  if (isStoreUnavailable(error)) {
    return new ServiceError(503, 'The database cannot answer right now; retry shortly.', [{ rule: 'store_unavailable', message: error.message }], {
      'Retry-After': String(error.retryAfterSeconds),
    });
  }
  return undefined;
}

function sendError(request: FastifyRequest, reply: FastifyReply, raw: FastifyError | ServiceError, docsUrl: string): FastifyReply {
  const error = fromStore(raw) ?? raw;
  const status = statusOf(error);
  if (status >= 500) request.log.error({ err: raw }, 'request failed');
  const message = status >= 500 && !(isServiceError(error)) ? 'Internal server error.' : error.message;
  const details = isServiceError(error) ? error.details : [];
  if (isServiceError(error)) reply.headers(error.headers);
  return reply
    .code(status)
    .header('X-Request-Id', request.id)
    .send(errorEnvelope(request.id, status, message, details, docsUrl));
}

/**
 * The one log line of a request: when it was answered, or, for a call whose client left first,
 * once its work has stopped (status 499, as nginx logs a client that closed the connection, and
 * `abandoned` saying whether work was running and stopped).
 */
function logCall(request: FastifyRequest, outcome: { readonly status: number; readonly units: number; readonly ms: number; readonly abandoned?: string }): void {
  request.log.info(
    {
      operation: routeOperation(request) ?? null,
      key_id: request.apiKeyId,
      status: outcome.status,
      units: outcome.units,
      ...(outcome.abandoned === undefined ? {} : { abandoned: outcome.abandoned }),
      duration_ms: Math.round(outcome.ms * 100) / 100,
    },
    'request',
  );
}

const plugin: FastifyPluginAsync<AppOptions> = async (fastify: FastifyInstance, options: AppOptions) => {
  const now = options.now ?? (() => new Date());
  const docsUrl = errorDocsUrlOf(options);
  const { store, ledger } = options;
  // The store, the ledger and the accounts as decorations the guard and the routes read; the
  // plugin closes them once every call is answered and charged (its own onClose).
  await fastify.register(storePlugin, {
    store,
    ledger,
    wallClock: options.wallClock ?? Date.now,
    ...(options.accounts ? { accounts: options.accounts } : {}),
    ...(options.closeStore === false ? { close: false } : {}),
  });
  if (options.keys && options.keys.length > 0) await ledger.upsertKeys(options.keys);
  const ring = new KeyRing(await ledger.apiKeys());
  const defaults: RateLimits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
  const perKey = new Map((options.keys ?? []).map((k) => [k.id, { perSecond: k.rate ?? defaults.perSecond, concurrent: k.concurrency ?? defaults.concurrent }]));
  // First: a route takes the error handler of its instance when the plugin that adds it has loaded.
  fastify.setErrorHandler((error: FastifyError | ServiceError, request, reply) => sendError(request, reply, error, docsUrl));
  // The paths answered on GET, as the routes below register them (each operation at both prefixes,
  // the balance, /health, the pages): the candidates of a 404's "did you mean". A path with a
  // parameter (`:file`) or a wildcard is no path to suggest.
  const answered: string[] = [];
  fastify.addHook('onRoute', (route) => {
    if ([route.method].flat().includes('GET') && /^[A-Za-z0-9._~/-]+$/.test(route.url)) answered.push(route.url);
  });
  fastify.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    sendError(request, reply, new ServiceError(404, `No operation at ${request.method} ${path}${didYouMean(nearestPath(path, answered))}`), docsUrl);
  });
  // Every answer names its request, also one answered by a hook below (a CORS preflight).
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  // The onRequest hooks run in the order of these registrations: CORS first, so that the guard's
  // refusals carry the grant; the guard before validation (401 and 429 before any 400).
  await fastify.register(corsPlugin, { origins: options.corsOrigins ?? false });
  await fastify.register(guardPlugin, {
    ring: () => ring,
    limitsOf: (id) => perKey.get(id) ?? defaults,
    onAbandoned: (request, call) => logCall(request, { status: 499, units: call.units, ms: call.ms, abandoned: call.cancelled ? 'work stopped' : 'nothing running' }),
  });
  await fastify.register(validationPlugin, { now, docsUrl, ...(options.maxLimit ? { maxLimit: options.maxLimit } : {}) });
  await fastify.register(operationRoutes, { parser: options.parser, now });
  await fastify.register(serviceRoutes);

  const openapi = openApiDocument(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl });
  fastify.get('/openapi.json', { exposeHeadRoute: false }, async () => openapi);
  registerPlayground(fastify, options.playgroundDir === undefined ? {} : { dir: options.playgroundDir });
  registerExplore(fastify, options.exploreDir === undefined ? {} : { dir: options.exploreDir });
  fastify.addHook('onResponse', async (request, reply) => logCall(request, { status: reply.statusCode, units: request.admittedCall?.units ?? 0, ms: reply.elapsedTime }));
};

/**
 * The service as a Fastify plugin (named `backlink-query`). It owns the not-found and error
 * handlers of the instance it is registered on, and its hooks apply there: a hook or route of your
 * own on that instance answers in the service's envelope by throwing a {@link ServiceError}. It
 * decorates the instance with `store` and `ledger`, and closes both when the instance closes,
 * once the last charges are written (unless `closeStore: false`).
 *
 * @example
 * ```ts
 * const fastify = Fastify({ genReqId: () => randomUUID() });
 * await fastify.register(backlinkQueryApp, { store, ledger: store.ledger, parser: tldts, keys: [{ id: 'me', key: 'secret-key', units: 1000 }] });
 * ```
 */
export const backlinkQueryApp: FastifyPluginAsync<AppOptions> = serverPlugin(plugin, { name: 'backlink-query' });
