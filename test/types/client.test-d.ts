/**
 * The client's types, derived from the catalogue. Type-checked by vitest (`typecheck` in
 * vitest.config.ts covers test/types/**\/*.test-d.ts), so `npm test` fails on a wrong type or an
 * unused `@ts-expect-error`. Nothing here runs: the run-time half is test/client/types.test.ts.
 * Expected types are written by hand from the interface's record tables, not from `RowOf`.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { RowOf } from '../../src/catalogue/types.js';
import type { Client, CsvResult, JsonResult, ParamsOf } from '../../src/client/index.js';

declare const client: Client;
const site = { url: 'example.com', scope: 'ROOT_DOMAIN' } as const;

type AnchorRow = { anchor: string; backlinks_count: number; domains_count: number; first_seen_at: string; last_seen_at: string };
type ScoreProfileRow = { domain_score: number; domains_count: number };
type MatrixRow = { domain: string; domain_score: number; ip_address: string; country: string; matches_count: number; backlinks_counts: number[] };
type KeywordMetrics = {
  search_volume: string;
  cpc: string;
  competitive_density: number;
  keyword_difficulty: number;
  number_of_results: string;
  intents: string[];
  serp_features: string[];
  trends: number[];
};

describe('rows from the catalogue', () => {
  it('spells each record as the interface does', () => {
    expectTypeOf<RowOf<'anchors'>>().toEqualTypeOf<AnchorRow>();
    expectTypeOf<RowOf<'score-profile'>>().toEqualTypeOf<ScoreProfileRow>();
    expectTypeOf<RowOf<'matrix'>>().toEqualTypeOf<MatrixRow>();
    expectTypeOf<RowOf<'metrics'>>().toEqualTypeOf<KeywordMetrics>();
    expectTypeOf<RowOf<'competitors'>>().toEqualTypeOf<{ domain: string; similarity: number; common_refdomains: number }>();
    expectTypeOf<RowOf<'ref-ips'>>().toEqualTypeOf<{
      ip_address: string;
      country: string;
      backlinks_count: number;
      domains_count: number;
      first_seen_at: string;
      last_seen_at: string;
    }>();
  });
});

describe('types of calls', () => {
  it('fields narrow the row type', async () => {
    const { data } = await client.links({ ...site, fields: ['anchor', 'domain_score'] as const, limit: 2 });
    expectTypeOf(data).toEqualTypeOf<Array<{ anchor: string; domain_score: number }>>();
    // Without `as const` the const type parameter narrows just the same.
    const again = await client.refDomains({ ...site, fields: ['domain', 'is_follow'], limit: 1 });
    expectTypeOf(again.data[0]!).toEqualTypeOf<{ domain: string; is_follow: boolean }>();
  });

  it('without fields, the whole row; overview and keyword metrics return one record', async () => {
    expectTypeOf((await client.anchors(site)).data).toEqualTypeOf<AnchorRow[]>();
    expectTypeOf((await client.scoreProfile(site)).data).toEqualTypeOf<ScoreProfileRow[]>();
    expectTypeOf((await client.matrix({ urls: ['a.com', 'b.com'], scope: 'PAGE' })).data).toEqualTypeOf<MatrixRow[]>();
    const links = await client.links(site);
    expectTypeOf(links.data).toEqualTypeOf<RowOf<'links'>[]>();
    expectTypeOf(links.data[0]!.is_nofollow).toEqualTypeOf<boolean>();
    expectTypeOf(links.data[0]!.first_seen_at).toEqualTypeOf<string>();
    const overview = await client.overview(site);
    expectTypeOf(overview.data).toEqualTypeOf<RowOf<'overview'>>();
    expectTypeOf(overview.data.backlinks_count).toEqualTypeOf<number>();
    const metrics = await client.metrics({ keyword: 'shoes', country: 'UK' });
    expectTypeOf(metrics.data).toEqualTypeOf<KeywordMetrics>();
    // The former name stays, deprecated, with the same type.
    expectTypeOf(client.keywordMetrics).toEqualTypeOf(client.metrics);
  });

  it('a default field list makes those fields required and the others optional (comparison)', async () => {
    const { data } = await client.comparison({ urls: ['a.com'], scope: 'PAGE' });
    expectTypeOf(data[0]!.score).toEqualTypeOf<number>();
    expectTypeOf(data[0]!.scope).toEqualTypeOf<string>();
    expectTypeOf(data[0]!.month_date).toEqualTypeOf<string | undefined>();
  });

  it('format decides the result type', async () => {
    const csv = await client.anchors({ ...site, format: 'csv', limit: 1 });
    expectTypeOf(csv).toEqualTypeOf<CsvResult<'anchors', AnchorRow>>();
    expectTypeOf(csv.text).toBeString();
    expectTypeOf(csv.format).toEqualTypeOf<'csv'>();
    const json = await client.anchors({ ...site, limit: 1 });
    expectTypeOf(json).toEqualTypeOf<JsonResult<'anchors', AnchorRow>>();
    expectTypeOf(json.format).toEqualTypeOf<'json'>();
    expectTypeOf(json).not.toHaveProperty('text');
  });

  it('paginate yields narrowed rows', async () => {
    for await (const row of client.paginate.links({ ...site, fields: ['source_url'] }, { maxRows: 1 })) {
      expectTypeOf(row).toEqualTypeOf<{ source_url: string }>();
    }
  });
});

describe('parameters', () => {
  it('are typed: enum values, lists, required ones', () => {
    expectTypeOf<ParamsOf<'links'>['scope']>().toEqualTypeOf<'ROOT_DOMAIN' | 'SUBDOMAIN' | 'SUBFOLDER' | 'PAGE'>();
    expectTypeOf<ParamsOf<'summary'>['scope']>().toEqualTypeOf<'ROOT_DOMAIN' | 'SUBDOMAIN' | 'PAGE'>();
    expectTypeOf<ParamsOf<'links'>['direction']>().toEqualTypeOf<'ASC' | 'DESC' | undefined>();
    expectTypeOf<ParamsOf<'matrix'>['urls']>().toEqualTypeOf<readonly string[]>();
    expectTypeOf<ParamsOf<'anchors'>['order_by']>().toEqualTypeOf<keyof AnchorRow | undefined>();
    expectTypeOf<ParamsOf<'metrics'>['country']>().toExtend<string>();
    expectTypeOf<'UK'>().toExtend<ParamsOf<'metrics'>['country']>();
    expectTypeOf<'GB'>().not.toExtend<ParamsOf<'metrics'>['country']>();
  });

  it('refuse what the catalogue does not allow', async () => {
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
    // @ts-expect-error keyword is required
    await client.metrics({ country: 'US' });
  });
});
