/**
 * Auth, 404/405, rate and concurrency limits, units (headers, exhaustion, concurrent charges),
 * 5xx bodies, request ids and the structured log.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/server/accounts/rate-limiter.js';
import { startServer } from '../../../src/server/server.js';
import { AUTH, BASE, build, dropLinksTable, fixtureStore, get } from '../support/helpers.js';
import { KEYS, NOW } from '../support/fixture.js';

const overview = { url: 'example.com', scope: 'ROOT_DOMAIN' };

describe('authentication and routing', () => {
  let ctx: Awaited<ReturnType<typeof build>>;
  beforeAll(async () => {
    ctx = await build();
  });
  afterAll(async () => {
    await ctx.app.close();
  });

  it.each([
    ['no header', {}],
    ['a wrong key', { authorization: 'Apikey wrong-key-000' }],
    ['another scheme', { authorization: `Bearer ${KEYS[0].key}` }],
    ['a lower-case scheme', { authorization: `apikey ${KEYS[0].key}` }],
    ['two spaces', { authorization: `Apikey  ${KEYS[0].key}` }],
  ])('401 for %s, with the same body', async (_label, headers) => {
    const response = await get(ctx.app, 'overview', overview, headers);
    expect(response.statusCode).toBe(401);
    const body = response.json();
    expect(body).toEqual({
      meta: { request_id: response.headers['x-request-id'], status_code: 401, success: false },
      error: {
        type: '/errors#unauthorized',
        code: 401,
        message: 'A valid API key is required: send the header "Authorization: Apikey <key>" or the query parameter key=<key>.',
        retryable: false,
        details: [],
      },
    });
  });

  it('checks the key before the parameters', async () => {
    const response = await get(ctx.app, 'overview', { scope: 'bad' }, {});
    expect(response.statusCode).toBe(401);
    // The key's error alone: none of the parameters' (url missing, scope 'bad').
    expect(response.json().error).toMatchObject({ code: 401, retryable: false, details: [] });
  });

  it('404 for an unknown path, 405 with Allow for other methods on a known one', async () => {
    const missing = await get(ctx.app, '/_api/apis/v4/backlinks/v1/backlinks');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({ type: '/errors#not_found', code: 404, retryable: false, message: 'No operation at GET /_api/apis/v4/backlinks/v1/backlinks.' });
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'] as const) {
      const response = await ctx.app.inject({ method, url: `${BASE}/links`, headers: AUTH });
      expect(response.statusCode, method).toBe(405);
      expect(response.headers['allow']).toBe('GET, OPTIONS');
    }
  });

  it.each([
    ['/_api/apis/v4/backlinks/v1/link', '; did you mean /_api/apis/v4/backlinks/v1/links?'],
    ['/_api/apis/v4/backlinks/v1/Ref-Domain', '; did you mean /_api/apis/v4/backlinks/v1/ref-domains?'],
    ['/_api/apis/v4/keywords/v1/metric', '; did you mean /_api/apis/v4/keywords/v1/metrics?'],
    ['/_api/apis/v4/units/v1/balanse?key=x', '; did you mean /_api/apis/v4/units/v1/balance?'],
    // Every operation and the balance answer without /_api too (docs/server.md); /health beside them.
    ['/apis/v4/backlinks/v1/link', '; did you mean /apis/v4/backlinks/v1/links?'],
    ['/apis/v4/backlinks/v1/ref-domain', '; did you mean /apis/v4/backlinks/v1/ref-domains?'],
    ['/apis/v4/units/v1/balanse', '; did you mean /apis/v4/units/v1/balance?'],
    ['/helth', '; did you mean /health?'],
    ['/Health', '; did you mean /health?'],
    ['/health/', '.'],
    ['/apis/v4/backlinks/v2/links', '.'],
    ['/_api/apis/v4/backlinks/v1/', '.'],
    ['/_api/apis/v4/backlinks/v2/links', '.'],
    ['/links', '.'],
  ])('404 for %s names the operation it is a likely typo of (%s)', async (url, end) => {
    const response = await ctx.app.inject({ url, headers: AUTH });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe(`No operation at GET ${url.split('?')[0]}${end}`);
  });

  it('serves /openapi.json without a key', async () => {
    const response = await ctx.app.inject({ url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    // The twelve operations, the units balance and the health check.
    expect(Object.keys(response.json().paths)).toHaveLength(14);
  });

  it('gives every response a fresh request id, in meta and X-Request-Id', async () => {
    const a = await get(ctx.app, 'overview', overview);
    const b = await get(ctx.app, 'overview', overview);
    expect(a.json().meta.request_id).toBe(a.headers['x-request-id']);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});

describe('rate limits', () => {
  it('refuses past 3 per second with 429 and Retry-After, admits again a second later, while the data clock stands still', async () => {
    // The data clock fixed (as `serve --now` fixes it); the limiter reads real time, stepped here.
    let now = NOW.getTime();
    const { app } = await build({ now: () => NOW, wallClock: () => now, rateLimits: { perSecond: 3, concurrent: 10 } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(app, 'overview', overview)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await get(app, 'overview', overview);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json().error).toMatchObject({ type: '/errors#rate_limited', code: 429, retryable: true });
    now += 1000;
    expect((await get(app, 'overview', overview)).statusCode).toBe(200);
    await app.close();
  });

  it('defaults to 10 per second', async () => {
    const { app } = await build({ wallClock: () => NOW.getTime(), rateLimits: {} });
    const statuses = [];
    // The wall clock does not move here, so all eleven fall in the same second.
    for (let i = 0; i < 11; i++) statuses.push((await get(app, 'overview', overview)).statusCode);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    expect(statuses[10]).toBe(429);
    await app.close();
  });

  it('limits requests at once, and frees the slot when one ends', () => {
    const limiter = new RateLimiter(() => 0);
    const limits = { perSecond: 100, concurrent: 2 };
    const a = limiter.acquire('k', limits);
    const b = limiter.acquire('k', limits);
    const c = limiter.acquire('k', limits);
    expect([a.ok, b.ok, c.ok]).toEqual([true, true, false]);
    expect(c.ok === false && c.reason).toBe('concurrency');
    if (a.ok) a.release();
    if (a.ok) a.release(); // a second release is ignored
    expect(limiter.acquire('k', limits).ok).toBe(true);
    expect(limiter.acquire('k', limits).ok).toBe(false);
    expect(limiter.acquire('other', limits).ok).toBe(true);
  });
});

describe('units', () => {
  let ctx: Awaited<ReturnType<typeof build>>;
  beforeAll(async () => {
    ctx = await build();
  });
  afterAll(async () => {
    await ctx.app.close();
  });

  it('charges per request or per returned line, and reports the balance', async () => {
    const start = (await ctx.store.ledger.balance('tester'))!;
    const a = await get(ctx.app, 'overview', overview);
    expect([a.headers['x-units-charged'], a.headers['x-units-remaining']]).toEqual(['45', String(start - 45)]);
    const b = await get(ctx.app, 'ref-domains', { ...overview, limit: '3' }); // 3 lines × 40
    expect([b.headers['x-units-charged'], b.headers['x-units-remaining']]).toEqual(['120', String(start - 165)]);
    const c = await get(ctx.app, 'score-profile', overview); // 4 lines × 1
    expect(c.headers['x-units-charged']).toBe('4');
    const d = await get(ctx.app, 'links', { ...overview, filter: "anchor = 'none'" }); // no line, no charge
    expect(d.headers['x-units-charged']).toBe('0');
    // Charges are written a moment after their answers.
    await expect.poll(() => ctx.store.ledger.balance('tester')).toBe(start - 169);
  });

  it('refuses with 402 when the balance does not cover the call, and charges nothing', async () => {
    const poor = { authorization: `Apikey ${KEYS[1].key}` };
    expect((await get(ctx.app, 'overview', overview, poor)).statusCode).toBe(200); // 50 → 5
    const refused = await get(ctx.app, 'overview', overview, poor);
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toMatchObject({
      type: '/errors#insufficient_units',
      code: 402,
      retryable: false,
      details: [{ rule: 'insufficient_units', required: 45, remaining: 5 }],
    });
    await expect.poll(() => ctx.store.ledger.balance('poor')).toBe(5);
    // score-profile costs 1 unit per line, and answers at most 101 lines: refused before its query
    // runs, though this target's profile has 4 lines.
    const profile = await get(ctx.app, 'score-profile', overview, poor);
    expect(profile.statusCode).toBe(402);
    expect(profile.json().error.details).toEqual([{ rule: 'insufficient_units', message: expect.any(String), required: 101, remaining: 5 }]);
    expect(await ctx.store.ledger.balance('poor')).toBe(5);
  });

  it('never loses or doubles a charge under 50 concurrent calls (real HTTP)', async () => {
    const store = await fixtureStore();
    const server = await startServer({ store, keys: KEYS, now: () => NOW, port: 0, host: '127.0.0.1', rateLimits: { perSecond: 1000, concurrent: 1000 } });
    try {
      const url = `${server.url}${BASE}/ref-domains?url=example.com&scope=ROOT_DOMAIN&limit=2`;
      const responses = await Promise.all(Array.from({ length: 50 }, () => fetch(url, { headers: AUTH })));
      expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
      const remaining = responses.map((r) => Number(r.headers.get('x-units-remaining'))).sort((x, y) => y - x);
      // Each call saw its own balance: 1,000,000 - 80, - 160, ... - 4,000.
      expect(remaining).toEqual(Array.from({ length: 50 }, (_, i) => 1_000_000 - 80 * (i + 1)));
      await expect.poll(() => store.ledger.balance('tester')).toBe(1_000_000 - 50 * 80);
    } finally {
      await server.close();
    }
  });
});

describe('failures and logs', () => {
  it('hides the cause of a 5xx', async () => {
    const { app, store } = await build();
    await dropLinksTable(store);
    const response = await get(app, 'links', overview);
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      meta: { request_id: response.headers['x-request-id'], status_code: 500, success: false },
      error: { type: '/errors#internal_error', code: 500, message: 'Internal server error.', retryable: true, details: [] },
    });
    expect(response.body).not.toContain('links');
    await app.close();
  });

  it('logs one structured line per request with the key id, never the key', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
    const { app } = await build({ logger: { level: 'info', stream } });
    const ok = await get(app, 'ref-domains', { ...overview, limit: '2' });
    await get(app, 'overview', overview, {});
    await app.close();
    const records = lines.map((line) => JSON.parse(line)).filter((r) => r.msg === 'request');
    expect(records).toEqual([
      expect.objectContaining({ request_id: ok.headers['x-request-id'], operation: 'ref-domains', key_id: 'tester', status: 200, units: 80, duration_ms: expect.any(Number) }),
      expect.objectContaining({ operation: 'overview', key_id: null, status: 401, units: 0 }),
    ]);
    expect(lines.join('')).not.toContain(KEYS[0].key);
  });
});
