/**
 * `GET /health` (no key, no charge, no rate limit; 503 once the store stops answering) and the
 * URLs the server writes, which come from its `publicUrl` option and never from the request: the
 * error `type` under hostile Host headers, over raw HTTP. Expected values are written by hand
 * from docs/server.md ("Health checks", "Public URL") and docs/errors.md.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server/server.js';
import type { Store } from '../../../src/server/store/store.js';
import { BASE, fixtureStore, gatedFixtureStore, STORE_KIND, type GatedStore } from '../support/helpers.js';
import { KEYS, NOW } from '../support/fixture.js';

const KEY: string = KEYS[0].key;

/** One request written byte for byte (its Host as given, or none); the answer's status, head and body. */
async function exchange(server: RunningServer, request: string): Promise<{ status: number; head: string; body: any; text: string }> {
  const { port } = new URL(server.url);
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    socket.write(request);
  });
  const end = text.indexOf('\r\n\r\n');
  const body = text.slice(end + 4);
  return { status: Number(/^HTTP\/1\.[01] (\d+)/.exec(text)?.[1]), head: text.slice(0, end), body: body === '' ? undefined : JSON.parse(body), text };
}

/** A GET of `path` with these header lines (Connection: close, so the answer ends with the socket). */
const get = (path: string, lines: readonly string[], version = '1.1') => `GET ${path} HTTP/${version}\r\n${lines.map((line) => `${line}\r\n`).join('')}Connection: close\r\n\r\n`;

const HOSTILE_HOSTS = ['evil.example"><script>alert(1)</script>', '"quoted.example"', 'other.example:8443', "it's.example\\"];
const OVERVIEW = `${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`;
const OVERVIEW_URL = (server: RunningServer) => `${server.url}${OVERVIEW}`;

async function serve(store: Store, extra: Partial<Parameters<typeof startServer>[0]> = {}): Promise<RunningServer> {
  return startServer({ store, keys: KEYS, now: () => NOW, port: 0, host: '127.0.0.1', rateLimits: { perSecond: 1, concurrent: 1 }, ...extra });
}

describe('the URLs the server writes come from its configuration, never from Host', () => {
  let plain: RunningServer;
  let configured: RunningServer;
  beforeAll(async () => {
    const store = await fixtureStore();
    plain = await serve(store, { closeStore: false, rateLimits: { perSecond: 1000, concurrent: 1000 } });
    configured = await serve(store, { publicUrl: 'https://api.example.com/bq/', rateLimits: { perSecond: 1000, concurrent: 1000 } });
  });
  afterAll(async () => {
    await plain.close();
    await configured.close();
  });

  it('without publicUrl, every error type is the relative /errors#<kind>, whatever the Host', async () => {
    for (const host of HOSTILE_HOSTS) {
      const refused = await exchange(plain, get(OVERVIEW, [`Host: ${host}`]));
      expect(refused.status, host).toBe(401);
      expect(refused.body.error.type, host).toBe('/errors#unauthorized');
      const missing = await exchange(plain, get('/nowhere', [`Host: ${host}`]));
      expect(missing.body.error.type, host).toBe('/errors#not_found');
      const invalid = await exchange(plain, get(`${BASE}/overview?url=example.com`, [`Host: ${host}`, `Authorization: Apikey ${KEY}`]));
      expect(invalid.body.error.type, host).toBe('/errors#invalid_request');
      // Nowhere in the answer, headers included: the Host is not reflected.
      for (const answer of [refused, missing, invalid]) expect(answer.text, host).not.toContain(host.slice(0, 8));
    }
  });

  it('without a Host header (HTTP/1.1: refused; HTTP/1.0: served), the type is the same', async () => {
    const v11 = await exchange(plain, get(OVERVIEW, []));
    expect([v11.status, v11.body.error.type, v11.body.error.details]).toEqual([400, '/errors#invalid_request', [{ rule: 'missing_host', message: 'No Host header.' }]]);
    const v10 = await exchange(plain, get(OVERVIEW, [], '1.0'));
    expect([v10.status, v10.body.error.type]).toEqual([401, '/errors#unauthorized']);
  });

  it('with publicUrl, every error type starts with it (trailing slash dropped), whatever the Host', async () => {
    for (const host of HOSTILE_HOSTS) {
      const refused = await exchange(configured, get(OVERVIEW, [`Host: ${host}`]));
      expect(refused.body.error.type, host).toBe('https://api.example.com/bq/errors#unauthorized');
      const invalid = await exchange(configured, get(`${BASE}/overview?url=example.com`, [`Host: ${host}`, `Authorization: Apikey ${KEY}`]));
      expect(invalid.body.error.type, host).toBe('https://api.example.com/bq/errors#invalid_request');
      expect(refused.text + invalid.text, host).not.toContain(host.slice(0, 8));
    }
    const none = await exchange(configured, get(OVERVIEW, []));
    expect(none.body.error.type).toBe('https://api.example.com/bq/errors#invalid_request');
    // Refused by the HTTP parser itself (a header line without a colon), before any route.
    const broken = await exchange(configured, 'GET / HTTP/1.1\r\nHost: evil.example\r\nno colon here\r\n\r\n');
    expect([broken.status, broken.body.error.type]).toEqual([400, 'https://api.example.com/bq/errors#invalid_request']);
  });

  it('the OpenAPI document names publicUrl as its server, and no server without it', async () => {
    const named = await exchange(configured, get('/openapi.json', ['Host: evil.example']));
    expect(named.body.servers).toEqual([{ url: 'https://api.example.com/bq' }]);
    const unnamed = await exchange(plain, get('/openapi.json', ['Host: evil.example']));
    expect(Object.hasOwn(unnamed.body, 'servers')).toBe(false);
  });

  it('a publicUrl that is not an http(s) URL without query or fragment is refused when the server is created', async () => {
    const store = await fixtureStore();
    const bads = ['api.example.com', 'ftp://api.example.com', 'https://api.example.com/?a=1', 'https://api.example.com/#top', 'https://:secret@api.example.com', 'http://api.example.com:65536', 'http://[::1'];
    for (const bad of bads) {
      await expect(serve(store, { publicUrl: bad, closeStore: false }), bad).rejects.toThrow(
        `publicUrl must be an http(s) URL without query or fragment, such as https://api.example.com (got ${JSON.stringify(bad)}).`,
      );
    }
    // Also beside errorDocsUrl, which the URLs of errors take instead.
    await expect(serve(store, { publicUrl: 'ftp://api.example.com', errorDocsUrl: 'https://docs.example/errors', closeStore: false })).rejects.toThrow(
      new TypeError('publicUrl must be an http(s) URL without query or fragment, such as https://api.example.com (got "ftp://api.example.com").'),
    );
    // The highest port and an IPv6 address are a URL.
    const edge = await serve(store, { publicUrl: 'http://[::1]:65535/', closeStore: false });
    try {
      expect((await exchange(edge, get('/openapi.json', ['Host: evil.example']))).body.servers).toEqual([{ url: 'http://[::1]:65535' }]);
    } finally {
      await edge.close();
    }
    await store.close();
  });
});

