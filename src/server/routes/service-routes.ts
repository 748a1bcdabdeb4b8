/**
 * The routes beside the twelve operations: the key's units balance (also at the real service's
 * legacy address), the health check of probes, and the page documenting every kind of error (the target of the envelope's `type`).
 *
 * @module
 * @internal
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BALANCE_PATH, type BalanceResponse } from '../../catalogue/balance.js';
import { ERROR_KINDS } from '../../catalogue/errors.js';
import { parameterIssue } from '../../catalogue/rules.js';
import { serverPlugin } from '../deps.js';
import { ServiceError } from '../errors.js';
import { GUARD_PLUGIN } from '../plugins/guard.js';
import { invalidRequestMessage } from '../validation/validate-request.js';
import { STORE_PLUGIN } from '../plugins/store.js';

/**
 * Where a key reads its remaining units ({@link BALANCE_PATH}), at both prefixes the operations
 * answer at. Free, keyed like an operation (header or `?key=`), and rate-limited with the key's
 * other calls.
 */
const BALANCE_PATHS = [BALANCE_PATH, BALANCE_PATH.replace(/^\/_api(?=\/)/, '')] as const;

/**
 * Where clients written for the real service read a key's balance: `?key=KEY` (or the header),
 * answered as the real service answers it, the number of units alone as plain text.
 */
export const LEGACY_BALANCE_PATH = '/users/countapiunits.html';

/**
 * The balance and the health check take no parameter (the balance's key is taken out of the query
 * before this runs; the health check, which takes no key, ignores one, so that a probe may share a
 * client's URL): any other name is refused as an operation refuses a parameter it does not take.
 */
function refuseParameters(query: unknown, route: 'balance' | 'health' = 'balance'): void {
  const names = query && typeof query === 'object' ? Object.keys(query).filter((name) => route === 'balance' || name !== 'key') : [];
  if (names.length === 0) return;
  const issues = names.map((name) => parameterIssue.unknown_parameter(route, name, []));
  throw new ServiceError(400, invalidRequestMessage(issues), issues);
}

/** Where container and orchestrator probes ask whether the server can answer (no key, free). */
export const HEALTH_PATH = '/health';

/** The answer of {@link HEALTH_PATH} when the store answers. */
export interface HealthResponse {
  readonly meta: { readonly request_id: string; readonly status_code: 200; readonly success: true };
  readonly data: { readonly store: string; readonly answering: true };
}

/** The path of the error docs page. */
export const ERRORS_PAGE_PATH = '/errors';

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The error docs page: one section per kind, its id the kind (the anchor of `type`). */
function errorsPage(): string {
  const sections = Object.entries(ERROR_KINDS)
    .map(([kind, spec]) => `<section id="${kind}"><h2>${kind} (HTTP ${spec.status})</h2><p>${escapeHtml(spec.title)}</p></section>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>backlink-query: errors</title></head>
<body><h1>Errors</h1>
<p>Every error answers <code>{ meta: { request_id, status_code, success: false }, error: { type, code, message, retryable, details } }</code>:
<code>code</code> is the HTTP status, <code>type</code> links to the section below, and each detail names the parameter and the rule it broke.</p>
${sections}
</body></html>
`;
}

/**
 * Whether a GET route answers at `path`. The router's `hasRoute` reads a route pattern (`*`, `:name`
 * and parentheses mean something there), so only paths of plain characters are asked about; the
 * routes answered on GET are all such paths. Escapes are decoded first, as the router decodes
 * them (`/link%73` is `/links`).
 */
function answeredOnGet(fastify: FastifyInstance, path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  return /^[A-Za-z0-9._~/-]+$/.test(decoded) && fastify.hasRoute({ method: 'GET', url: decoded });
}

/**
 * Any method but GET and OPTIONS on a path the server answers on GET (TRACE, PROPFIND, any other
 * method Node's parser takes; POST or HEAD on the balance): 405 with `Allow`, where the router
 * alone would answer 404 (it knows only the methods some route was registered for).
 */
function answerOtherMethods(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request) => {
    if (!request.is404 || request.method === 'GET') return;
    const path = request.url.split('?')[0]!;
    if (!answeredOnGet(fastify, path)) return;
    throw new ServiceError(405, `${path} answers GET only, not ${request.method}.`, [], { Allow: 'GET, OPTIONS' });
  });
}

/** The key of a request to a keyed route: the guard authenticated it before the handler runs. */
const keyIdOf = (request: FastifyRequest): string => request.apiKeyId!;

/**
 * The balance, the health check, the error docs page, and the 405 of every other method on their paths and the
 * operations' (its hook asks the router when a request comes, so it covers the routes registered
 * after it too). The balance reads the
 * guard's `request.apiKeyId`, and the instance's `accounts`, `store` and `ledger` (`plugins/store.ts`):
 * registering this without the guard registered before it fails `ready()`.
 *
 * @example
 * ```ts
 * await fastify.register(serviceRoutes);
 * ```
 * @internal
 */
export const serviceRoutes = serverPlugin(
  async (fastify) => {
    const { accounts, store, ledger } = fastify;
    answerOtherMethods(fastify);
    for (const path of BALANCE_PATHS) {
      fastify.get(path, { config: { keyed: true }, exposeHeadRoute: false }, async (request): Promise<BalanceResponse> => {
        refuseParameters(request.query);
        const units = await accounts.balance(keyIdOf(request));
        return { meta: { request_id: request.id, status_code: 200, success: true }, data: { units_remaining: units ?? 0 } };
      });
    }
    // Keyed, free and refused like the balance above (401, 429 and 400 in the error envelope); the
    // answer itself is the bare number.
    fastify.get(LEGACY_BALANCE_PATH, { config: { keyed: true }, exposeHeadRoute: false }, async (request, reply) => {
      refuseParameters(request.query);
      const units = await accounts.balance(keyIdOf(request));
      return reply.type('text/plain; charset=utf-8').send(String(units ?? 0));
    });
    // Not keyed, so the guard neither asks for a key nor counts it against a key's rate; nothing is
    // charged. A store that does not answer is the retryable 503 of any call it cannot answer; the
    // database's own message goes to the log only (it may name hosts and users).
    fastify.get(HEALTH_PATH, { exposeHeadRoute: false }, async (request): Promise<HealthResponse> => {
      refuseParameters(request.query, 'health');
      try {
        // A ledger kept elsewhere is asked too (the store's own is asked with the store).
        await Promise.all([store.ping(), ledger === store.ledger ? undefined : ledger.ping()]);
      } catch (error) {
        request.log.warn({ err: error }, 'health: the store does not answer');
        const message = `The ${store.kind} store does not answer.`;
        throw new ServiceError(503, message, [{ rule: 'store_unavailable', message }], { 'Retry-After': '1' });
      }
      return { meta: { request_id: request.id, status_code: 200, success: true }, data: { store: store.kind, answering: true } };
    });
    const page = errorsPage();
    fastify.get(ERRORS_PAGE_PATH, { exposeHeadRoute: false }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
  },
  { name: 'backlink-query-service-routes', dependencies: [GUARD_PLUGIN, STORE_PLUGIN] },
);
