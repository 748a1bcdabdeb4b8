/**
 * Creates the Fastify instance around {@link backlinkQueryApp} and listens; closes cleanly on
 * SIGTERM/SIGINT (Fastify stops accepting, in-flight requests finish, the last charges are
 * written, then the ledger and the store close).
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';
import type { Socket } from 'node:net';
import { backlinkQueryApp, type AppOptions } from './app.js';
import { clientErrorHandler, MAX_HEADER_SIZE } from './client-error.js';
import { errorDocsUrlOf, errorEnvelope, ServiceError, type ErrorDetail } from './errors.js';
import { loadServerDeps } from './deps.js';
import type { Ledger } from './store/ledger.js';
import type { Store } from './store/store.js';

/** Options of {@link createServer}. */
export interface ServerOptions extends Omit<AppOptions, 'parser' | 'ledger'> {
  /**
   * The units ledger: API keys and balances (default: the store's own, `store.ledger`). A store
   * without one needs it, else `createServer` rejects with a `TypeError`.
   */
  readonly ledger?: Ledger;
  /** Fastify's logger option (default: off); pass `true` or pino options for JSON logs. */
  readonly logger?: FastifyServerOptions['logger'];
}

/**
 * A ready Fastify instance serving the interface (not listening yet; use `inject` or `listen`).
 *
 * @example
 * ```ts
 * const app = await createServer({ store, keys: [{ id: 'me', key: 'secret-key', units: 1000 }] });
 * const response = await app.inject({ url: '/openapi.json' });
 * ```
 */
export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const ledger = ledgerOf(options);
  const { fastify, tldts } = await loadServerDeps();
  // Also the answers written below the routes (refused by the HTTP parser, CONNECT, a bad URL).
  const docsUrl = errorDocsUrlOf(options);
  const app = fastify({
    logger: options.logger ?? false,
    ...logControl(fastify),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Requests that reach a closing server get the service's 503 envelope (the hook below), not
    // Fastify's own body.
    return503OnClosing: false,
    // A request without Host reaches the hooks below, to be answered in the envelope (Node's own
    // answer to it is an empty 400).
    http: { maxHeaderSize: MAX_HEADER_SIZE, requireHostHeader: false },
    clientErrorHandler: clientErrorHandler(() => docsUrl),
    // A percent-escape that does not decode (`%FF`, `%zz`, a lone `%`) in the path: Fastify's own
    // body would echo the whole URL, `?key=` included. The envelope names no part of it.
    frameworkErrors: (error, request, reply) => {
      const message = error.code === 'FST_ERR_BAD_URL' ? 'The URL has a percent-escape that does not decode to UTF-8 (such as %FF, %zz or a lone %).' : 'The request could not be routed.';
      const details: ErrorDetail[] = error.code === 'FST_ERR_BAD_URL' ? [{ rule: 'bad_url', message }] : [];
      void (reply as FastifyReply).code(400).header('X-Request-Id', request.id).send(errorEnvelope(request.id, 400, message, details, docsUrl));
    },
  });
  // CONNECT (a proxy tunnel) never reaches a route: Node hands the socket over, and without this
  // closes it unanswered.
  app.server.on('connect', (_request, socket: Socket) => {
    const requestId = randomUUID();
    const body = JSON.stringify(errorEnvelope(requestId, 405, 'This server is not a proxy: CONNECT is not answered; operations answer GET.', [], docsUrl));
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, OPTIONS\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  // An Expect other than 100-continue: Node's own answer is a bare 417 (no body, no envelope).
  // RFC 9110 lets a server answer the request instead (417 is a "MAY"): it is answered as if the
  // header were absent, so it is refused or served like any other.
  app.server.on('checkExpectation', (request, response) => {
    app.server.emit('request', request, response);
  });
  // Once closing starts, every response asks its client to close the connection: a keep-alive
  // connection whose request was in flight at that moment would otherwise hold the server open
  // until the keep-alive timeout (Node closes only the connections idle when close() is called).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request) => {
    if (closing) throw new ServiceError(503, 'The server is shutting down; retry shortly.', [{ rule: 'shutting_down', message: 'The server is shutting down.' }], { 'Retry-After': '1' });
    // HTTP/1.1 requires Host (HTTP/1.0 does not).
    if (request.headers.host === undefined && request.raw.httpVersion !== '1.0') {
      throw new ServiceError(400, 'The request has no Host header; HTTP/1.1 requires one.', [{ rule: 'missing_host', message: 'No Host header.' }]);
    }
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('Connection', 'close');
  });
  // The app closes the ledger and the store (after writing the last charges).
  await app.register(backlinkQueryApp, { ...options, ledger, parser: tldts });
  await app.ready();
  return app;
}

/** The ledger of the options, or the store's own; a `TypeError` when there is neither. */
function ledgerOf(options: Pick<ServerOptions, 'store' | 'ledger'>): Ledger {
  const ledger = options.ledger ?? (options.store as Partial<Store> | undefined)?.ledger;
  if (ledger === undefined) throw new TypeError('createServer: no ledger: the store has none (store.ledger); pass one as the ledger option.');
  return ledger;
}

/**
 * Fastify's own per-request lines are off (the app writes one line per request itself); newer
 * Fastify 5 releases take this through a LogController, older ones through top-level options.
 */
function logControl(fastify: object): FastifyServerOptions {
  const settings = { disableRequestLogging: true, requestIdLogLabel: 'request_id' };
  const Controller = (fastify as { LogController?: new (options: object) => unknown }).LogController;
  return (Controller ? { logController: new Controller(settings) } : settings) as FastifyServerOptions;
}

/** A listening server. */
export interface RunningServer {
  readonly app: FastifyInstance;
  /** `http://host:port` */
  readonly url: string;
  readonly store: Store;
  /** The units ledger the server charges in. */
  readonly ledger: Ledger;
  /** Stops accepting, lets in-flight requests finish, writes the last charges, closes the ledger and the store. */
  close(): Promise<void>;
}

/**
 * Creates the server, listens, and (with `signals`) closes gracefully on SIGTERM and SIGINT.
 *
 * @example
 * ```ts
 * const server = await startServer({ store, port: 0, host: '127.0.0.1' });
 * console.log(server.url);
 * await server.close();
 * ```
 */
export async function startServer(
  options: ServerOptions & { readonly port?: number; readonly host?: string; readonly signals?: boolean; readonly onClosed?: () => void },
): Promise<RunningServer> {
  const ledger = ledgerOf(options);
  const app = await createServer({ ...options, ledger });
  const address = await app.listen({ port: options.port ?? 3000, host: options.host ?? '127.0.0.1' });
  let closing: Promise<void> | undefined;
  const onSignal = () => void close();
  const close = () =>
    (closing ??= app.close().then(() => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      options.onClosed?.();
    }));
  if (options.signals) {
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
  return { app, url: address, store: options.store, ledger, close };
}
