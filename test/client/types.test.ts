/**
 * Types derived from the catalogue. The `expectTypeOf` and `@ts-expect-error` lines are checked by
 * `tsc --noEmit` (this file is in the project); the calls run against the fixture server.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { RowOf } from '../../src/catalogue/types.js';
import { createClient, type Client, type CsvResult, type JsonResult, type ParamsOf } from '../../src/client/index.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

let server: FixtureServer;
let client: Client;
beforeAll(async () => {
  server = await startFixtureServer();
  client = createClient({ apiKey: 'k', baseUrl: server.baseUrl });
});
afterAll(() => server.close());

const site = { url: 'example.com', scope: 'ROOT_DOMAIN' } as const;

describe('types from the catalogue', () => {
  it('fields narrow the row type', async () => {
    const { data } = await client.links({ ...site, fields: ['anchor', 'domain_score'] as const, limit: 2 });
    expectTypeOf(data).toEqualTypeOf<Array<{ anchor: string; domain_score: number }>>();
    expect(Object.keys(data[0]!)).toEqual(['anchor', 'domain_score']);
    // Without `as const` the const type parameter narrows just the same.
    const again = await client.refDomains({ ...site, fields: ['domain', 'is_follow'], limit: 1 });
    expectTypeOf(again.data[0]!).toEqualTypeOf<{ domain: string; is_follow: boolean }>();
  });

  it('without fields, the whole row; overview and keyword metrics return one record', async () => {
    const links = await client.links(site);
    expectTypeOf(links.data).toEqualTypeOf<RowOf<'links'>[]>();
    const overview = await client.overview(site);
    expectTypeOf(overview.data).toEqualTypeOf<RowOf<'overview'>>();
    const metrics = await client.keywordMetrics({ keyword: 'shoes', country: 'UK' });
    expectTypeOf(metrics.data.intents).toEqualTypeOf<string[]>();
    expect(Array.isArray(metrics.data.trends)).toBe(true);
  });

  it('format decides the result type', async () => {
    const csv = await client.anchors({ ...site, format: 'csv', limit: 1 });
    expectTypeOf(csv).toMatchTypeOf<CsvResult<'anchors', RowOf<'anchors'>>>();
    expectTypeOf(csv.text).toBeString();
    const json = await client.anchors({ ...site, limit: 1 });
    expectTypeOf(json).toMatchTypeOf<JsonResult<'anchors', RowOf<'anchors'>>>();
    expect([csv.format, json.format]).toEqual(['csv', 'json']);
  });

  it('paginate yields narrowed rows', async () => {
    for await (const row of client.paginate.links({ ...site, fields: ['source_url'] }, { maxRows: 1 })) {
      expectTypeOf(row).toEqualTypeOf<{ source_url: string }>();
      expect(row.source_url).toBeTypeOf('string');
    }
  });

  it('parameters are typed: required ones, enum values, field names, no extras', () => {
    expectTypeOf<ParamsOf<'links'>['scope']>().toEqualTypeOf<'ROOT_DOMAIN' | 'SUBDOMAIN' | 'SUBFOLDER' | 'PAGE'>();
    expectTypeOf<ParamsOf<'summary'>['scope']>().toEqualTypeOf<'ROOT_DOMAIN' | 'SUBDOMAIN' | 'PAGE'>();
    expectTypeOf<ParamsOf<'matrix'>['urls']>().toEqualTypeOf<readonly string[]>();
    const invalid = async (): Promise<void> => {
      // @ts-expect-error scope is required
      await client.links({ url: 'x' });
      // @ts-expect-error SUBFOLDER is not a scope of summary
      await client.summary({ url: 'x', scope: 'SUBFOLDER' });
      // @ts-expect-error not a field of links
      await client.links({ ...site, fields: ['domain_scor'] });
      // @ts-expect-error competitors take no filter
      await client.competitors({ domain: 'x', filter: 'domain = "a"' });
      // @ts-expect-error matrix has no CSV form
      await client.matrix({ urls: ['a'], scope: 'PAGE', format: 'csv' });
      // @ts-expect-error order_by is a field name
      await client.anchors({ ...site, order_by: 'nope' });
    };
    expect(invalid).toBeTypeOf('function');
  });
});
