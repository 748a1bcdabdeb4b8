/**
 * Error answers that are not the service's envelope, as a proxy or load balancer in front of it
 * sends them (plain text, HTML), from a real HTTP server on 127.0.0.1. Without an envelope there is
 * no `retryable` flag, so the policy's status list decides (docs/client.md, Retries): with the
 * defaults (2 retries; 408, 429 and 500-599 retried) a 400 is sent once, a 500, 502 or 503 three
 * times. The error is an `HttpError` whose `code` is the kind of the status (docs/errors.md: 400
 * invalid_request, 500 internal_error, 503 unavailable; 502 has none), its body kept as sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, HttpError, type ClientOptions } from '../../src/client/index.js';

/** What the server answers, in order; the last one again once the list runs out. */
let answers: { status: number; type: string; body: string; headers?: Record<string, string> }[];
let requests: string[];
let sleeps: number[];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    res.writeHead(answer.status, { 'content-type': answer.type, ...answer.headers });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
beforeEach(() => {
  requests = [];
  sleeps = [];
});

/** The default policy; sleeps recorded, not waited; jitter fixed at one half. */
const client = (options: Partial<ClientOptions> = {}) =>
  createClient({ apiKey: 'k', baseUrl, timing: { now: () => 0, random: () => 0.5, sleep: async (ms) => void sleeps.push(ms) }, ...options });
const params = { url: 'example.com', scope: 'ROOT_DOMAIN' } as const;
const failure = (promise: Promise<unknown>) => promise.then(() => expect.unreachable('the call succeeded'), (error: unknown) => error);

const NGINX_400 = '<html>\r\n<head><title>400 Bad Request</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
const OK = JSON.stringify({ meta: { request_id: 'r', status_code: 200, success: true }, data: { backlinks_count: 3 } });

describe('a plain (non-envelope) error from a proxy', () => {
  it('400: not retried; HttpError invalid_request with the body as sent', async () => {
    answers = [{ status: 400, type: 'text/html', body: NGINX_400 }];
    const error = (await failure(client().overview(params))) as HttpError;
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(error).toBeInstanceOf(HttpError);
    expect([error.kind, error.status, error.code, error.envelope, error.body]).toEqual(['http', 400, 'invalid_request', undefined, NGINX_400]);
    expect(error.message).toBe(`400 invalid_request: Bad Request (GET ${baseUrl}/_api/apis/v4/backlinks/v1/overview?url=example.com&scope=ROOT_DOMAIN)`);
  });

  it.each([
    [500, 'text/plain', 'Internal Server Error', 'internal_error'],
    [502, 'text/html', '<html><body><h1>502 Bad Gateway</h1></body></html>', undefined],
    [503, 'text/plain', 'upstream connect error or disconnect/reset before headers', 'unavailable'],
  ])('%i (%s): sent three times (the first and two retries), then an HttpError', async (status, type, body, code) => {
    answers = [{ status, type, body }];
    const error = (await failure(client().overview(params))) as HttpError;
    expect(requests).toHaveLength(3);
    // Full jitter over 300 ms doubling: 0.5 × 300, 0.5 × 600.
    expect(sleeps).toEqual([150, 300]);
    expect(error).toBeInstanceOf(HttpError);
    expect([error.kind, error.status, error.code, error.envelope, error.body]).toEqual(['http', status, code, undefined, body]);
  });

  it.each([500, 502, 503])('%i once, then the answer: the retry succeeds', async (status) => {
    answers = [{ status, type: 'text/plain', body: 'try again' }, { status: 200, type: 'application/json', body: OK }];
    const result = await client().overview(params);
    expect(result.data.backlinks_count).toBe(3);
    expect(requests).toHaveLength(2);
    expect(sleeps).toEqual([150]);
  });

  it('a plain 503 with Retry-After waits as told', async () => {
    answers = [{ status: 503, type: 'text/plain', body: 'busy', headers: { 'retry-after': '2' } }, { status: 200, type: 'application/json', body: OK }];
    await client().overview(params);
    expect(requests).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
  });

  it('retry: false sends a plain 503 once', async () => {
    answers = [{ status: 503, type: 'text/plain', body: 'busy' }];
    const error = (await failure(client({ retry: false }).overview(params))) as HttpError;
    expect(requests).toHaveLength(1);
    expect(error.status).toBe(503);
  });
});
