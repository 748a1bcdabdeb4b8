/**
 * A real HTTP server on 127.0.0.1 for the client and CLI tests: it records every request, answers
 * each operation with fixture rows (JSON or CSV, honouring fields, limit and offset), and can be
 * told to fail on purpose (a status with a body and headers, a reset connection, a slow body).
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { operations, OPERATION_NAMES, type OperationName } from '../../../src/catalogue/operations.js';
import { project, sampleRow, toCsv } from './fixtures.js';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
}

/** Answers one request; return `false` to fall through to the fixture answer. */
export type Handler = (request: RecordedRequest, res: ServerResponse) => void | boolean | Promise<void | boolean>;

export interface FixtureServer {
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Rows available per list operation (default 250). */
  total: number;
  /** One-shot handlers used, in order, before the fixture answer. */
  queue(...handlers: Handler[]): void;
  reset(): void;
  close(): Promise<void>;
}

const byPath = new Map<string, OperationName>(OPERATION_NAMES.map((name) => [operations[name].path, name]));

/** The normal answer: fixture rows for the operation, as JSON or CSV. */
export function answerFixture(request: RecordedRequest, res: ServerResponse, total: number): void {
  const operation = byPath.get(request.path);
  if (!operation) return sendJson(res, 404, { meta: { request_id: 'r-404', status_code: 404, success: false }, error: { code: 'not_found', message: 'No such operation', retryable: false } });
  const rows = fixtureRows(operation, request.query, total);
  if (request.query.get('format') === 'csv') {
    const fields = request.query.get('fields')?.split(',');
    res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'x-request-id': 'csv-1' });
    res.end(toCsv(operation, rows, fields));
    return;
  }
  const spec = operations[operation];
  const meta = { request_id: `req-${operation}`, status_code: 200, success: true, ...(spec.shape === 'list' && { total }) };
  sendJson(res, 200, { meta, data: spec.shape === 'list' ? rows : rows[0] });
}

function fixtureRows(operation: OperationName, query: URLSearchParams, total: number): Record<string, unknown>[] {
  const spec = operations[operation];
  const fields = query.get('fields')?.split(',');
  const urls = query.get('urls')?.split(',');
  const targets = urls?.length ?? 12;
  if (spec.shape === 'object') return [project(sampleRow(operation, 7, targets), fields)];
  const offset = Number(query.get('offset') ?? 0);
  const limitSpec = (spec.params as unknown as Record<string, { kind: string; default?: number }>)['limit'];
  // Without a limit: one row per target (comparison) or one per score 0-100 (score-profile).
  const limit = Number(query.get('limit') ?? limitSpec?.default ?? (urls ? targets : 101));
  const count = Math.max(0, Math.min(limit, total - offset));
  return Array.from({ length: count }, (_, i) => project(sampleRow(operation, offset + i, targets), fields));
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** An error envelope as the service would send it. */
export function errorBody(status: number, code: string, retryable: boolean, requestId = `req-${status}`): unknown {
  return { meta: { request_id: requestId, status_code: status, success: false }, error: { code, message: `failed: ${code}`, retryable, details: { hint: 'x' } } };
}

/** Handlers that fail on purpose. */
export const fail = {
  status: (status: number, body: unknown = errorBody(status, 'oops', false), headers: Record<string, string> = {}): Handler =>
    (_, res) => sendJson(res, status, body, headers),
  reset: (): Handler => (_, res) => {
    res.socket?.destroy();
  },
  /** Headers and half the body now, the rest after `ms` (or never, when the client gives up first). */
  slowBody: (ms: number): Handler => (_, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"meta":{"request_id":"slow","status_code":200,"success":true},');
    const timer = setTimeout(() => res.end('"data":{}}'), ms);
    res.on('close', () => clearTimeout(timer));
  },
  /** No answer at all for `ms`. */
  silent: (ms: number): Handler => (req, res) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        answerFixture(req, res, 10);
        resolve();
      }, ms);
      res.on('close', () => {
        clearTimeout(timer);
        resolve();
      });
    }),
  raw: (status: number, body: string, type = 'application/json'): Handler => (_, res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  },
};

export async function startFixtureServer(): Promise<FixtureServer> {
  const requests: RecordedRequest[] = [];
  const pending: Handler[] = [];
  const state = { total: 250 };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const request: RecordedRequest = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers };
    requests.push(request);
    const handler = pending.shift();
    void (async () => {
      if (handler && (await handler(request, res)) !== false) return;
      answerFixture(request, res, state.total);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    get total() {
      return state.total;
    },
    set total(value: number) {
      state.total = value;
    },
    queue: (...handlers) => pending.push(...handlers),
    reset() {
      requests.length = 0;
      pending.length = 0;
      state.total = 250;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