describe('GET /health', () => {
  let server: RunningServer;
  let gated: GatedStore;
  beforeAll(async () => {
    // One call at a time per key: the overview held at the gate below takes the key's only slot.
    gated = await gatedFixtureStore('overview');
    server = await serve(gated.store, { closeStore: false, rateLimits: { perSecond: 1000, concurrent: 1 } });
  });
  afterAll(async () => {
    gated.release();
    await server.close();
    if (!closed) await gated.real.close();
  });

  let closed = false;
  const balance = async () => {
    const response = await fetch(`${server.url}/_api/apis/v4/units/v1/balance`, { headers: { authorization: `Apikey ${KEY}` } });
    expect(response.status).toBe(200);
    return (await response.json()).data.units_remaining;
  };
  const expectAnswering = async (response: Response, label: string) => {
    expect(response.status, label).toBe(200);
    expect(response.headers.get('x-units-charged'), label).toBeNull();
    expect(await response.json(), label).toEqual({ meta: { request_id: response.headers.get('x-request-id'), status_code: 200, success: true }, data: { store: STORE_KIND, answering: true } });
  };

  it(`answers 200 in the envelope, naming the store (${STORE_KIND}), with no key, free, and outside the key's limits`, async () => {
    const before = await balance();
    // The key's one slot is taken by an overview held in flight at the store.
    const held = fetch(OVERVIEW_URL(server), { headers: { authorization: `Apikey ${KEY}` } });
    await gated.inside;
    const checks: [string, RequestInit, string][] = [
      ['no key', {}, ''],
      ['the key in the header', { headers: { authorization: `Apikey ${KEY}` } }, ''],
      ['the key in the query', {}, `?key=${KEY}`],
    ];
    for (const [label, init, query] of checks) await expectAnswering(await fetch(`${server.url}/health${query}`, init), label);
    // The key's next call is refused: its slot is still taken, the checks never took one.
    const refused = await fetch(OVERVIEW_URL(server), { headers: { authorization: `Apikey ${KEY}` } });
    expect([refused.status, refused.headers.get('retry-after'), (await refused.json()).error.message]).toEqual([429, '1', 'Too many requests at once for this key; retry after 1 s.']);
    gated.release();
    expect((await held).status).toBe(200);
    // The overview's price (45 units a request, the interface's), nothing for the checks.
    expect(await balance()).toBe(before - 45);
  });

  it('ignores a key, in the header or the query, even a wrong one (no 401)', async () => {
    await expectAnswering(await fetch(`${server.url}/health?key=wrong-key-000`), '?key=wrong');
    await expectAnswering(await fetch(`${server.url}/health`, { headers: { authorization: 'Apikey wrong-key-000' } }), 'a wrong header');
    await expectAnswering(await fetch(`${server.url}/health?key=a&key=b`), 'two keys');
  });

  it('refuses any other parameter (400, unknown_parameter), as the balance does, with or without a key', async () => {
    for (const query of ['?verbose=1', `?key=${KEY}&verbose=1`, '?verbose=1&key=wrong']) {
      const response = await fetch(`${server.url}/health${query}`);
      expect(response.status, query).toBe(400);
      expect((await response.json()).error, query).toMatchObject({
        type: '/errors#invalid_request',
        details: [{ parameter: 'verbose', rule: 'unknown_parameter', message: 'health takes no parameter verbose.' }],
      });
    }
    // A name close to key is not key.
    const near = await fetch(`${server.url}/health?keys=${KEY}`);
    expect([near.status, (await near.json()).error.details]).toEqual([400, [{ parameter: 'keys', rule: 'unknown_parameter', message: 'health takes no parameter keys.' }]]);
  });

  it('answers 405 to other methods', async () => {
    const response = await fetch(`${server.url}/health`, { method: 'POST' });
    expect([response.status, response.headers.get('allow')]).toEqual([405, 'GET, OPTIONS']);
  });

  it('answers 503 (retryable, Retry-After) once the store stops answering, naming the store, not its error', async () => {
    await gated.real.close();
    closed = true;
    const response = await fetch(`${server.url}/health`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    const message = `The ${STORE_KIND} store does not answer.`;
    expect((await response.json()).error).toEqual({ type: '/errors#unavailable', code: 503, message, retryable: true, details: [{ rule: 'store_unavailable', message }] });
  });
});
