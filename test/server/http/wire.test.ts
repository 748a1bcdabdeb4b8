/**
 * The server as a drop-in stand-in for the real service, over HTTP on loopback: the real
 * service's error envelope (numeric `code`, `type` documentation URL), read by a client written
 * only against that envelope; the key as `?key=`; `/apis/v4/...` beside `/_api/apis/v4/...`;
 * CORS; the units balance; oversized requests; calls abandoned before their answer.
 * Every expectation is written by hand from the interface, the issue and docs/errors.md.
 */
import { readFileSync } from 'node:fs';
import { METHODS } from 'node:http';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, HttpError } from '../../../src/client/index.js';
import { startServer, type RunningServer } from '../../../src/server/server.js';
import { validateRequest } from '../../../src/server/validation/validate-request.js';
import { BASE, fixtureStore, gatedFixtureStore, type TestStore } from '../support/helpers.js';
import { KEYS, NOW } from '../support/fixture.js';

const KEY: string = KEYS[0].key;
const POOR = KEYS[1].key;
/** The kinds docs/errors.md documents, written out by hand. */
const KINDS = [
  'invalid_request', 'unauthorized', 'insufficient_units', 'not_found', 'method_not_allowed', 'request_timeout', 'request_too_large',
  'rate_limited', 'internal_error', 'unavailable',
];

/**
 * A client written only against the real service's documented envelope: it knows nothing of
 * this package. It prints "code: message" when `error.code` is a number, else gives up.
 */
async function realServiceClient(url: string, init: RequestInit = {}): Promise<{ status: number; line: string; type: string; retryable: boolean; body: any }> {
  const response = await fetch(url, init);
  const body = (await response.json()) as any;
  if (response.ok) return { status: response.status, line: 'ok', type: '', retryable: false, body };
  const error = body?.error;
  const line = typeof error?.code === 'number' && typeof error?.message === 'string' ? `${error.code}: ${error.message}` : `unreadable: ${JSON.stringify(body)}`;
  return { status: response.status, line, type: error?.type, retryable: error?.retryable, body };
}

let server: RunningServer;
let store: TestStore;
const logs: any[] = [];

beforeAll(async () => {
  store = await fixtureStore();
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  });
  server = await startServer({
    store,
    keys: [...KEYS, { id: 'slow', key: 'slow-key-0003', units: 1000, rate: 1, concurrency: 5 }, { id: 'counted', key: 'counted-key-0004', units: 777 }],
    now: () => NOW,
    port: 0,
    host: '127.0.0.1',
    corsOrigins: ['https://app.example'],
    logger: { level: 'info', stream },
    rateLimits: { perSecond: 1000, concurrent: 1000 },
  });
});
afterAll(async () => {
  await server.close();
});

const at = (path: string) => `${server.url}${path}`;
const headers = (key: string = KEY) => ({ authorization: `Apikey ${key}` });

