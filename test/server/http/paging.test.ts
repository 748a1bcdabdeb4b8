/**
 * Paging through a whole list with limit/offset gives exactly the unpaged list (no repeat, no
 * gap), for every list operation, order and direction, on generated data with many ties. An
 * offset past the end is checked on the hand-made fixture, whose total is known by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, BASE, build, get } from '../support/helpers.js';
import { sampleServer } from '../support/sample-helpers.js';

let ctx: Awaited<ReturnType<typeof sampleServer>>;
beforeAll(async () => {
  ctx = await sampleServer();
});
afterAll(async () => {
  await ctx.app.close();
});

const fetchList = async (op: string, query: Record<string, string>) => {
  const response = await ctx.app.inject({ url: `${BASE}/${op}`, query, headers: AUTH });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { meta: { total: number }; data: unknown[] };
};

const CASES: [string, Record<string, string>][] = [
  ['links', { url: 'example.com', scope: 'ROOT_DOMAIN' }],
  ['links', { url: 'example.com', scope: 'ROOT_DOMAIN', order_by: 'domain_score' }],
  ['links', { url: 'example.com', scope: 'SUBDOMAIN', order_by: 'is_nofollow', direction: 'ASC' }],
  ['links', { url: 'example.com', scope: 'ROOT_DOMAIN', filter: "is_lost = false AND anchor != ''", order_by: 'first_seen_at' }],
  ['ref-domains', { url: 'example.com', scope: 'ROOT_DOMAIN' }],
  ['ref-domains', { url: 'example.com', scope: 'ROOT_DOMAIN', order_by: 'country', direction: 'ASC' }],
  ['ref-ips', { url: 'example.com', scope: 'ROOT_DOMAIN' }],
  ['pages', { url: 'example.com', scope: 'ROOT_DOMAIN', order_by: 'response_code' }],
  ['anchors', { url: 'example.com', scope: 'ROOT_DOMAIN', order_by: 'backlinks_count', direction: 'ASC' }],
  ['competitors', { domain: 'example.com', order_by: 'common_refdomains' }],
  ['matrix', { urls: 'example.com,www.example.com', scope: 'SUBDOMAIN', order_by: 'matches_count' }],
];

/**
 * Pages of 7 rows, or, for a longer list, of the size that cuts it into about 20 pages: still 20
 * page boundaries among the ties, without a call per 7 rows of a list of a thousand (each call is a
 * round trip to the store: two shards' worth on ClickHouse).
 */
const pageSize = (total: number) => Math.max(7, Math.ceil(total / 20));

describe('paging', () => {
  it.each(CASES)('%s %j: its pages add up to the whole list', async (op, query) => {
    const whole = await fetchList(op, { ...query, limit: '10000' });
    expect(whole.data.length).toBe(whole.meta.total);
    const size = pageSize(whole.meta.total);
    expect(whole.meta.total).toBeGreaterThan(size); // at least two pages
    const pages: unknown[] = [];
    for (let offset = 0; offset < whole.meta.total; offset += size) {
      const page = await fetchList(op, { ...query, limit: String(size), offset: String(offset) });
      expect(page.meta.total).toBe(whole.meta.total);
      pages.push(...page.data);
    }
    expect(pages).toEqual(whole.data);
  });

  it('sorts as asked, with ties broken the same way every time', async () => {
    const list = await fetchList('ref-domains', { url: 'example.com', scope: 'ROOT_DOMAIN', order_by: 'domain_score', direction: 'ASC', fields: 'domain,domain_score', limit: '10000' });
    const rows = list.data as { domain: string; domain_score: number }[];
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1]!, rows[i]!];
      expect(a.domain_score < b.domain_score || (a.domain_score === b.domain_score && a.domain < b.domain)).toBe(true);
    }
  });
});

describe('an offset past the end, on the hand-made fixture', () => {
  let fixture: Awaited<ReturnType<typeof build>>;
  beforeAll(async () => {
    fixture = await build();
  });
  afterAll(async () => {
    await fixture.app.close();
  });

  it('gives no rows and the whole list\'s total', async () => {
    const response = await get(fixture.app, 'anchors', { url: 'example.com', scope: 'ROOT_DOMAIN', offset: '100000' });
    expect(response.statusCode, response.body).toBe(200);
    const { meta, data } = response.json() as { meta: { total: number }; data: unknown[] };
    expect(data).toEqual([]);
    // The fixture's anchors of example.com's root domain (fixture.ts): 'Example', '', 'click here',
    // 'semi;colon "quote"\nnewline' and 'seo tips', as operations.test.ts lists them.
    expect(meta.total).toBe(5);
  });
});
