/**
 * The routes beside the twelve operations: the key's units balance, and the page documenting
 * every kind of error (the target of the envelope's `type`).
 *
 * @module
 * @internal
 */
import type { FastifyInstance } from 'fastify';
import { BALANCE_PATH, type BalanceResponse } from '../../catalogue/balance.js';
import { ERROR_KINDS } from '../../catalogue/errors.js';
import { keyIdOf } from '../plugins/guard.js';
import type { Store } from '../store/store.js';

/**
 * Where a key reads its remaining units ({@link BALANCE_PATH}), at both prefixes the operations
 * answer at. Free, keyed like an operation (header or `?key=`), and rate-limited with the key's
 * other calls.
 */
const BALANCE_PATHS = [BALANCE_PATH, BALANCE_PATH.replace(/^\/_api(?=\/)/, '')] as const;

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

/** Registers the balance and the error docs page. @internal */
export function registerServiceRoutes(fastify: FastifyInstance, store: Store): void {
  for (const path of BALANCE_PATHS) {
    fastify.get(path, { config: { keyed: true }, exposeHeadRoute: false }, async (request): Promise<BalanceResponse> => {
      const units = await store.balance(keyIdOf(request)!);
      return { meta: { request_id: request.id, status_code: 200, success: true }, data: { units_remaining: units ?? 0 } };
    });
  }
  const page = errorsPage();
  fastify.get(ERRORS_PAGE_PATH, { exposeHeadRoute: false }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
}