describe("the real service's error envelope", () => {
  it('every error our server answers is classified by a client written for the real one', async () => {
    const cases: [string, Promise<Awaited<ReturnType<typeof realServiceClient>>>, number, string][] = [
      ['bad limit', realServiceClient(at(`${BASE}/links?url=example.com&scope=ROOT_DOMAIN&limit=0`), { headers: headers() }), 400, 'invalid_request'],
      ['no key', realServiceClient(at(`${BASE}/links?url=example.com&scope=ROOT_DOMAIN`)), 401, 'unauthorized'],
      // links of example.com: 7 lines at 45 units = 315, more than the poor key's 50.
      ['too few units', realServiceClient(at(`${BASE}/links?url=example.com&scope=ROOT_DOMAIN`), { headers: headers(POOR) }), 402, 'insufficient_units'],
      ['unknown path', realServiceClient(at('/apis/v4/backlinks/v1/nothing'), { headers: headers() }), 404, 'not_found'],
      ['POST', realServiceClient(at(`${BASE}/links`), { method: 'POST', headers: headers() }), 405, 'method_not_allowed'],
    ];
    for (const [label, pending, status, kind] of cases) {
      const result = await pending;
      expect(result.status, label).toBe(status);
      expect(result.line, label).toMatch(new RegExp(`^${status}: \\S`));
      expect(result.type, label).toBe(`/errors#${kind}`);
      expect(result.retryable, label).toBe(false);
      expect(result.body.meta, label).toMatchObject({ status_code: status, success: false });
    }
  });

  it('a 400 names the parameter and the rule in details, and its message is the reason', async () => {
    const result = await realServiceClient(at(`${BASE}/links?url=example.com&scope=ROOT_DOMAIN&limit=100000`), { headers: headers() });
    expect(result.status).toBe(400);
    expect(result.body.error.message).toBe('limit must be at most 10000, not 100000.');
    expect(result.body.error.details).toEqual([{ parameter: 'limit', rule: 'too_large', message: 'limit must be at most 10000, not 100000.', maximum: 10000 }]);
  });

  it('429 is retryable with Retry-After, and its log line names the key', async () => {
    const first = await realServiceClient(at(`${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`), { headers: headers('slow-key-0003') });
    const second = await realServiceClient(at(`${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`), { headers: headers('slow-key-0003') });
    expect(first.status).toBe(200);
    expect(second.status).toBe(429);
    expect(second.line).toMatch(/^429: /);
    expect(second.type).toBe('/errors#rate_limited');
    expect(second.retryable).toBe(true);
    const line = logs.find((entry) => entry.request_id === second.body.meta.request_id);
    expect(line).toMatchObject({ status: 429, key_id: 'slow' });
  });

  it('the type URL leads to a page with a section per kind', async () => {
    const response = await fetch(at('/errors'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    for (const kind of KINDS) expect(html, kind).toContain(`id="${kind}"`);
  });

  it('docs/errors.md documents each kind under its own heading (the anchor)', () => {
    const docs = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
    for (const kind of KINDS) expect(docs, kind).toMatch(new RegExp(`^## ${kind}$`, 'm'));
  });

  it('validateRequest, used alone, names /errors by default and a given page when told', () => {
    const alone = validateRequest('links', {});
    const told = validateRequest('links', {}, { docsUrl: 'https://docs.example/errors' });
    expect(alone.ok || alone.body.error.type).toBe('/errors#invalid_request');
    expect(told.ok || told.body.error.type).toBe('https://docs.example/errors#invalid_request');
    expect(told.ok || told.body.error.code).toBe(400);
  });
});

describe('oversized requests', () => {
  it('accepts a filter of the maximum length in the worst encoding (3 bytes per character)', async () => {
    // 4,096 characters: anchor = '€€€…' (10 + 4,085 + 1); percent-encoded, 36,795 bytes of query.
    const filter = `anchor = '${'€'.repeat(4085)}'`;
    expect(filter).toHaveLength(4096);
    const response = await fetch(at(`${BASE}/links?url=example.com&scope=ROOT_DOMAIN&filter=${encodeURIComponent(filter)}`), { headers: headers() });
    expect(response.status).toBe(200);
    expect((await response.json()).meta.total).toBe(0);
  });

  it('answers a request line past the limit with 431 in the envelope', async () => {
    // A raw socket: the server answers before it has read the whole request, then closes.
    const { port } = new URL(server.url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
      socket.write(`GET ${BASE}/links?url=example.com&scope=ROOT_DOMAIN&filter=${'x'.repeat(200_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Apikey ${KEY}\r\n\r\n`);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(body.error.code).toBe(431);
    expect(body.error.message).toMatch(/^The request line and headers are longer than the 128 KiB this server reads/);
    expect(body.error.type).toBe('/errors#request_too_large');
    expect(body.error.retryable).toBe(false);
    expect(body.meta).toMatchObject({ status_code: 431, success: false });
  });
});

/** Sends `request` on a raw socket and reads until the server closes or has answered one response. */
async function rawExchange(request: string): Promise<{ status: number; headers: string; body: any }> {
  const { port } = new URL(server.url);
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    const done = () => {
      socket.destroy();
      resolve(received);
    };
    socket.on('data', (chunk) => {
      received += chunk;
      const end = received.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(received.slice(0, end));
      if (end >= 0 && length && Buffer.byteLength(received.slice(end + 4)) >= Number(length[1])) done();
    });
    socket.on('close', done);
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    socket.write(request);
  });
  const end = text.indexOf('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.[01] (\d+)/.exec(text)?.[1]), headers: text.slice(0, end), body: end >= 0 && text.length > end + 4 ? JSON.parse(text.slice(end + 4)) : undefined };
}

describe('requests that reach no route', () => {
  it('a percent-escape that does not decode in the path: 400 in the envelope, the URL (and its key) not echoed', async () => {
    for (const bad of ['%FF', '%C3%28', '%', '%zz']) {
      const { status, body } = await rawExchange(`GET ${BASE}/links${bad}?url=example.com&key=${KEY} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      expect({ bad, status }).toEqual({ bad, status: 400 });
      expect(body.error).toMatchObject({ code: 400, retryable: false, details: [{ rule: 'bad_url' }] });
      expect(body.error.type).toBe('/errors#invalid_request');
      expect(JSON.stringify(body)).not.toContain(KEY);
      expect(JSON.stringify(body)).not.toContain('links');
    }
  });

  it('HTTP/1.1 without Host: 400 in the envelope naming the missing header; HTTP/1.0 without it is answered', async () => {
    const missing = await rawExchange(`GET ${BASE}/overview?url=example.com&scope=ROOT_DOMAIN HTTP/1.1\r\nAuthorization: Apikey ${KEY}\r\n\r\n`);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 400, details: [{ rule: 'missing_host' }] });
    expect(missing.body.error.type).toBe('/errors#invalid_request');
    const old = await rawExchange(`GET ${BASE}/overview?url=example.com&scope=ROOT_DOMAIN HTTP/1.0\r\nAuthorization: Apikey ${KEY}\r\n\r\n`);
    expect(old.status).toBe(200);
    expect(old.body.meta.success).toBe(true);
  });

  it('CONNECT: 405 in the envelope with Allow, the socket then closed', async () => {
    const { status, headers, body } = await rawExchange(`CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`);
    expect(status).toBe(405);
    expect(headers).toMatch(/\r\nAllow: GET, OPTIONS\r\n/);
    expect(body.error).toMatchObject({ code: 405, retryable: false });
    expect(body.error.type).toBe('/errors#method_not_allowed');
  });
});

describe('every other method on a path answered on GET', () => {
  // Every method Node's parser takes but GET, OPTIONS (the CORS preflight, answered everywhere)
  // and CONNECT (a proxy tunnel, answered above).
  const OTHER_METHODS = METHODS.filter((method) => method !== 'GET' && method !== 'OPTIONS' && method !== 'CONNECT');

  it('answers 405 with Allow, in the envelope, on an operation, the balance and its legacy address', async () => {
    expect(OTHER_METHODS).toEqual(expect.arrayContaining(['TRACE', 'PROPFIND', 'POST', 'HEAD', 'SEARCH', 'QUERY']));
    const paths = [`${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`, '/apis/v4/units/v1/balance', '/_api/apis/v4/units/v1/balance', '/users/countapiunits.html'];
    const wrong: string[] = [];
    for (const path of paths) {
      for (const method of OTHER_METHODS) {
        // Connection: close, so that a HEAD answer (headers only) ends when the server closes.
        const { status, headers, body } = await rawExchange(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Apikey ${KEY}\r\nConnection: close\r\n\r\n`);
        const ok = status === 405 && /\r\nAllow: GET, OPTIONS\r\n/i.test(headers) && (method === 'HEAD' || (body?.error?.code === 405 && body.error.type === '/errors#method_not_allowed'));
        if (!ok) wrong.push(`${method} ${path}: ${status} ${JSON.stringify(body)?.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('leaves a path answered on no method a 404, whatever characters it holds', async () => {
    // `*`, `:` and parentheses mean something in a route pattern: a path is never read as one.
    for (const path of ['/apis/v4/backlinks/v1/nothing', '*', '*%00', '/apis/*', '/apis/:name', '/(a)', '/%2A']) {
      const { status, body } = await rawExchange(`PROPFIND ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect({ path, status, code: body?.error?.code }).toEqual({ path, status: 404, code: 404 });
    }
  });
});

describe('query strings', () => {
  const overview = `${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`;
  const details = async (path: string, init: RequestInit = { headers: headers() }) => {
    const response = await fetch(at(path), init);
    return { status: response.status, body: (await response.json()) as any };
  };

  it('__proto__, constructor and prototype are unknown parameters like any other', async () => {
    for (const name of ['__proto__', 'constructor', 'prototype', 'hasOwnProperty']) {
      const { status, body } = await details(`${overview}&${name}=x`);
      expect({ name, status }).toEqual({ name, status: 400 });
      expect(body.error.details).toEqual([{ parameter: name, rule: 'unknown_parameter', message: `overview takes no parameter ${name}.` }]);
    }
  });

  it('a value whose percent-escapes do not decode to UTF-8 is named with its bad escape, not read', async () => {
    const cases: [string, string][] = [
      [`filter=anchor%20%3D%20'%C3%28'`, '%C3%28'], // a lead byte followed by no continuation
      ['filter=anchor%20%3D%20%FF', '%FF'],
      ['filter=%C0%AF', '%C0'], // an overlong form: C0 never starts a character
      ['filter=%E0%80%80', '%E0%80%80'], // an overlong three-byte form
      ['filter=%ED%A0%80', '%ED%A0%80'], // a surrogate
      ['filter=a%zz', '%zz'],
      ['filter=a%2', '%2'],
      ['filter=a%', '%'],
    ];
    for (const [query, escape] of cases) {
      const { status, body } = await details(`${BASE}/links?url=example.com&scope=ROOT_DOMAIN&${query}`);
      expect({ query, status }).toEqual({ query, status: 400 });
      expect(body.error.details).toEqual([
        { parameter: 'filter', rule: 'bad_encoding', escape, message: `filter has a percent-escape that does not decode to UTF-8: ${escape} (encode the value as UTF-8, and a literal % as %25).` },
      ]);
    }
    // The same on any parameter; a % that decoded from %25 is only a character.
    expect((await details(`${BASE}/links?url=example.com%FF&scope=ROOT_DOMAIN`)).body.error.details).toMatchObject([{ parameter: 'url', rule: 'bad_encoding', escape: '%FF' }]);
    const liked = await details(`${BASE}/links?url=example.com&scope=ROOT_DOMAIN&filter=${encodeURIComponent("anchor LIKE '%xample%'")}`);
    expect(liked.status).toBe(200);
    expect(liked.body.meta.total).toBe(3);
  });

  it('an integer too large to hold is refused with its text as given, not rounded', async () => {
    const offset = await details(`${BASE}/links?url=example.com&scope=ROOT_DOMAIN&offset=9223372036854775807`);
    expect(offset.body.error.details).toEqual([
      { parameter: 'offset', rule: 'too_large', maximum: Number.MAX_SAFE_INTEGER, message: 'offset must be at most 9007199254740991, not 9223372036854775807.' },
    ]);
    const limit = await details(`${BASE}/links?url=example.com&scope=ROOT_DOMAIN&limit=99999999999999999999`);
    expect(limit.body.error.details).toEqual([{ parameter: 'limit', rule: 'too_large', maximum: 10000, message: 'limit must be at most 10000, not 99999999999999999999.' }]);
    const negative = await details(`${BASE}/links?url=example.com&scope=ROOT_DOMAIN&offset=-9223372036854775808`);
    expect(negative.body.error.details).toEqual([{ parameter: 'offset', rule: 'too_small', minimum: 0, message: 'offset must be at least 0, not -9223372036854775808.' }]);
    // A fraction the number type would round away is still a fraction.
    const fraction = await details(`${BASE}/links?url=example.com&scope=ROOT_DOMAIN&limit=1.00000000000000000001`);
    expect(fraction.body.error.details).toEqual([{ parameter: 'limit', rule: 'not_an_integer', message: 'limit must be a whole number written in digits, not "1.00000000000000000001".' }]);
  });

  it('Accept: text/csv without format answers CSV; an explicit format wins; Vary names Accept', async () => {
    const links = `${BASE}/links?url=example.com&scope=ROOT_DOMAIN&fields=anchor&limit=2`;
    const csv = await fetch(at(links), { headers: { ...headers(), accept: 'text/csv' } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toMatch(/^anchor\r\n/);
    expect(csv.headers.get('vary')).toMatch(/(^|, *)Accept(,|$)/);
    const cases: [string, string, string][] = [
      ['&format=json', 'text/csv', 'application/json'], // the parameter wins
      ['', 'text/csv, application/json', 'application/json'], // a tie keeps the default
      ['', 'application/json;q=0.5, text/csv', 'text/csv'],
      ['', 'text/csv;q=0', 'application/json'],
      ['', '*/*', 'application/json'],
      ['&format=csv', 'application/json', 'text/csv'],
    ];
    for (const [query, accept, type] of cases) {
      const response = await fetch(at(`${links}${query}`), { headers: { ...headers(), accept } });
      expect({ query, accept, type: response.headers.get('content-type')?.split(';')[0] }).toEqual({ query, accept, type });
    }
    // Matrix has no CSV form: Accept cannot ask for one.
    const matrix = await fetch(at(`${BASE}/matrix?urls=example.com,rival.com&scope=ROOT_DOMAIN`), { headers: { ...headers(), accept: 'text/csv' } });
    expect(matrix.status).toBe(200);
    expect(matrix.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('a filter with hundreds of issues, or a query of thousands of unknown names: a bounded answer that counts the rest', async () => {
    const filter = Array(820).fill('x').join(' OR ').slice(0, 4096); // 820 syntax errors
    const many = await fetch(at(`${BASE}/links?url=example.com&scope=ROOT_DOMAIN&filter=${encodeURIComponent(filter)}`), { headers: headers() });
    const text = await many.text();
    expect(many.status).toBe(400);
    expect(text.length).toBeLessThan(8_000); // 181 KB before
    const manyBody = JSON.parse(text);
    expect(manyBody.error.message).toMatch(/^The request has at least 20 invalid parameter values; the first: Unexpected "OR"/);
    expect(manyBody.error.details).toHaveLength(21);
    expect(manyBody.error.details[20]).toEqual({ rule: 'more_issues', count: 0, message: 'The filter may have more issues: the server looks for its first 20 only.' });
    // Unknown fields (a filter checked against the wrong operation): the listed details stay within 16 KiB.
    const unknown = Array(400).fill('aa > 1').join(' OR ').slice(0, 4096);
    const fields = await details(`${BASE}/links?url=example.com&scope=ROOT_DOMAIN&filter=${encodeURIComponent(unknown)}`);
    expect(JSON.stringify(fields.body.error.details.slice(0, -1)).length).toBeLessThanOrEqual(16 * 1024 + 2);
    expect(fields.body.error.details.at(-1)).toMatchObject({ rule: 'more_issues' });
    // 3,000 unknown names (about 30 KB of query): 20 listed, the other 2,980 counted.
    const names = Array.from({ length: 3000 }, (_, i) => `p${i}=`).join('&');
    const started = performance.now();
    const unknownNames = await details(`${overview}&${names}`);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(unknownNames.body.error.message).toBe('The request has 3000 invalid parameter values; the first: overview takes no parameter p0.');
    expect(unknownNames.body.error.details).toHaveLength(21);
    expect(unknownNames.body.error.details[20]).toEqual({ rule: 'more_issues', count: 2980, message: 'And 2980 more issues, not listed.' });
    // A name of 10,000 characters is shown by its first 100.
    const long = await details(`${overview}&${'n'.repeat(10_000)}=1`);
    expect(long.body.error.details).toEqual([{ parameter: `${'n'.repeat(100)}…`, rule: 'unknown_parameter', message: `overview takes no parameter ${'n'.repeat(100)}….` }]);
  });
});

describe('wire compatibility', () => {
  it('takes the key as ?key= on GET, never echoes or logs it, and the header wins over it', async () => {
    const byQuery = await fetch(at(`${BASE}/overview?url=example.com&scope=ROOT_DOMAIN&key=${KEY}`));
    expect(byQuery.status).toBe(200);
    const body = await byQuery.json();
    expect(JSON.stringify(body)).not.toContain(KEY);
    expect(JSON.stringify(logs)).not.toContain(KEY);
    // A valid header and a wrong query key: the header is used.
    expect((await fetch(at(`${BASE}/overview?url=example.com&scope=ROOT_DOMAIN&key=wrong`), { headers: headers() })).status).toBe(200);
    // A wrong header and a valid query key: the header is used.
    expect((await fetch(at(`${BASE}/overview?url=example.com&scope=ROOT_DOMAIN&key=${KEY}`), { headers: { authorization: 'Apikey wrong' } })).status).toBe(401);
  });

  it('answers at /apis/v4/... as at /_api/apis/v4/...', async () => {
    const query = 'url=example.com&scope=ROOT_DOMAIN&limit=3';
    const a = await (await fetch(at(`/_api/apis/v4/backlinks/v1/anchors?${query}`), { headers: headers() })).json();
    const b = await (await fetch(at(`/apis/v4/backlinks/v1/anchors?${query}`), { headers: headers() })).json();
    expect(b.data).toEqual(a.data);
    expect(b.data).toHaveLength(3);
    expect((await fetch(at('/apis/v4/keywords/v1/metrics?keyword=seo%20tools&country=US'), { headers: headers() })).status).not.toBe(404);
  });

  it('CORS: an allowed origin may call and read the units headers; preflight is answered; others get no grant', async () => {
    const allowed = await fetch(at(`${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`), { headers: { ...headers(), origin: 'https://app.example' } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(allowed.headers.get('access-control-expose-headers')).toBe('X-Request-Id, X-Units-Charged, X-Units-Remaining, Retry-After');
    const preflight = await fetch(at(`${BASE}/overview`), {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
    const other = await fetch(at(`${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`), { headers: { ...headers(), origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    // The grant depends on Origin: a shared cache must not hand one origin's answer to another.
    for (const response of [allowed, preflight, other]) expect(response.headers.get('vary')).toMatch(/(^|, *)Origin(,|$)/);
    // The error answers carry the grant too, so a page can read why it failed.
    const refused = await fetch(at(`${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`), { headers: { origin: 'https://app.example' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });

  it('reads the units balance, free of charge, by header or ?key=', async () => {
    const read = async (init: RequestInit, query = '') => (await (await fetch(at(`/apis/v4/units/v1/balance${query}`), init)).json()).data.units_remaining;
    const before = await read({ headers: headers(POOR) });
    expect(before).toBe(50); // the fixture gives the poor key 50 units
    expect(await read({}, `?key=${POOR}`)).toBe(50); // reading it cost nothing
    const call = await fetch(at(`${BASE}/ref-domains?url=example.com&scope=ROOT_DOMAIN&limit=1`), { headers: headers(POOR) }); // at most 40 units
    expect(call.headers.get('x-units-charged')).toBe(String(before - (await read({ headers: headers(POOR) }))));
    const unauthorized = await fetch(at('/_api/apis/v4/units/v1/balance'));
    expect(unauthorized.status).toBe(401);
    expect((await unauthorized.json()).error).toMatchObject({ code: 401, retryable: false, details: [] });
  });

  it('the balance refuses a parameter it does not take, as an operation does; the key is not one', async () => {
    const response = await fetch(at(`/apis/v4/units/v1/balance?key=${POOR}&units=1&__proto__=2`));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.details).toEqual([
      { parameter: 'units', rule: 'unknown_parameter', message: 'balance takes no parameter units.' },
      { parameter: '__proto__', rule: 'unknown_parameter', message: 'balance takes no parameter __proto__.' },
    ]);
    expect(JSON.stringify(body)).not.toContain(POOR);
    expect((await fetch(at(`/apis/v4/units/v1/balance?key=${POOR}`))).status).toBe(200);
  });

  it('answers the legacy balance address as the real service does: the number alone, free, keyed like the balance', async () => {
    const balance = async () => (await (await fetch(at('/apis/v4/units/v1/balance'), { headers: headers('counted-key-0004') })).json()).data.units_remaining;
    const before = await balance();
    const legacy = await fetch(at('/users/countapiunits.html?key=counted-key-0004'));
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await legacy.text()).toBe(String(before));
    const byHeader = await fetch(at('/users/countapiunits.html'), { headers: headers('counted-key-0004') });
    expect(await byHeader.text()).toBe(String(before));
    expect(await balance()).toBe(before); // reading it cost nothing
    // A wrong or missing key: the 401 envelope, as on every keyed route; the key never echoed.
    for (const query of ['?key=not-a-real-key', '']) {
      const refused = await fetch(at(`/users/countapiunits.html${query}`));
      expect(refused.status).toBe(401);
      const body = await refused.json();
      expect(body.error).toMatchObject({ code: 401, type: '/errors#unauthorized' });
      expect(JSON.stringify(body)).not.toContain('not-a-real-key');
    }
    const unknown = await fetch(at('/users/countapiunits.html?key=counted-key-0004&user=1'));
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.details).toEqual([{ parameter: 'user', rule: 'unknown_parameter', message: 'balance takes no parameter user.' }]);
    const line = logs.findLast((entry) => entry.status === 200 && entry.key_id === 'counted');
    expect(line).toMatchObject({ units: 0 });
  });
});

describe('calls abandoned by the client', () => {
  it('are not charged when the client goes away before the answer is ready', async () => {
    // The real store, whose overview waits at a gate the test opens: the call is provably in flight.
    const { real, store: gated, inside, release } = await gatedFixtureStore('overview');
    const own = await startServer({ store: gated, keys: KEYS, now: () => NOW, port: 0, host: '127.0.0.1' });
    try {
      const before = await real.ledger.balance('tester');
      const controller = new AbortController();
      const pending = fetch(`${own.url}${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`, { headers: headers(), signal: controller.signal });
      await inside;
      controller.abort();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      await new Promise((resolve) => setTimeout(resolve, 50)); // the server sees the socket close
      release();
      await new Promise((resolve) => setTimeout(resolve, 100)); // the handler finishes
      expect(await real.ledger.balance('tester')).toBe(before);
      // The same call, waited for, costs 45 units (overview: 45 per request).
      const done = await fetch(`${own.url}${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`, { headers: headers() });
      expect(done.status).toBe(200);
      expect(done.headers.get('x-units-charged')).toBe('45');
      await expect.poll(() => real.ledger.balance('tester')).toBe(before! - 45);
    } finally {
      await own.close();
    }
  });
});

describe('the client against the server', () => {
  it('leads an HttpError with the server\'s reason: kind, parameter, rule; the URL shortened', async () => {
    const client = createClient({ apiKey: KEY, baseUrl: server.url, retry: false });
    const filter = `anchor LIKE '%${'x'.repeat(3000)}%'`;
    const error = await client.links({ url: 'example.com', scope: 'ROOT_DOMAIN', limit: 100_000, filter }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    const http = error as HttpError;
    expect([http.status, http.code]).toEqual([400, 'invalid_request']);
    expect(http.details.map((d) => [d.parameter, d.rule])).toEqual([['limit', 'too_large']]);
    expect(http.message).toMatch(/^400 invalid_request: limit must be at most 10000\S* .*\[too_large\] \(GET http:\/\/127\.0\.0\.1:\d+\/_api\/apis\/v4\/backlinks\/v1\/links\?/);
    expect(http.message.length).toBeLessThan(400); // the 3,000-character filter is cut from the URL shown
    expect(http.url.length).toBeGreaterThan(3000); // and kept whole in url
  });

  it('reports the units the server charged (X-Units-Charged), not a price it computed', async () => {
    const reporting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const headers = new Headers(response.headers);
      headers.set('x-units-charged', '7');
      return new Response(await response.text(), { status: response.status, headers });
    };
    const client = createClient({ apiKey: KEY, baseUrl: server.url, fetch: reporting });
    const result = await client.overview({ url: 'example.com', scope: 'ROOT_DOMAIN' });
    expect(result.units).toBe(7);
    expect(client.unitsSpent).toBe(7);
  });

  it('reads the balance', async () => {
    const client = createClient({ apiKey: 'counted-key-0004', baseUrl: server.url });
    expect(await client.unitsBalance()).toBe(777);
  });

  it('sends the shortest text of a filter, which the server accepts whole', async () => {
    const sent: string[] = [];
    const watching: typeof fetch = (input, init) => {
      sent.push(new URL(String(input)).searchParams.get('filter') ?? '');
      return fetch(input, init);
    };
    const client = createClient({ apiKey: KEY, baseUrl: server.url, fetch: watching });
    // 4,011 characters as written; in single quotes (the canonical text) it would be 8,011.
    const quotes = `anchor = "${"'".repeat(4000)}"`;
    expect(quotes).toHaveLength(4011);
    const result = await client.links({ url: 'example.com', scope: 'ROOT_DOMAIN', filter: quotes });
    expect(result.meta.total).toBe(0);
    await client.links({ url: 'example.com', scope: 'ROOT_DOMAIN', filter: "anchor = 'it\\'s'" });
    await client.links({ url: 'example.com', scope: 'ROOT_DOMAIN', filter: 'page_score>1   and   anchor like "%a%"' });
    expect(sent).toEqual([quotes, `anchor = "it's"`, "page_score > 1 AND anchor LIKE '%a%'"]);
  });
});

describe('a server shutting down', () => {
  it('answers a request that still reaches it with the 503 envelope, retryable', async () => {
    const { store: gated, inside, release } = await gatedFixtureStore('overview');
    const own = await startServer({ store: gated, keys: KEYS, now: () => NOW, port: 0, host: '127.0.0.1' });
    const path = `${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`;
    const first = fetch(`${own.url}${path}`, { headers: headers() });
    await inside;
    const closing = own.close();
    // A request that reaches the closing server (here injected; over HTTP, one already read on an open connection).
    const late = own.app.inject({ url: path, headers: headers() });
    release();
    expect((await first).status).toBe(200);
    const answer = await late;
    await closing;
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.json().error).toMatchObject({ type: '/errors#unavailable', code: 503, retryable: true, message: 'The server is shutting down; retry shortly.' });
  });
});
