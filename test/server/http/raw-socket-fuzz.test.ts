/**
 * Every request Node's HTTP parser hands over (and every one it refuses) is answered in the error
 * envelope with a 4xx, charges nothing, and never echoes the key: generated requests over raw
 * sockets (raw-fuzz-kit.ts says what is generated and checked). Seeded: `FUZZ_SEED` picks another
 * seed. The long run (10 s, five minutes in `npm run soak`) is test/server/load/raw-socket-fuzz.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server/server.js';
import { fixtureStore, type TestStore } from '../support/helpers.js';
import { KEYS, NOW } from '../support/fixture.js';
import { exchange, problemsOf, runRawSocketFuzz, serialize, type RawRequest } from '../support/raw-fuzz-kit.js';

const KEY: string = KEYS[0].key;
const SEED = Number(process.env['FUZZ_SEED'] ?? 25);

let server: RunningServer;
let store: TestStore;
let port: number;

beforeAll(async () => {
  store = await fixtureStore();
  // Limits lifted: the fuzz reaches the validation and the routes, not only 429.
  server = await startServer({ store, keys: KEYS, now: () => NOW, port: 0, host: '127.0.0.1', corsOrigins: ['https://app.example'], rateLimits: { perSecond: 1e9, concurrent: 1e9 } });
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server.close();
});

describe('raw-socket fuzz', () => {
  it('the checks catch what they look for', () => {
    const request: RawRequest = { method: 'GET', target: '/x', version: 'HTTP/1.1', headers: [] };
    const bare = Buffer.from('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n', 'latin1');
    expect(problemsOf(request, bare, KEY)).toEqual(['not JSON: HTTP/1.1 400 Bad Request', 'a body that is not JSON: ""']);
    const body = JSON.stringify({ meta: { request_id: 'r', status_code: 200, success: true }, data: { url: `?key=${KEY}` } });
    const echoed = Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n${body}`, 'latin1');
    expect(problemsOf(request, echoed, KEY)).toEqual(['the key is echoed', 'status 200', `not the envelope: ${body}`]);
    expect(problemsOf(request, Buffer.alloc(0), KEY)).toEqual(['no answer ("")']);
    expect(serialize({ ...request, body: { text: 'é', framing: 'chunked' } }).toString('latin1')).toBe('GET /x HTTP/1.1\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n\u00c3\u00a9\r\n0\r\n\r\n');
    expect(serialize({ ...request, headers: [['Connection', 'keep-alive']] }).toString('latin1')).toBe('GET /x HTTP/1.1\r\nConnection: keep-alive\r\n\r\n');
  });

  it('a body on GET, a pipelined second request, Expect, Upgrade: each answered in the envelope', async () => {
    const requests: RawRequest[] = [
      { method: 'GET', target: `/apis/v4/backlinks/v1/overview?fuzz=1&key=${KEY}`, version: 'HTTP/1.1', headers: [['Host', 'a'], ['Content-Type', 'application/json']], body: { text: '{bad', framing: 'length' } },
      { method: 'GET', target: '/apis/v4/backlinks/v1/overview', version: 'HTTP/1.1', headers: [['Host', 'a']], body: { text: 'x', framing: 'chunked' }, pipelined: 'GARBAGE\r\n\r\n' },
      { method: 'GET', target: '/apis/v4/units/v1/balance?fuzz=1', version: 'HTTP/1.1', headers: [['Host', 'a'], ['Authorization', `Apikey ${KEY}`], ['Expect', '100-continue']] },
      { method: 'GET', target: '/apis/v4/units/v1/balance?fuzz=1', version: 'HTTP/1.1', headers: [['Host', 'a'], ['Authorization', `Apikey ${KEY}`], ['Expect', 'something-else']] },
      { method: 'GET', target: '/apis/v4/units/v1/balance', version: 'HTTP/1.1', headers: [['Host', 'a'], ['Connection', 'Upgrade'], ['Upgrade', 'websocket']] },
    ];
    for (const request of requests) {
      const { bytes } = await exchange(port, serialize(request));
      expect({ request: request.target, problems: problemsOf(request, bytes, KEY) }).toEqual({ request: request.target, problems: [] });
    }
  });

  it(
    'generated requests: a 4xx in the envelope each, the key never echoed, no unit charged',
    async () => {
      const before = await Promise.all(KEYS.map((k) => store.ledger.balance(k.id)));
      const report = await runRawSocketFuzz({ port, key: KEY, seed: SEED, numRuns: 1000 });
      expect(report.failure, `seed ${SEED}`).toBeUndefined();
      expect(report.requests).toBeGreaterThanOrEqual(1000);
      // The requests reach far: the parser's refusals, the router, the guard and the validation.
      for (const status of [400, 401, 404, 405]) expect(report.statuses[status] ?? 0, `status ${status}: ${JSON.stringify(report.statuses)}`).toBeGreaterThan(0);
      expect(await Promise.all(KEYS.map((k) => store.ledger.balance(k.id)))).toEqual(before);
    },
    120_000,
  );
});
