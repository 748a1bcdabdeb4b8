/**
 * The run-time half of the client's catalogue types: what the calls really return against the
 * fixture server. The type checks themselves are in test/types/client.test-d.ts, where vitest's
 * typecheck makes `npm test` fail on a wrong type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

let server: FixtureServer;
let client: Client;
beforeAll(async () => {
  server = await startFixtureServer();
  client = createClient({ apiKey: 'k', baseUrl: server.baseUrl });
});
afterAll(() => server.close());

const site = { url: 'example.com', scope: 'ROOT_DOMAIN' } as const;

describe('values behind the catalogue types', () => {
  it('fields narrow the rows: only the requested fields, in record order', async () => {
    const { data } = await client.links({ ...site, fields: ['domain_score', 'anchor'] as const, limit: 2 });
    expect(data.map((row) => Object.keys(row))).toEqual([
      ['anchor', 'domain_score'],
      ['anchor', 'domain_score'],
    ]);
    const again = await client.refDomains({ ...site, fields: ['domain', 'is_follow'], limit: 1 });
    expect(again.data).toEqual([{ domain: 'domain-0-plain', is_follow: true }]);
  });

  it('overview and keyword metrics return one record; arrays stay arrays', async () => {
    const overview = await client.overview(site);
    expect(Array.isArray(overview.data)).toBe(false);
    expect(overview.data.backlinks_count).toBe(7);
    const metrics = await client.metrics({ keyword: 'shoes', country: 'UK' });
    expect(metrics.data.intents).toEqual(['COMMERCIAL', 'INFORMATIONAL', 'SITELINKS']);
    expect(metrics.data.trends).toEqual([7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
  });

  it('format decides the result: CSV text with decoded rows, or JSON with meta', async () => {
    const csv = await client.anchors({ ...site, format: 'csv', limit: 1 });
    expect(csv.format).toBe('csv');
    expect(csv.text.split('\n')[0]).toBe('anchor;backlinks_count;domains_count;first_seen_at;last_seen_at');
    expect(csv.data).toEqual([{ anchor: 'anchor-0-plain', backlinks_count: 0, domains_count: 0, first_seen_at: '2024-01-01T10:00:00', last_seen_at: '2024-01-01T10:00:00' }]);
    const json = await client.anchors({ ...site, limit: 1 });
    expect(json.format).toBe('json');
    expect('text' in json).toBe(false);
    expect(json.meta.request_id).toBe('req-anchors');
  });

  it('paginate yields the narrowed rows', async () => {
    const rows: unknown[] = [];
    for await (const row of client.paginate.links({ ...site, fields: ['source_url'] }, { maxRows: 2 })) rows.push(row);
    expect(rows).toEqual([{ source_url: 'source_url-0-plain' }, { source_url: 'source_url-1-semi;colon' }]);
  });
});
