/**
 * What the client keeps between calls to save work, and that keeping it changes no answer: the
 * filter texts it checked before (per operation and number of targets; only valid ones), the
 * current month of the parameter rules (one `Date` a month), the JSON shape check's tables.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, isFilterError, type Client } from '../../src/client/index.js';
import { currentMonth } from '../../src/client/params.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

let server: FixtureServer;
let client: Client;

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  client = createClient({ apiKey: 'k', baseUrl: server.baseUrl });
});

const site = { url: 'example.com', scope: 'ROOT_DOMAIN' } as const;
const urls = (n: number) => Array.from({ length: n }, (_, i) => `site${i}.com`);
const rejection = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

describe('a filter checked before', () => {
  it('is sent the same way the second time', async () => {
    const filter = "domain_score>50  and  anchor like '%seo%'";
    await client.links({ ...site, filter });
    await client.links({ ...site, filter });
    // Another client of the same program shares what was checked; the answer is the same.
    await createClient({ apiKey: 'k', baseUrl: server.baseUrl }).links({ ...site, filter });
    expect(server.requests.map((r) => r.query.get('filter'))).toEqual([
      "domain_score > 50 AND anchor LIKE '%seo%'",
      "domain_score > 50 AND anchor LIKE '%seo%'",
      "domain_score > 50 AND anchor LIKE '%seo%'",
    ]);
  });

  it('is checked again for another operation', async () => {
    await client.links({ ...site, filter: 'is_nofollow = true' });
    const error = await rejection(client.anchors({ ...site, filter: 'is_nofollow = true' }));
    expect(isFilterError(error)).toBe(true);
    if (isFilterError(error)) expect(error.issues.map((issue) => issue.code)).toEqual(['unknown_field']);
    expect(server.requests).toHaveLength(1);
  });

  it('is checked again for another number of targets', async () => {
    await client.matrix({ urls: urls(3), scope: 'PAGE', filter: 'backlinks_counts[3] > 0' });
    const error = await rejection(client.matrix({ urls: urls(2), scope: 'PAGE', filter: 'backlinks_counts[3] > 0' }));
    expect(isFilterError(error)).toBe(true);
    if (isFilterError(error)) expect(error.issues.map((issue) => ({ code: issue.code, expected: issue.expected }))).toEqual([{ code: 'index_out_of_range', expected: '2' }]);
    expect(server.requests).toHaveLength(1);
  });

  it('with issues is not kept: it fails the same way every time, and nothing is sent', async () => {
    for (let i = 0; i < 3; i++) {
      const error = await rejection(client.links({ ...site, filter: 'domain_scor > 50' }));
      expect(isFilterError(error)).toBe(true);
      if (isFilterError(error)) {
        expect(error.issues).toHaveLength(1);
        expect(error.issues[0]).toMatchObject({ code: 'unknown_field', offset: 0, length: 11, suggestion: 'domain_score' });
      }
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('currentMonth', () => {
  it('follows the clock across month and year ends, forwards and back', () => {
    expect(currentMonth(Date.UTC(2026, 10, 30, 23, 59, 59, 999))).toBe('2026-11');
    expect(currentMonth(Date.UTC(2026, 11, 1))).toBe('2026-12');
    expect(currentMonth(Date.UTC(2026, 11, 31, 23, 59, 59, 999))).toBe('2026-12');
    expect(currentMonth(Date.UTC(2027, 0, 1))).toBe('2027-01');
    expect(currentMonth(Date.UTC(2026, 10, 1))).toBe('2026-11');
    expect(currentMonth(Date.UTC(2024, 1, 29, 12))).toBe('2024-02');
    expect(currentMonth(Date.UTC(2024, 2, 1))).toBe('2024-03');
  });
});

describe('the JSON shape check', () => {
  it('names the row and field of a value of the wrong type, in a later row too', async () => {
    server.queue((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"meta":{},"data":[{"domain_score":1},{"anchor":"a","domain_score":2},{"domain_score":"high"}]}');
    });
    const error = (await rejection(client.links(site))) as { problem?: string };
    expect(error.problem).toBe('data[2].domain_score is not of type integer');
  });

  it('keeps fields the catalogue does not know, and takes the request id from meta', async () => {
    server.queue((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"meta":{"request_id":"r1"},"data":[{"anchor":"a","domain_score":2,"new_field":[1]}]}');
    });
    const result = await client.links(site);
    expect(result.data).toEqual([{ anchor: 'a', domain_score: 2, new_field: [1] }]);
    expect(result.requestId).toBe('r1');
  });
});
