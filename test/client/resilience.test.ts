import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AbortError,
  createClient,
  HttpError,
  isApiError,
  NetworkError,
  ResponseShapeError,
  TimeoutError,
  type ClientOptions,
} from '../../src/client/index.js';
import { errorBody, fail, startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

let server: FixtureServer;
let sleeps: number[];
const NOW = Date.UTC(2026, 10, 22, 12);

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  sleeps = [];
});

/** A client whose sleeps are recorded, not waited, and whose jitter is fixed at one half. */
function clientWith(options: Partial<ClientOptions> = {}) {
  return createClient({
    apiKey: 'k',
    baseUrl: server.baseUrl,
    timing: { now: () => NOW, random: () => 0.5, sleep: async (ms) => void sleeps.push(ms) },
    ...options,
  });
}
const params = { url: 'example.com', scope: 'ROOT_DOMAIN' } as const;
const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e);

describe('retries', () => {
  it('retries 429 after the Retry-After seconds, then succeeds', async () => {
    server.queue(fail.status(429, errorBody(429, 'rate_limited', true), { 'retry-after': '3' }));
    const result = await clientWith().overview(params);
    expect(result.data.backlinks_count).toBeTypeOf('number');
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toEqual([3000]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    server.queue(fail.status(429, errorBody(429, 'rate_limited', true), { 'retry-after': new Date(NOW + 5000).toUTCString() }));
    await clientWith().overview(params);
    expect(sleeps).toEqual([5000]);
  });

  it('does not wait for a Retry-After beyond maxRetryAfter: the 429 is thrown', async () => {
    server.queue(fail.status(429, errorBody(429, 'rate_limited', true), { 'retry-after': '3600' }));
    const error = await failure(clientWith().overview(params));
    expect(error).toBeInstanceOf(HttpError);
    expect(server.requests).toHaveLength(1);
  });

  it('retries 503 with capped exponential backoff and full jitter, then gives up with HttpError', async () => {
    const unavailable = () => fail.raw(503, 'Service Unavailable', 'text/plain');
    server.queue(unavailable(), unavailable(), unavailable(), unavailable());
    const error = await failure(clientWith({ retry: { limit: 3, baseDelay: 100, maxDelay: 250 } }).overview(params));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(503);
    expect(server.requests).toHaveLength(4);
    // random() = 0.5 of min(250, 100 × 2^(n-1)): 50, 100, 125
    expect(sleeps).toEqual([50, 100, 125]);
  });

  it('retries a connection reset and keeps the cause when it persists', async () => {
    server.queue(fail.reset());
    await clientWith().links(params);
    expect(server.requests).toHaveLength(2);
    server.reset();
    server.queue(fail.reset(), fail.reset(), fail.reset());
    const error = await failure(clientWith().links(params));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).cause).toMatchObject({ name: 'TypeError', message: 'fetch failed', cause: { name: 'SocketError', code: 'UND_ERR_SOCKET' } });
    expect(server.requests).toHaveLength(3);
  });

  it('a refused connection is a NetworkError whose message says why', async () => {
    const closed = await startFixtureServer();
    await closed.close();
    const error = (await failure(createClient({ apiKey: 'k', baseUrl: closed.baseUrl, retry: false }).overview(params))) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('retries a status the body marks retryable, and not a 5xx the body marks final', async () => {
    server.queue(fail.status(400, errorBody(400, 'busy', true)));
    await clientWith().overview(params);
    expect(server.requests).toHaveLength(2);
    server.reset();
    server.queue(fail.status(500, errorBody(500, 'broken', false)));
    expect(await failure(clientWith().overview(params))).toBeInstanceOf(HttpError);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry other 4xx, and reports status, request id, code and envelope', async () => {
    server.queue(fail.status(400, errorBody(400, 'invalid_scope', false, 'req-abc')));
    const error = (await failure(clientWith().overview(params))) as HttpError;
    expect(server.requests).toHaveLength(1);
    expect(isApiError(error)).toBe(true);
    expect(error.kind).toBe('http');
    expect(error.status).toBe(400);
    expect(error.requestId).toBe('req-abc');
    expect(error.code).toBe('invalid_scope');
    expect(error.envelope?.error.details).toEqual({ hint: 'x' });
    expect(error.message).toContain(`GET ${server.baseUrl}/_api/apis/v4/backlinks/v1/overview`);
    expect(error.message).not.toContain('Apikey');
  });

  it('keeps the body of an error that is not an envelope', async () => {
    server.queue(fail.raw(502, '<html>bad gateway</html>', 'text/html'));
    const error = (await failure(clientWith({ retry: false }).overview(params))) as HttpError;
    expect(error.status).toBe(502);
    expect(error.envelope).toBeUndefined();
    expect(error.body).toBe('<html>bad gateway</html>');
  });

  it('charges no units for failed calls', async () => {
    server.queue(fail.status(404, errorBody(404, 'not_found', false)));
    const client = clientWith();
    await failure(client.links(params));
    expect(client.unitsSpent).toBe(0);
  });
});

describe('timeouts and aborts', () => {
  it('times out a response whose body stalls', async () => {
    server.queue(fail.slowBody(5_000));
    const error = await failure(clientWith({ timeout: 100 }).overview(params));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeout).toBe(100);
    expect(server.requests).toHaveLength(1);
  });

  it('times out a server that does not answer, and retries when the policy says so', async () => {
    server.queue(fail.silent(5_000));
    const result = await clientWith({ timeout: 100, retry: { retryOnTimeout: true } }).overview(params);
    expect(result.meta.success).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('a per-call timeout overrides the client timeout', async () => {
    server.queue(fail.silent(5_000));
    expect(await failure(clientWith({ timeout: 60_000 }).overview(params, { timeout: 50 }))).toBeInstanceOf(TimeoutError);
  });

  it('aborts with the caller signal as AbortError', async () => {
    server.queue(fail.silent(5_000));
    const controller = new AbortController();
    const pending = failure(clientWith().overview(params, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('user left')), 20);
    const error = (await pending) as AbortError;
    expect(error).toBeInstanceOf(AbortError);
    expect((error.cause as Error).message).toBe('user left');
  });

  it('an aborted signal sends nothing', async () => {
    const error = await failure(clientWith().overview(params, { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('responses that do not match the interface', () => {
  it.each([
    ['not JSON', '<html>oops</html>', 'not JSON'],
    ['no meta', '{"data":[]}', 'meta'],
    ['data not an array', '{"meta":{},"data":{}}', 'data is not an array'],
    ['a field of the wrong type', '{"meta":{},"data":[{"domain_score":"high"}]}', 'data[0].domain_score'],
    ['a row that is not an object', '{"meta":{},"data":[1]}', 'data[0]'],
  ])('%s', async (_, body, problem) => {
    server.queue(fail.raw(200, body));
    const error = (await failure(clientWith().links(params))) as ResponseShapeError;
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error.problem).toContain(problem);
    expect(error.bodyStart).toBe(body.slice(0, 200));
    expect(error.message).toContain(JSON.stringify(body.slice(0, 200)));
  });

  it('a CSV cell that does not fit its column', async () => {
    server.queue(fail.raw(200, 'ip_address;backlinks_count\n1.2.3.4;many\n', 'text/csv'));
    const error = (await failure(clientWith().refIps({ ...params, format: 'csv' }))) as ResponseShapeError;
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error.problem).toContain('backlinks_count');
  });

  it('charges the worst case when a 200 body cannot be read (the service billed it)', async () => {
    server.queue(fail.raw(200, 'nonsense'));
    const client = clientWith();
    await failure(client.links({ ...params, limit: 10 }));
    expect(client.unitsSpent).toBe(450);
  });
});

describe('the optional limiter', () => {
  it('keeps at most `concurrency` requests in flight', async () => {
    const client = createClient({ apiKey: 'k', baseUrl: server.baseUrl, rateLimit: { concurrency: 2, perSecond: 1000 } });
    let inFlight = 0;
    let most = 0;
    const slow = (): Parameters<FixtureServer['queue']>[0] => (_, res) =>
      new Promise<void>((resolve) => {
        most = Math.max(most, ++inFlight);
        setTimeout(() => {
          inFlight--;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"meta":{"request_id":"x","status_code":200,"success":true},"data":{}}');
          resolve();
        }, 30);
      });
    server.queue(slow(), slow(), slow(), slow(), slow());
    await Promise.all(Array.from({ length: 5 }, () => client.overview(params)));
    expect(server.requests).toHaveLength(5);
    expect(most).toBe(2);
  });

  it('spaces request starts to `perSecond` in any second, using the injected clock', async () => {
    let now = 0;
    const waits: number[] = [];
    const client = createClient({
      apiKey: 'k',
      baseUrl: server.baseUrl,
      rateLimit: { perSecond: 2 },
      timing: { now: () => now, sleep: async (ms) => { waits.push(ms); now += ms; } },
    });
    for (let i = 0; i < 5; i++) await client.overview(params);
    expect(server.requests).toHaveLength(5);
    expect(waits).toEqual([1000, 1000]);
  });
});
